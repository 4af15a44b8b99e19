// Every GEMM kernel variant against the unit-by-unit reference, bit for bit (issue 13).
//
// One checker (the reference: every block through the format's dot-product unit, then the
// Accumulator, gemm.hpp), several generators, the subject (gemm_quantized with a forced
// kernel variant). Per format configuration at least 10^6 unit dot products at the default
// level (HIFSIM_TEST_SCALE scales them; the sanitizer build runs 5 %), from four generators:
//   llm      LLM-like floats (Gaussian bulk, outlier and tiny channels) quantized by the
//            format's own quantizer, with K padding (K not a multiple of the block)
//   spread   finite elements whose exponents span a random 0..64 binades per block (alignment
//            windows cut at every position: sticky bits, window edges, double-sum exactness)
//   cancel   A and B rows are a few base rows with random signs flipped: heavy cancellation,
//            exact zeros, results exactly halfway between two floats (ties), tiny results
//   codes    (corners) uniformly random element and scale codes: every special (NaN, Inf, NaN
//            scales), every scale extreme, subnormal products, overflow to Inf
//   cliff    (corners) two large products that cancel exactly in every output, the result made
//            of products 0..90 binades below them: double sums that round, alignment windows
//            that drop what decides the result
// Each runs on every kernel variant this CPU runs plus the portable one: with one thread for
// each of the four accumulators (FP32 RNE, reduced mantissa RZ and RNE, Kulisch), and with 2
// and 3 threads for FP32 RNE (accumulated inside the tile kernel) and fp32-m10-rz (block
// results accumulated by the engine: the path the other accumulators share).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "common/llm_like.hpp"
#include "common/test_env.hpp"
#include "datapath/element.hpp"
#include "formats/bits.hpp"
#include "gemm/gemm.hpp"
#include "gemm/gemm_cpu.hpp"
#include "util/parallel.hpp"
#include "util/rng.hpp"

using namespace hifsim;
using namespace hifsim::dp;
using fmt::Format;

