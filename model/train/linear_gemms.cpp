#include "train/linear_gemms.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "gemm/train_gemm.hpp"
#include "train/fp32_gemm.hpp"
#include "util/rng.hpp"

namespace hifsim::train {

namespace {

// e with x * 2^e having RMS in [2^-0.5, 2^0.5), lowered until amax * 2^e <= 256 (inside the range
// of every 8-bit element format: E4M3 448, HiF8 32768). 0 for an all-zero tensor.
int pow2_exponent(const float* x, size_t n) {
  double ss = 0, amax = 0;
  for (size_t i = 0; i < n; ++i) ss += static_cast<double>(x[i]) * x[i], amax = std::max(amax, std::fabs(static_cast<double>(x[i])));
  if (ss == 0) return 0;
  int e = -static_cast<int>(std::lround(std::log2(std::sqrt(ss / static_cast<double>(n)))));
  while (e > -126 && std::ldexp(amax, e) > 256.0) --e;
  return e;
}

// x (n / cols rows of cols) times 2^e, each row zero-padded to out_cols >= cols.
std::vector<float> scaled(const float* x, size_t n, int e, size_t cols, size_t out_cols) {
  const size_t rows = n / cols;
  std::vector<float> y(rows * out_cols, 0.0f);
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < cols; ++c) y[r * out_cols + c] = std::ldexp(x[r * cols + c], e);
  return y;
}

}  // namespace

LinearGemms::LinearGemms(const Recipe& recipe, uint64_t seed, unsigned threads, bool measure)
    : recipe_(recipe), seed_(seed), threads_(threads), measure_(measure) {}

void LinearGemms::begin_step(uint64_t step) {
  step_ = step;
  call_ = 0;
  signal_.fill(0);
  noise_.fill(0);
}

void recipe_gemm(const Recipe& recipe, GemmKind kind, const std::string& layer, uint64_t seed, uint64_t step,
                 uint64_t call, unsigned threads, const float* A, size_t M, const float* B, size_t N, size_t K,
                 float* C) {
  KindRecipe rule = recipe.kind(kind);
  if (recipe.keeps(layer)) {
    rule = KindRecipe{};
    rule.format = recipe.keep_format;
  }
  if (!rule.format) {
    fp32_gemm(A, M, K, B, N, C, threads);
    return;
  }
  // The recipe's GEMM: gemm/train_gemm.hpp (RHT of both operands along K, each operand
  // quantized with its own options, the bit-exact engine).
  dp::TrainGemmSpec ts;
  ts.gemm.format = *rule.format;
  ts.gemm.threads = threads;
  if (rule.rht) {
    ts.gemm.rht.n = static_cast<unsigned>(rule.rht);
    ts.gemm.rht.seed = seed;  // one sign vector per run, shared by every transformed GEMM
    ts.gemm.rht.signs = rule.rht_random_signs ? fmt::RhtSigns::random : fmt::RhtSigns::none;
  }
  auto options = [&](OperandRounding r, uint64_t operand, bool weight) {
    fmt::QuantOptions o;
    o.threads = threads;
    if (r == OperandRounding::stochastic) {
      o.rounding = fmt::Rounding::stochastic;
      o.seed = counter_random(seed, 0x5EED0000u + step, call * 2 + operand);
      o.sr_stream = static_cast<uint32_t>(operand);
    }
    o.nvfp4_2d = weight && rule.weight_blocks_2d;
    return o;
  };
  const OperandRounding ra = kind == GemmKind::fprop ? rule.rounding : rule.gradient_rounding;
  ts.a = options(ra, 0, false);
  ts.b = options(rule.rounding, 1, kind != GemmKind::wgrad);  // fprop's W, dgrad's W^T
  std::vector<float> As, Bs;
  const float *a = A, *b = B;
  int ea = 0, eb = 0;
  if (rule.pow2_tensor_scale) {
    ea = pow2_exponent(A, M * K), eb = pow2_exponent(B, N * K);
    As = scaled(A, M * K, ea, K, K), Bs = scaled(B, N * K, eb, K, K);
    a = As.data(), b = Bs.data();
  }
  size_t Kq = K;
  if (rule.rht && K % static_cast<size_t>(rule.rht) != 0) {
    // Zero columns up to a multiple of the Hadamard size: the exact product is unchanged, and a
    // zero-padded quantization block is what the format's own padding does (docs/training.md).
    Kq = (K / rule.rht + 1) * rule.rht;
    As = scaled(a, M * K, 0, K, Kq), Bs = scaled(b, N * K, 0, K, Kq);
    a = As.data(), b = Bs.data();
  }
  const std::vector<float> out = dp::train_gemm_nt(a, M, b, N, Kq, ts);
  const int e = ea + eb;
  for (size_t i = 0; i < M * N; ++i) C[i] = e ? std::ldexp(out[i], -e) : out[i];
}

void LinearGemms::run(GemmKind kind, const std::string& layer, const float* A, size_t M, const float* B, size_t N,
                      size_t K, float* C) {
  recipe_gemm(recipe_, kind, layer, seed_, step_, call_++, threads_, A, M, B, N, K, C);
  if (!measure_) return;
  std::vector<float> ref(M * N);
  fp32_gemm(A, M, K, B, N, ref.data(), threads_);
  const int k = static_cast<int>(kind);
  for (size_t i = 0; i < M * N; ++i) {
    const double r = ref[i], e = static_cast<double>(C[i]) - r;
    signal_[k] += r * r;
    noise_[k] += e * e;
  }
}

double LinearGemms::sqnr_db(GemmKind kind) const {
  const int k = static_cast<int>(kind);
  if (noise_[k] == 0) return std::numeric_limits<double>::infinity();
  return 10.0 * std::log10(signal_[k] / noise_[k]);
}

}  // namespace hifsim::train
