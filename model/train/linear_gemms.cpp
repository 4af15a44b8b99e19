#include "train/linear_gemms.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "datapath/gemm.hpp"
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

std::vector<float> scaled(const float* x, size_t n, int e) {
  std::vector<float> y(n);
  for (size_t i = 0; i < n; ++i) y[i] = std::ldexp(x[i], e);
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

void LinearGemms::run(GemmKind kind, const std::string& layer, const float* A, size_t M, const float* B, size_t N,
                      size_t K, float* C) {
  const uint64_t call = call_++;
  KindRecipe rule = recipe_.kind(kind);
  if (recipe_.keeps(layer)) {
    rule = KindRecipe{};
    rule.format = recipe_.keep_format;
  }
  if (!rule.format) {
    fp32_gemm(A, M, K, B, N, C, threads_);
    return;
  }
  dp::GemmSpec spec;
  spec.format = *rule.format;
  spec.threads = threads_;
  spec.quant.threads = threads_;
  auto operand_spec = [&](OperandRounding r, uint64_t operand) {
    dp::GemmSpec s = spec;
    if (r == OperandRounding::stochastic) {
      s.quant.rounding = fmt::Rounding::stochastic;
      s.quant.seed = counter_random(seed_, 0x5EED0000u + step_, call * 2 + operand);
    }
    return s;
  };
  const OperandRounding ra = kind == GemmKind::fprop ? rule.rounding : rule.gradient_rounding;
  std::vector<float> As, Bs;
  const float *a = A, *b = B;
  int ea = 0, eb = 0;
  if (rule.pow2_tensor_scale) {
    ea = pow2_exponent(A, M * K), eb = pow2_exponent(B, N * K);
    As = scaled(A, M * K, ea), Bs = scaled(B, N * K, eb);
    a = As.data(), b = Bs.data();
  }
  const fmt::QTensor qa = dp::quantize_operand(a, M, K, operand_spec(ra, 0));
  const fmt::QTensor qb = dp::quantize_operand(b, N, K, operand_spec(rule.rounding, 1));
  dp::gemm_quantized_into(qa, qb, spec, C);
  if (ea + eb != 0)
    for (size_t i = 0; i < M * N; ++i) C[i] = std::ldexp(C[i], -(ea + eb));
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