namespace {

struct Config {
  Format f;
  int lanes = 64;  // hif8
  int width = -1;  // alignment window for hif8/bf16; -1 = the format's default
  AlignPolicy policy = AlignPolicy::trunc;
};

std::string name(const Config& c) {
  std::string s = fmt::format_info(c.f).name;
  if (c.f == Format::hif8) s += " N=" + std::to_string(c.lanes);
  if (c.width >= 0) s += " W=" + std::to_string(c.width) + (c.policy == AlignPolicy::sticky ? " sticky" : " trunc");
  return s;
}

GemmSpec spec_of(const Config& c) {
  GemmSpec s;
  s.format = c.f;
  s.hif8_lanes = c.lanes;
  if (c.width >= 0) {
    s.align = {c.width, c.policy};
    s.align_set = true;
  }
  return s;
}

// Sets an environment variable ("" unsets it) for one scope, restoring the old value.
struct ScopedEnv {
  std::string name, old;
  bool had;
  ScopedEnv(const char* n, const char* v) : name(n) {
    const char* o = std::getenv(n);
    had = o != nullptr;
    if (had) old = o;
    if (*v) setenv(n, v, 1);
    else unsetenv(n);
  }
  ~ScopedEnv() {
    if (had) setenv(name.c_str(), old.c_str(), 1);
    else unsetenv(name.c_str());
  }
};

const char* const kAccs[] = {"fp32", "fp32-m10-rz", "fp32-m13-rne", "kulisch"};

std::vector<CpuVariant> variants_under_test() {
  std::vector<CpuVariant> v = runnable_variants();
  static bool said = false;
  if (!said) {
    said = true;
    for (CpuVariant x : kAllVariants) {
      const std::string why = variant_unavailable_reason(x);
      std::printf("[ kernels  ] %-8s %s\n", variant_name(x), why.empty() ? "tested" : ("SKIPPED: " + why).c_str());
    }
    std::printf("[ kernels  ] CPU: %s\n", cpu_description().c_str());
  }
  return v;
}

GemmKernel kernel_of(CpuVariant v) { return gemm_kernel_of(v); }

// ---- code-level facts per format ----
int code_bits(Format f) { return static_cast<int>(fmt::format_info(f).code_bits); }
uint16_t sign_bit(Format f) { return code_bits(f) == 4 ? 0x8 : code_bits(f) == 8 ? 0x80 : 0x8000; }

Elem decode(Format f, uint16_t c) {
  switch (f) {
    case Format::hif8: return decode_hif8(static_cast<uint8_t>(c));
    case Format::bf16: return decode_bf16(c);
    case Format::mxfp8_e4m3: case Format::fp8_e4m3: return decode_e4m3(static_cast<uint8_t>(c));
    case Format::mxfp8_e5m2: case Format::fp8_e5m2: return decode_e5m2(static_cast<uint8_t>(c));
    default: return decode_e2m1(static_cast<uint8_t>(c));
  }
}

// Positive finite nonzero element codes grouped by their exponent (the unit's decode).
const std::map<int, std::vector<uint16_t>>& codes_by_exp(Format f) {
  static std::map<Format, std::map<int, std::vector<uint16_t>>> cache;
  auto it = cache.find(f);
  if (it != cache.end()) return it->second;
  std::map<int, std::vector<uint16_t>>& m = cache[f];
  const uint32_t n = 1u << (code_bits(f) - 1);
  for (uint32_t c = 1; c < n; ++c) {
    const Elem e = decode(f, static_cast<uint16_t>(c));
    if (e.kind == Elem::num && e.sig != 0) m[e.exp].push_back(static_cast<uint16_t>(c));
  }
  return m;
}

bool has_block_scales(Format f) { return f == Format::hif4 || f == Format::nvfp4 || f == Format::mxfp4 || f == Format::mxfp8_e4m3 || f == Format::mxfp8_e5m2; }

// An empty QTensor of the right shape (K a multiple of the unit width) for code-level filling.
fmt::QTensor blank(Format f, size_t rows, size_t K) {
  fmt::QTensor t;
  t.format = f;
  t.rows = rows;
  t.cols = K;
  t.padded_cols = K;
  t.codes.assign(rows * K, 0);
  if (has_block_scales(f)) t.scales.assign(rows * (K / t.block()), 0);
  if (f == Format::hif4) {
    t.l2.assign(rows * (K / 64), 0);
    t.l3.assign(rows * (K / 64), 0);
  }
  return t;
}

// Random scale codes: `wide` spans every code (NaN at ~1 %), else a narrow realistic range.
void random_scales(fmt::QTensor& t, SplitMix64& r, bool wide) {
  for (auto& s : t.scales) {
    switch (t.format) {
      case Format::hif4: s = static_cast<uint8_t>(wide ? (r.below(100) == 0 ? 0xFF : r.below(255)) : 150 + r.below(40)); break;
      case Format::nvfp4:
        // E4M3 block scales: positive in practice; wide adds zero, subnormal, negative and NaN codes.
        s = static_cast<uint8_t>(wide ? (r.below(100) == 0 ? 0x7F : r.below(50) == 0 ? 0x80 | r.below(0x7F) : r.below(0x7F))
                                      : 0x30 + r.below(0x20));
        break;
      default:  // E8M0
        s = static_cast<uint8_t>(wide ? (r.below(100) == 0 ? 0xFF : r.below(255)) : 120 + r.below(10));
        break;
    }
  }
  if (t.format == Format::hif4)
    for (size_t i = 0; i < t.l2.size(); ++i) {
      t.l2[i] = static_cast<uint8_t>(r.next());
      t.l3[i] = static_cast<uint16_t>(r.next());
    }
  if (t.format == Format::nvfp4) t.tensor_scale = wide ? std::ldexp(1.0f + r.below(8) / 8.0f, static_cast<int>(r.below(40)) - 20) : 1.0f;
}

fmt::QTensor gen_codes(Format f, size_t rows, size_t K, SplitMix64& r) {
  fmt::QTensor t = blank(f, rows, K);
  for (auto& c : t.codes) c = static_cast<uint16_t>(r.below(1u << code_bits(f)));
  random_scales(t, r, true);
  return t;
}

// Finite elements whose exponents span a random number of binades per block of `w`.
fmt::QTensor gen_spread(Format f, size_t rows, size_t K, size_t w, SplitMix64& r) {
  fmt::QTensor t = blank(f, rows, K);
  const auto& by_exp = codes_by_exp(f);
  std::vector<int> exps;
  for (const auto& kv : by_exp) exps.push_back(kv.first);
  const int lo = exps.front(), hi = exps.back();
  for (size_t row = 0; row < rows; ++row)
    for (size_t b = 0; b < K / w; ++b) {
      const int spread = static_cast<int>(r.below(65));
      const int base = lo + static_cast<int>(r.below(static_cast<uint64_t>(hi - lo + 1)));
      for (size_t k = 0; k < w; ++k) {
        uint16_t& c = t.codes[row * K + b * w + k];
        if (r.below(8) == 0) continue;  // zero
        const int e = std::clamp(base - static_cast<int>(r.below(static_cast<uint64_t>(spread) + 1)), lo, hi);
        auto it = by_exp.lower_bound(e);
        if (it == by_exp.end()) --it;
        c = it->second[r.below(it->second.size())];
        if (r.below(2)) c |= sign_bit(f);
      }
    }
  random_scales(t, r, false);
  return t;
}

// Rows from the rows of `a` (row i from row i mod a.rows): same codes and scales, random signs
// flipped (never on zero codes: HiF8's negative zero is its NaN). A and B made this way from the
// same few base rows give dot products of +-x^2 terms: heavy cancellation.
fmt::QTensor gen_cancel(const fmt::QTensor& a, size_t rows, SplitMix64& r) {
  fmt::QTensor t = blank(a.format, rows, a.padded_cols);
  const size_t K = a.padded_cols, nb = a.scales.size() / std::max<size_t>(a.rows, 1);
  for (size_t n = 0; n < rows; ++n) {
    const size_t src = n % a.rows;
    const unsigned flip_rate = 1 + static_cast<unsigned>(r.below(3));  // 1/2, 1/3, 1/4 of the elements
    for (size_t k = 0; k < K; ++k) {
      uint16_t c = a.codes[src * K + k];
      if ((c & ~sign_bit(a.format)) != 0 && r.below(flip_rate + 1) == 0) c ^= sign_bit(a.format);
      t.codes[n * K + k] = c;
    }
    for (size_t j = 0; j < nb; ++j) t.scales[n * nb + j] = a.scales[src * nb + j];
    if (a.format == Format::hif4)
      for (size_t j = 0; j < K / 64; ++j) {
        t.l2[n * (K / 64) + j] = a.l2[src * (K / 64) + j];
        t.l3[n * (K / 64) + j] = a.l3[src * (K / 64) + j];
      }
  }
  t.tensor_scale = a.tensor_scale;
  return t;
}

// Per block of w: positions k0 != k1 hold one large element in A rows and +-(another) in B
// rows, so a_k0 b_k0 + a_k1 b_k1 = 0 in every output; the other elements sit 0..45 binades
// below in each operand. Positions and offsets come from `layout` (the same for A and B).
fmt::QTensor gen_cliff(Format f, size_t rows, size_t K, size_t w, uint64_t layout, bool is_b, SplitMix64& r) {
  fmt::QTensor t = blank(f, rows, K);
  const auto& by_exp = codes_by_exp(f);
  const int lo = by_exp.begin()->first, hi = by_exp.rbegin()->first;
  auto code_near = [&](int e) {
    auto it = by_exp.lower_bound(std::clamp(e, lo, hi));
    if (it == by_exp.end()) --it;
    return it->second[r.below(it->second.size())];
  };
  for (size_t b = 0; b < K / w; ++b) {
    SplitMix64 lay(layout + b);
    const size_t k0 = lay.below(w), k1 = (k0 + 1 + lay.below(w - 1)) % w;
    // Large elements near 2^20 at most, so that the results stay within FP32's range (BF16).
    const int top = std::min(hi, 12) - static_cast<int>(lay.below(4)), drop = static_cast<int>(lay.below(46));
    for (size_t row = 0; row < rows; ++row) {
      uint16_t* c = t.codes.data() + row * K + b * w;
      const uint16_t big = code_near(top);
      for (size_t k = 0; k < w; ++k) {
        if (k == k0 || k == k1) continue;
        if (r.below(4) == 0) continue;  // zero
        c[k] = static_cast<uint16_t>(code_near(top - drop - static_cast<int>(r.below(4))) | (r.below(2) ? sign_bit(f) : 0));
      }
      c[k0] = big;
      c[k1] = is_b ? static_cast<uint16_t>(big ^ sign_bit(f)) : big;
    }
  }
  random_scales(t, r, false);
  return t;
}

enum class Gen { llm, codes, spread, cancel, cliff };
const char* gen_name(Gen g) {
  switch (g) {
    case Gen::llm: return "llm";
    case Gen::codes: return "codes";
    case Gen::spread: return "spread";
    case Gen::cancel: return "cancel";
    case Gen::cliff: return "cliff";
  }
  return "?";
}

struct Operands {
  fmt::QTensor a, b;
};

// M x N outputs of `nblk` unit blocks each.
Operands make_operands(const Config& c, Gen g, size_t M, size_t N, size_t nblk, uint64_t seed) {
  const GemmSpec s = spec_of(c);
  const size_t w = static_cast<size_t>(dot_width(s)), K = nblk * w;
  SplitMix64 r(seed);
  Operands o;
  switch (g) {
    case Gen::llm: {
      const size_t Kl = K - std::min<size_t>(5, w - 1);  // padded back to K by quantize_operand
      const auto xa = test::llm_like_floats(M, Kl, r), xb = test::llm_like_floats(N, Kl, r);
      o.a = quantize_operand(xa.data(), M, Kl, s);
      o.b = quantize_operand(xb.data(), N, Kl, s);
      break;
    }
    case Gen::codes:
      o.a = gen_codes(c.f, M, K, r);
      o.b = gen_codes(c.f, N, K, r);
      break;
    case Gen::spread:
      o.a = gen_spread(c.f, M, K, w, r);
      o.b = gen_spread(c.f, N, K, w, r);
      break;
    case Gen::cliff:
      o.a = gen_cliff(c.f, M, K, w, seed, false, r);
      o.b = gen_cliff(c.f, N, K, w, seed, true, r);
      break;
    case Gen::cancel: {
      const bool fp4 = c.f == Format::hif4 || c.f == Format::nvfp4 || c.f == Format::mxfp4;
      fmt::QTensor base = fp4 ? gen_codes(c.f, 3, K, r) : gen_spread(c.f, 3, K, w, r);
      if (fp4) random_scales(base, r, false);
      o.a = gen_cancel(base, M, r);
      o.b = gen_cancel(base, N, r);
      break;
    }
  }
  return o;
}

std::vector<uint32_t> bits(const std::vector<float>& v) {
  std::vector<uint32_t> b(v.size());
  for (size_t i = 0; i < v.size(); ++i) b[i] = fmt::f32_bits(v[i]);
  return b;
}

// Compares every variant x thread count x accumulator with the reference. Returns the number
// of unit blocks checked per (variant, threads, accumulator).
size_t check_config(const Config& c, size_t target_blocks) {
  const GemmSpec base = spec_of(c);
  const size_t w = static_cast<size_t>(dot_width(base));
  // Shapes with odd M and N (partial tiles of every variant) and K from the block budget.
  struct Shape {
    Gen g;
    size_t M, N;
    double share;  // of target_blocks
  };
  const Shape shapes[] = {
      {Gen::llm, 37, 53, 0.4}, {Gen::spread, 29, 41, 0.3}, {Gen::cancel, 23, 45, 0.3},
      {Gen::codes, 19, 67, 0.05}, {Gen::cliff, 17, 29, 0.05}};
  size_t checked = 0;
  const std::vector<CpuVariant> variants = variants_under_test();
  for (const Shape& sh : shapes) {
    const size_t nblk = std::max<size_t>(2, static_cast<size_t>(target_blocks * sh.share) / (sh.M * sh.N) + 1);
    const uint64_t seed = test::test_seed() ^ (static_cast<uint64_t>(c.f) << 40) ^ (static_cast<uint64_t>(sh.g) << 32) ^
                          (static_cast<uint64_t>(c.lanes) << 16) ^ static_cast<uint64_t>(c.width + 1);
    const Operands op = make_operands(c, sh.g, sh.M, sh.N, nblk, seed);
    // The reference block results, once; then each accumulator folds them in K order.
    std::vector<DotResult> blocks(sh.M * sh.N * nblk);
    parallel_for(sh.M * sh.N, 0, [&](size_t i0, size_t i1) {
      for (size_t i = i0; i < i1; ++i)
        for (size_t b = 0; b < nblk; ++b) blocks[i * nblk + b] = unit_dot(op.a, i / sh.N, op.b, i % sh.N, b, base);
    });
    for (const char* acc_name : kAccs) {
      GemmSpec s = base;
      s.acc = AccSpec::parse(acc_name);
      std::vector<float> want(sh.M * sh.N);
      for (size_t i = 0; i < want.size(); ++i) {
        Accumulator acc(s.acc);
        acc.reset(0.0f);
        for (size_t b = 0; b < nblk; ++b) acc.add(blocks[i * nblk + b]);
        want[i] = epilogue(acc.result(), op.a, op.b);
      }
      const std::vector<uint32_t> want_bits = bits(want);
      const bool all_threads = std::string(acc_name) == "fp32" || std::string(acc_name) == "fp32-m10-rz";
      // The fp family with the FP32 accumulator runs twice: the kernel the engine chooses, and the
      // int16 kernel forced (HIFSIM_FPI_WIDE_SHARE=2, above any share: every generator, its fallbacks included).
      const bool fpi = std::string(acc_name) == "fp32" && fmt::format_traits(c.f).element != fmt::Code::s1p2 &&
                       fmt::format_traits(c.f).element != fmt::Code::e2m1;
      for (CpuVariant v : variants)
        for (const char* forced : {"", "2"}) {
        if (*forced && !fpi) continue;
        ScopedEnv env("HIFSIM_FPI_WIDE_SHARE", forced);
        for (unsigned threads : {1u, 2u, 3u}) {
          if (threads > 1 && !all_threads) continue;
          s.kernel = kernel_of(v);
          s.threads = threads;
          GemmRunInfo info;
          const std::vector<uint32_t> got = bits(gemm_quantized(op.a, op.b, s, &info));
          size_t bad = 0, first = 0;
          for (size_t i = 0; i < got.size(); ++i)
            if (got[i] != want_bits[i] && bad++ == 0) first = i;
          EXPECT_EQ(bad, 0u) << name(c) << ", " << gen_name(sh.g) << " operands " << sh.M << "x" << sh.N << "x"
                             << nblk * w << ", acc " << acc_name << ", kernel " << info.kernel
                             << (info.fp_integer ? " (int16)" : "") << ", " << threads
                             << " threads: " << bad << " outputs differ; first at m=" << first / sh.N
                             << " n=" << first % sh.N << ": got 0x" << std::hex << got[first] << ", reference 0x"
                             << want_bits[first] << std::dec << "; " << test::seed_note();
          if (bad) return 0;  // one report per configuration
        }
      }
    }
    if (sh.g != Gen::codes && sh.g != Gen::cliff) checked += sh.M * sh.N * nblk;
  }
  return checked;
}

const size_t kTarget = test::scaled(1000000, 20000);

void run(const Config& c) {
  const size_t n = check_config(c, kTarget);
  ::testing::Test::RecordProperty("unit_dot_products", static_cast<int>(n));
  EXPECT_GE(n, kTarget);
}

}  // namespace

TEST(GemmKernels, VariantsAreDetectedAndForcible) {
  const std::vector<CpuVariant> v = variants_under_test();
  ASSERT_FALSE(v.empty());
  EXPECT_EQ(v.front(), CpuVariant::portable);
  EXPECT_TRUE(variant_runnable(CpuVariant::portable));
  GemmSpec s;
  for (CpuVariant x : kAllVariants) {
    s.kernel = kernel_of(x);
    if (variant_runnable(x)) EXPECT_EQ(resolved_kernel(s), variant_name(x));
    else EXPECT_THROW(resolved_kernel(s), std::runtime_error) << variant_name(x);
  }
  // HIFSIM_KERNEL steers `automatic`; a bad or unrunnable value is an error naming the variable.
  s.kernel = GemmKernel::automatic;
  const char* old = std::getenv("HIFSIM_KERNEL");
  const std::string saved = old ? old : "";
  setenv("HIFSIM_KERNEL", "portable", 1);
  EXPECT_EQ(resolved_kernel(s), "portable");
  setenv("HIFSIM_KERNEL", "avx1024", 1);
  try {
    resolved_kernel(s);
    ADD_FAILURE() << "HIFSIM_KERNEL=avx1024 accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("HIFSIM_KERNEL"), std::string::npos) << e.what();
  }
  if (old) setenv("HIFSIM_KERNEL", saved.c_str(), 1);
  else unsetenv("HIFSIM_KERNEL");
  EXPECT_EQ(resolved_kernel(s), variant_name(automatic_variant()));
}

// One test per format configuration, so a failure names it.
TEST(GemmKernels, Hif4) { run({Format::hif4}); }
TEST(GemmKernels, Nvfp4) { run({Format::nvfp4}); }
TEST(GemmKernels, Mxfp4) { run({Format::mxfp4}); }
TEST(GemmKernels, Mxfp8E4m3) { run({Format::mxfp8_e4m3}); }
TEST(GemmKernels, Mxfp8E5m2) { run({Format::mxfp8_e5m2}); }
TEST(GemmKernels, Fp8E4m3) { run({Format::fp8_e4m3}); }
TEST(GemmKernels, Fp8E5m2) { run({Format::fp8_e5m2}); }
TEST(GemmKernels, Bf16DefaultWindow) { run({Format::bf16}); }
TEST(GemmKernels, Bf16Exact) { run({Format::bf16, 64, 0}); }
TEST(GemmKernels, Bf16W24Trunc) { run({Format::bf16, 64, 24, AlignPolicy::trunc}); }
TEST(GemmKernels, Bf16W46Sticky) { run({Format::bf16, 64, 46, AlignPolicy::sticky}); }  // widest double window
TEST(GemmKernels, Bf16W47Trunc) { run({Format::bf16, 64, 47, AlignPolicy::trunc}); }    // first checked window
TEST(GemmKernels, Hif8N64Exact) { run({Format::hif8, 64, 0}); }
TEST(GemmKernels, Hif8N32Exact) { run({Format::hif8, 32, 0}); }
TEST(GemmKernels, Hif8N16Exact) { run({Format::hif8, 16, 0}); }
TEST(GemmKernels, Hif8N64W16Trunc) { run({Format::hif8, 64, 16, AlignPolicy::trunc}); }
TEST(GemmKernels, Hif8N64W16Sticky) { run({Format::hif8, 64, 16, AlignPolicy::sticky}); }
TEST(GemmKernels, Hif8N32W8Sticky) { run({Format::hif8, 32, 8, AlignPolicy::sticky}); }
TEST(GemmKernels, Hif8N16W48Trunc) { run({Format::hif8, 16, 48, AlignPolicy::trunc}); }
TEST(GemmKernels, Hif8N64W47Sticky) { run({Format::hif8, 64, 47, AlignPolicy::sticky}); }
TEST(GemmKernels, Hif8N64W64Sticky) { run({Format::hif8, 64, 64, AlignPolicy::sticky}); }
TEST(GemmKernels, Hif8N32W81Trunc) { run({Format::hif8, 32, 81, AlignPolicy::trunc}); }
TEST(GemmKernels, Hif8N64W120Sticky) { run({Format::hif8, 64, 120, AlignPolicy::sticky}); }

// A directed vector where the MXFP4 fast path's double sum would round: the two 32-element
// halves' exponents are 70 apart and the result sits exactly halfway between 0 and the
// smallest subnormal, so only the far smaller half decides it (RNE of 2^-150 + 2^-220 is 2^-149;
// the double 2^-150 + 2^-220 rounds to 2^-150, whose FP32 rounding is 0). Every variant must
// give the unit's result (its scale-gap check sends the block to the unit).
TEST(GemmKernels, Mxfp4ScaleGapDecidedByTheSmallerHalf) {
  fmt::QTensor a = blank(Format::mxfp4, 1, 64);
  a.codes[0] = 1;   // 0.5
  a.codes[32] = 1;  // 0.5
  a.scales = {53, 18};
  const fmt::QTensor b = a;
  GemmSpec s;
  s.format = Format::mxfp4;
  const float want = unit_dot(a, 0, b, 0, 0, s).value;
  EXPECT_EQ(fmt::f32_bits(want), 0x00000001u);  // 2^-149
  const double naive = std::ldexp(1.0, -150) + std::ldexp(1.0, -220);
  EXPECT_EQ(fmt::f32_bits(static_cast<float>(naive)), 0u) << "the vector no longer separates the paths";
  for (const char* acc : kAccs) {
    s.acc = AccSpec::parse(acc);
    s.kernel = GemmKernel::reference;
    const uint32_t ref = fmt::f32_bits(gemm_quantized(a, b, s)[0]);  // 2^-149, or 0 in a reduced mantissa
    for (CpuVariant v : variants_under_test()) {
      s.kernel = kernel_of(v);
      EXPECT_EQ(fmt::f32_bits(gemm_quantized(a, b, s)[0]), ref) << variant_name(v) << " " << acc;
    }
  }
}

// The integer block path of NVFP4 and MXFP4 (gemm_kernels_int8.hpp e2m1_tile) at its limits:
// E2M1 codes of the largest magnitudes (sub-block sums near 16 * 144 / 32 * 144) under scales
// whose per-block spans straddle the integer bounds (NVFP4 factor 480 = 15 << 5 against 512;
// MXFP4 shift 8 against 9) and whose products straddle the normal range of FP32 (MXFP4 block
// exponents around -126..-149 and the top, NVFP4 NaN and negative scales), plus a directed
// NVFP4 row whose sub-block sums are all at their maximum, all-zero sub-blocks under extreme
// scales and sub-blocks of +-2 and zeros only. A wider integer bound overflows int32 (MXFP4
// shift 30 instead of 8, NVFP4 factor 960 instead of 480) and a sloppy zero test (code & 3)
// drops a sub-block of twos: each fails here.
TEST(GemmKernels, E2m1IntegerScalesAtTheirLimits) {
  for (Format f : {Format::nvfp4, Format::mxfp4}) {
    const size_t M = 7, N = 19, K = 64 * 24, sw = f == Format::nvfp4 ? 16 : 32, nsb = 64 / sw;
    SplitMix64 r(test::test_seed() ^ 0xE2A1u ^ static_cast<uint64_t>(f));
    auto make = [&](size_t rows) {
      fmt::QTensor t = blank(f, rows, K);
      for (auto& c : t.codes) c = static_cast<uint16_t>((r.next() % 4 == 0 ? r.next() % 16 : 7) | (r.next() % 2 ? 8 : 0));
      for (size_t b = 0; b < t.scales.size() / nsb; ++b) {
        uint8_t* s = t.scales.data() + b * nsb;
        if (f == Format::mxfp4) {
          // Block exponents near 2^-128 (1..9), around -126..-149 for a pair (55..70), mid
          // (127) and the top (230..254); spans 0, 7, 8, 9, 12 or 40.
          static const int centres[] = {5, 58, 63, 68, 127, 240};
          static const int gaps[] = {0, 7, 8, 9, 12, 40};
          const int c = centres[r.next() % 6], g = gaps[r.next() % 6] * (r.next() % 2 ? 1 : -1);
          s[0] = static_cast<uint8_t>(std::clamp(c + static_cast<int>(r.next() % 5) - 2, 0, 254));
          s[1] = static_cast<uint8_t>(std::clamp(s[0] + g, 0, 254));
        } else {
          // E4M3: a base exponent field and offsets 0..6 (5 fits with significand 15, 6 does not),
          // a negative scale now and then, NaN (0x7F) at ~2 %.
          const int base = 1 + static_cast<int>(r.next() % 9);
          for (size_t j = 0; j < nsb; ++j) {
            const int e = std::min(15, base + static_cast<int>(r.next() % 7));
            uint8_t code = static_cast<uint8_t>((e << 3) | (r.next() % 8));
            if (code == 0x7F) code = 0x7E;
            if (r.next() % 8 == 0) code |= 0x80;
            if (r.next() % 50 == 0) code = 0x7F;
            s[j] = code;
          }
        }
        // Sub-blocks whose elements are all zero (their scale takes no part in the integer form:
        // here an extreme one) and sub-blocks of +-2 (code 4 / 12) and zeros only, which are not zero.
        uint16_t* e = t.codes.data() + (b / (K / 64)) * K + (b % (K / 64)) * 64;
        if (b % 5 == 1) {
          std::fill_n(e, sw, uint16_t{0});
          s[0] = f == Format::mxfp4 ? uint8_t{0} : uint8_t{0x01};
        } else if (b % 5 == 2) {
          for (size_t k = 0; k < sw; ++k) e[sw + k] = static_cast<uint16_t>(r.next() % 3 == 0 ? 0 : r.next() % 2 ? 4 : 12);
        }
      }
      return t;
    };
    fmt::QTensor a = make(M), b = make(N);
    if (f == Format::nvfp4)  // row 0 of both: every element +6, so each S_j = 16 * 144
      for (fmt::QTensor* t : {&a, &b}) {
        std::fill_n(t->codes.begin(), 128, uint16_t{7});
        // Block 0: factors 8, 480, 480, 480 (sum 1.6e9 < 2^31: the integer path). Block 1:
        // 8, 960, 960, 960 (6.4e9: must take the double path).
        const uint8_t s0[] = {2 << 3, 7 << 3 | 7, 7 << 3 | 7, 7 << 3 | 7, 2 << 3, 8 << 3 | 7, 8 << 3 | 7, 8 << 3 | 7};
        std::copy(s0, s0 + 8, t->scales.begin());
      }
    for (const char* acc : kAccs) {
      GemmSpec s;
      s.format = f;
      s.acc = AccSpec::parse(acc);
      s.kernel = GemmKernel::reference;
      const std::vector<uint32_t> want = bits(gemm_quantized(a, b, s));
      for (CpuVariant v : variants_under_test())
        for (unsigned threads : {1u, 2u}) {
          s.kernel = kernel_of(v);
          s.threads = threads;
          const std::vector<uint32_t> got = bits(gemm_quantized(a, b, s));
          size_t bad = 0;
          for (size_t i = 0; i < got.size(); ++i) bad += got[i] != want[i];
          EXPECT_EQ(bad, 0u) << fmt::format_info(f).name << " " << acc << " " << variant_name(v) << " " << threads
                             << " threads; " << test::seed_note();
        }
    }
  }
}

// The E4M3 code of a value (a test failure when it has none).
static uint16_t e4m3_code_of(double v) {
  for (uint16_t c = 0; c < 0x7F; ++c) {
    const Elem e = decode_e4m3(static_cast<uint8_t>(c));
    if (e.kind == Elem::num && std::ldexp(static_cast<double>(e.sig), e.exp) == v) return c;
  }
  ADD_FAILURE() << v << " is no E4M3 value";
  return 0;
}

// The int16 kernel of the fp family (gemm_kernels_fpi.hpp) at its limits, FP8-E4M3 and MXFP8-E4M3,
// one 32-block, A = B, forced on (HIFSIM_FPI_WIDE_SHARE=2), every variant against the unit:
//   int16 form  q = 240 / 2^-7 = 30720 fits; 256 / 2^-7 = 32768 does not (the scalar path):
//               an int16 limit one bit wider wraps 32768 to -32768 and fails here
//   int32 sum   n elements 24 = 12288 * 2^-9 and one 2^-9: S = n 12288^2 + 1 = |A| |B|, n = 14
//               below 2^31 (must stay in the kernel: no slow block), n = 15 above (int64); a norm
//               limit of 2^32 wraps n = 15, one of 2^30 sends n = 14 to the slow path: both fail
//   scale       MXFP8 1 x 1 under scales 2^(eA + eB) = 2^-126 (normal: the kernel) and 2^-127
//               (subnormal: the scalar path); a lower bound of -127 builds 2^-127 as 0 and fails
TEST(GemmKernels, FpIntegerKernelAtItsLimits) {
  struct Case {
    const char* what;
    Format f;
    std::vector<std::pair<double, int>> elems;  // value, count
    int scale_a, scale_b;                      // E8M0 codes (MXFP8)
    bool slow;                                 // expected off the kernel (GemmRunInfo::slow_scale_blocks)
  };
  const Case cases[] = {
      {"q 30720", Format::fp8_e4m3, {{240.0, 1}, {0x1p-7, 1}}, 127, 127, false},
      {"q 32768", Format::fp8_e4m3, {{256.0, 1}, {0x1p-7, 1}}, 127, 127, true},
      {"S below 2^31", Format::fp8_e4m3, {{24.0, 14}, {0x1p-9, 1}}, 127, 127, false},
      {"S above 2^31", Format::fp8_e4m3, {{24.0, 15}, {0x1p-9, 1}}, 127, 127, true},
      {"2^-126", Format::mxfp8_e4m3, {{1.0, 1}}, 64, 64, false},
      {"2^-127", Format::mxfp8_e4m3, {{1.0, 1}}, 63, 64, true},
  };
  ScopedEnv env("HIFSIM_FPI_WIDE_SHARE", "2");
  for (const Case& c : cases) {
    fmt::QTensor a = blank(c.f, 1, 32);
    size_t k = 0;
    for (const auto& [v, n] : c.elems)
      for (int i = 0; i < n; ++i) a.codes[k++] = e4m3_code_of(v);
    fmt::QTensor b = a;
    if (c.f == Format::mxfp8_e4m3) {
      a.scales = {static_cast<uint8_t>(c.scale_a)};
      b.scales = {static_cast<uint8_t>(c.scale_b)};
    }
    GemmSpec s;
    s.format = c.f;
    const uint32_t want = fmt::f32_bits(unit_dot(a, 0, b, 0, 0, s).value);
    for (CpuVariant v : variants_under_test()) {
      s.kernel = kernel_of(v);
      GemmRunInfo info;
      const uint32_t got = fmt::f32_bits(gemm_quantized(a, b, s, &info)[0]);
      EXPECT_EQ(got, want) << c.what << " " << variant_name(v) << ": got 0x" << std::hex << got << ", unit 0x" << want;
      if (v == CpuVariant::portable || v == CpuVariant::avx2) {  // the variants with the int16 kernel
        EXPECT_TRUE(info.fp_integer) << c.what << " " << variant_name(v);
        EXPECT_EQ(info.slow_scale_blocks, c.slow ? 1u : 0u) << c.what << " " << variant_name(v);
      }
    }
  }
}

// The HiF8 code of 2^x, -1 when it has none.
static int hif8_pow2_code(int x) {
  for (int c = 0; c < 0x80; ++c) {
    const Elem e = decode_hif8(static_cast<uint8_t>(c));
    if (e.kind == Elem::num && e.sig && std::ldexp(static_cast<double>(e.sig), e.exp) == std::ldexp(1.0, x)) return c;
  }
  return -1;
}

// The scalar exact path (gemm_fpi_exact.cpp) against an alignment window that drops one bit:
// HiF8 N=64 W=47 trunc (the first window the int16 kernel takes), A = (2^s, 2^(s-12), 2^(s-20)),
// B = (2^s, 2^(s-12), 2^y): the sum is 2^2s (1 + 2^-24 + a small third product), just above a
// tie, and y puts the small product's bit exactly one below the unit's window (A's spread of 20
// binades has no int16 form: the scalar path). The unit truncates it and rounds the tie to even;
// the exact sum rounds up. A window test one bit too lenient keeps the bit and fails here.
TEST(GemmKernels, FpScalarPathRespectsTheWindow) {
  const auto code_of = hif8_pow2_code;
  const int W = 47;
  bool found = false;
  for (int s = -4; s <= 8 && !found; ++s) {
    const int c0 = code_of(s), c1 = code_of(s - 12), c2 = code_of(s - 20);
    if (c0 < 0 || c1 < 0 || c2 < 0) continue;
    const Elem e0 = decode_hif8(static_cast<uint8_t>(c0));
    const int L = 2 * e0.exp + kHif8ProductBits - W;  // the window's LSB weight
    const int y = L - 1 - (s - 20);
    const int cy = code_of(y);
    if (cy < 0) continue;
    found = true;
    fmt::QTensor a = blank(Format::hif8, 1, 64), b = blank(Format::hif8, 1, 64);
    a.codes[0] = b.codes[0] = static_cast<uint16_t>(c0);
    a.codes[1] = b.codes[1] = static_cast<uint16_t>(c1);
    a.codes[2] = static_cast<uint16_t>(c2);
    b.codes[2] = static_cast<uint16_t>(cy);
    GemmSpec spec;
    spec.format = Format::hif8;
    spec.align = {W, AlignPolicy::trunc};
    spec.align_set = true;
    const float unit = unit_dot(a, 0, b, 0, 0, spec).value;
    const double exact = std::ldexp(1.0, 2 * s) * (1 + 0x1p-24) + std::ldexp(1.0, s - 20 + y);
    ASSERT_NE(fmt::f32_bits(unit), fmt::f32_bits(static_cast<float>(exact))) << "s=" << s << ": the vector no longer separates";
    ScopedEnv env("HIFSIM_FPI_WIDE_SHARE", "2");
    for (CpuVariant v : variants_under_test()) {
      spec.kernel = kernel_of(v);
      GemmRunInfo info;
      EXPECT_EQ(fmt::f32_bits(gemm_quantized(a, b, spec, &info)[0]), fmt::f32_bits(unit)) << "s=" << s << " " << variant_name(v);
    }
  }
  EXPECT_TRUE(found) << "no HiF8 vector found";
}

// Ties in the int16 kernel's one rounding (FP32 accumulator, one FP8-E4M3 32-block, A = B, in the
// kernel: q over 2^-6, S = 4096^2 + t): S = 2^24 + 1 is a tie below an even neighbour (RNE keeps
// 2^12, ties-away gives 2^12 (1 + 2^-23)), S = 2^24 + 3 a tie below an odd one (RNE and ties-away
// give 2^12 (1 + 2^-22), truncation 2^12 (1 + 2^-23)), S = 2^24 + 2 exact. A rounding one bit
// off, ties-away or truncation fails one of them; each is checked against the unit and the value.
TEST(GemmKernels, FpIntegerKernelRoundsTiesToEven) {
  struct Case {
    int small;     // elements 2^-6 beside the one 64: S = 2^24 + small
    double value;  // the FP32 result
  };
  const Case cases[] = {{1, 0x1p12}, {2, 0x1p12 * (1 + 0x1p-23)}, {3, 0x1p12 * (1 + 0x1p-22)}};
  ScopedEnv env("HIFSIM_FPI_WIDE_SHARE", "2");
  for (const Case& c : cases) {
    fmt::QTensor a = blank(Format::fp8_e4m3, 1, 32);
    a.codes[0] = e4m3_code_of(64.0);
    for (int i = 1; i <= c.small; ++i) a.codes[i] = e4m3_code_of(0x1p-6);
    const fmt::QTensor b = a;
    GemmSpec s;
    s.format = Format::fp8_e4m3;
    const uint32_t want = fmt::f32_bits(static_cast<float>(c.value));
    ASSERT_EQ(fmt::f32_bits(unit_dot(a, 0, b, 0, 0, s).value), want) << "S = 2^24 + " << c.small << ": the unit";
    for (CpuVariant v : variants_under_test()) {
      s.kernel = kernel_of(v);
      GemmRunInfo info;
      const uint32_t got = fmt::f32_bits(gemm_quantized(a, b, s, &info)[0]);
      EXPECT_EQ(got, want) << "S = 2^24 + " << c.small << " " << variant_name(v) << ": got 0x" << std::hex << got;
      if (v == CpuVariant::portable || v == CpuVariant::avx2) {
        EXPECT_TRUE(info.fp_integer) << variant_name(v);
        EXPECT_EQ(info.slow_scale_blocks, 0u) << "S = 2^24 + " << c.small << " " << variant_name(v) << ": left the kernel";
      }
    }
  }
}

// The scalar exact path's two sums (gemm_fpi_exact.cpp): int64 while the products span at most 56
// binades, 128 bits above. HiF8 N=64, exact window, A = B = (2^15, 2^3, 2^e): 2^30 + 2^6 is a tie
// (2^30 (1 + 2^-24)) and 2^2e only a sticky bit that makes RNE round it up. With e = -20 the span
// needs the 128-bit sum: an int64 sum there loses the sticky product (its shift leaves 64 bits)
// and rounds the tie down to even; e = -8 stays in int64. Both blocks off the unit (no int16 form).
TEST(GemmKernels, FpScalarPathSumsWideSpansIn128Bits) {
  auto code_of = [](int x) {
    const int c = hif8_pow2_code(x);
    if (c < 0) ADD_FAILURE() << "2^" << x << " is no HiF8 value";
    return static_cast<uint16_t>(c < 0 ? 0 : c);
  };
  const uint32_t want = fmt::f32_bits(0x1p30f * (1 + 0x1p-23f));
  ScopedEnv env("HIFSIM_FPI_WIDE_SHARE", "2");
  for (int e : {-8, -20}) {
    fmt::QTensor a = blank(Format::hif8, 1, 64);
    a.codes[0] = code_of(15);
    a.codes[1] = code_of(3);
    a.codes[2] = code_of(e);
    const fmt::QTensor b = a;
    GemmSpec s;
    s.format = Format::hif8;
    s.align = {0, AlignPolicy::trunc};
    s.align_set = true;
    ASSERT_EQ(fmt::f32_bits(unit_dot(a, 0, b, 0, 0, s).value), want) << "e=" << e << ": the unit";
    for (CpuVariant v : variants_under_test()) {
      s.kernel = kernel_of(v);
      GemmRunInfo info;
      const uint32_t got = fmt::f32_bits(gemm_quantized(a, b, s, &info)[0]);
      EXPECT_EQ(got, want) << "e=" << e << " " << variant_name(v) << ": got 0x" << std::hex << got;
      if (v == CpuVariant::portable || v == CpuVariant::avx2) {
        EXPECT_EQ(info.slow_scale_blocks, 1u) << "e=" << e << " " << variant_name(v) << ": not the scalar path";
        EXPECT_EQ(info.fallback_blocks, 0u) << "e=" << e << " " << variant_name(v) << ": the unit took it";
      }
    }
  }
}
