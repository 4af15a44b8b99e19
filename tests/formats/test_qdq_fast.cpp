// The fast quantize-dequantize paths (formats/qdq_fast.hpp) against the reference path
// dequantize(quantize(x)), bit for bit, for every format and every rounding mode the fast path
// accepts, with both instruction-set paths (AVX2 when the CPU has it, and the portable build),
// and for several thread counts (results must not depend on them).
//
// Stimulus per configuration: >= 10^7 values (HIFSIM_TEST_SCALE scales it; the sanitizer build
// uses 5%) in a 10000 x 1000 tensor (1000 is not a multiple of 16, 32 or 64: every row ends in a
// zero-padded block), mixing random FP32 patterns, "already quantized" values (small integers
// times powers of two: exact ties everywhere), per-block scale jumps, signed zeros, subnormals,
// huge values and rare NaN/Inf; plus a boundary tensor of every value and midpoint of the
// element grids, +-4 ulps.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <sstream>

#include "formats/bits.hpp"
#include "formats/codes.hpp"
#include "formats/minifloat.hpp"
#include "formats/qdq_fast.hpp"
#include "formats/tensor.hpp"
#include "reference.hpp"
#include "util/error.hpp"

using namespace hifsim::fmt;

namespace {

std::vector<float> stimulus(size_t rows, size_t cols, uint64_t seed, bool finite_only) {
  std::vector<float> x(rows * cols);
  ref::Gen g(seed);
  for (size_t r = 0; r < rows; ++r) {
    int seg_scale = 0;
    for (size_t c = 0; c < cols; ++c) {
      if (c % 16 == 0) seg_scale = static_cast<int>(g.next() % 64) - 32;  // scale jumps between blocks
      const uint64_t k = g.next();
      float v;
      switch (k % 8) {
        case 0: case 1: case 2:  // already quantized: n/8 * 2^s, many exact ties
          v = std::ldexp(static_cast<float>(static_cast<int>(g.next() % 129) - 64) / 8.0f, seg_scale);
          break;
        case 3:  // a tie plus or minus one ulp
          v = std::ldexp(static_cast<float>(2 * (g.next() % 32) + 1) / 16.0f, seg_scale);
          v = bits_f32(f32_bits(v) + static_cast<uint32_t>(static_cast<int>(g.next() % 3) - 1));
          break;
        case 4:  // any pattern with an exponent in [2^-40, 2^40)
          v = bits_f32((g.u32() & 0x807FFFFFu) | ((87 + static_cast<uint32_t>(g.next() % 80)) << 23));
          break;
        default:  // a continuous value at the block scale
          v = static_cast<float>(std::ldexp(g.uniform() * 2 - 1, seg_scale));
          break;
      }
      const uint64_t rare = g.next() % 100000;
      if (rare < 20) v = rare < 10 ? 0.0f : -0.0f;
      else if (rare < 25) v = bits_f32(g.u32() & 0x807FFFFFu);                     // subnormal
      else if (rare < 28) v = bits_f32((g.u32() & 0x807FFFFFu) | 0x7E800000u);     // huge
      else if (!finite_only && rare < 29) v = (rare & 1) ? INFINITY : -INFINITY;
      else if (!finite_only && rare < 30) v = std::nanf("");
      x[r * cols + c] = v;
    }
  }
  return x;
}

// Every value and midpoint of the HiF8, FP8 and E2M1 grids and of many scaled copies, +-4 ulps.
std::vector<float> boundaries(size_t cols) {
  std::vector<double> pts = ref::hif8_grid().grid;
  for (const ref::Mini* m : {&ref::kE2M1, &ref::kE4M3, &ref::kE5M2}) {
    const ref::MiniGrid g = ref::mini_grid(*m);
    for (size_t i = 0; i < g.grid.size(); ++i) {
      pts.push_back(g.grid[i]);
      pts.push_back((g.grid[i] + (i + 1 < g.grid.size() ? g.grid[i + 1] : g.virt)) / 2);
    }
  }
  for (int e = -30; e <= 20; ++e)
    for (int m = 0; m < 16; ++m) pts.push_back(std::ldexp(m + 0.5, e));
  std::vector<float> v;
  for (double p : pts)
    for (int d = -4; d <= 4; ++d) {
      const int64_t b = static_cast<int64_t>(ref::bits(static_cast<float>(p))) + d;
      if (b < 0) continue;
      v.push_back(bits_f32(static_cast<uint32_t>(b)));
      v.push_back(-bits_f32(static_cast<uint32_t>(b)));
    }
  while (v.size() % cols) v.push_back(0.0f);
  return v;
}

struct Config {
  Format f;
  Rounding r;
  bool sat;
  NvfpRecipe recipe;
  std::string name() const {
    std::string s = std::string(format_info(f).name) + "/" + rounding_name(r) + (sat ? "/sat" : "");
    if (f == Format::nvfp4) s += recipe == NvfpRecipe::te ? "/te" : "/torchao";
    return s;
  }
};

std::vector<Config> configs() {
  using R = Rounding;
  return {
      {Format::hif8, R::nearest_away, false, {}},     {Format::hif8, R::nearest_away, true, {}},
      {Format::hif8, R::nearest_even, false, {}},     {Format::hif8, R::nearest_even, true, {}},
      {Format::hif8, R::toward_zero, false, {}},      {Format::hif8, R::toward_zero, true, {}},
      {Format::fp8_e4m3, R::nearest_even, false, {}}, {Format::fp8_e4m3, R::nearest_even, true, {}},
      {Format::fp8_e4m3, R::nearest_away, false, {}}, {Format::fp8_e4m3, R::nearest_away, true, {}},
      {Format::fp8_e5m2, R::nearest_even, false, {}}, {Format::fp8_e5m2, R::nearest_even, true, {}},
      {Format::fp8_e5m2, R::nearest_away, false, {}}, {Format::fp8_e5m2, R::nearest_away, true, {}},
      {Format::bf16, R::nearest_even, false, {}},     {Format::bf16, R::toward_zero, false, {}},
      {Format::hif4, R::nearest_away, false, {}},     {Format::hif4, R::nearest_even, false, {}},
      {Format::mxfp4, R::nearest_even, false, {}},    {Format::mxfp4, R::nearest_away, false, {}},
      {Format::mxfp8_e4m3, R::nearest_even, false, {}}, {Format::mxfp8_e4m3, R::nearest_away, false, {}},
      {Format::mxfp8_e5m2, R::nearest_even, false, {}}, {Format::mxfp8_e5m2, R::nearest_away, false, {}},
      {Format::nvfp4, R::nearest_even, false, NvfpRecipe::te},
      {Format::nvfp4, R::nearest_even, false, NvfpRecipe::torchao},
  };
}

QuantOptions options(const Config& c, unsigned threads) {
  QuantOptions o;
  o.rounding = c.r;
  o.saturate = c.sat;
  o.nvfp4_recipe = c.recipe;
  o.threads = threads;
  return o;
}

// First differing index, or -1.
long first_diff(const std::vector<float>& a, const std::vector<float>& b) {
  for (size_t i = 0; i < a.size(); ++i)
    if (f32_bits(a[i]) != f32_bits(b[i])) return static_cast<long>(i);
  return -1;
}

void check(const Config& c, const std::vector<float>& x, size_t rows, size_t cols, const std::string& what) {
  const QTensor q = quantize(c.f, x.data(), rows, cols, options(c, 0));
  const std::vector<float> want = dequantize(q);
  std::vector<QdqIsa> isas = {QdqIsa::portable};
  if (qdq_fast_cpu_has_avx2()) isas.push_back(QdqIsa::avx2);
  for (QdqIsa isa : isas) {
    qdq_fast_set_isa(isa);
    for (unsigned threads : {1u, 2u, 3u}) {
      if (threads != 1 && isa == QdqIsa::portable && x.size() > 1000000) continue;  // thread split checked on avx2
      std::vector<float> got(x.size());
      ASSERT_TRUE(qdq_fast(c.f, x.data(), got.data(), rows, cols, options(c, threads))) << c.name();
      const long d = first_diff(got, want);
      EXPECT_EQ(d, -1) << c.name() << " " << what << " isa " << qdq_isa_name(isa) << " threads " << threads
                       << ": element " << d << " x=0x" << std::hex << (d >= 0 ? f32_bits(x[d]) : 0) << " got 0x"
                       << (d >= 0 ? f32_bits(got[d]) : 0) << " want 0x" << (d >= 0 ? f32_bits(want[d]) : 0) << "; "
                       << ref::seed_note();
    }
  }
  qdq_fast_set_isa(QdqIsa::automatic);
}

}  // namespace

TEST(QdqFast, BoundaryValues) {
  const size_t cols = 96;  // not a multiple of 64: padding
  const std::vector<float> b = boundaries(cols);
  for (const Config& c : configs()) {
    std::vector<float> x = b;
    if (c.f == Format::nvfp4)
      for (auto& v : x)
        if (!std::isfinite(v)) v = 0;
    check(c, x, x.size() / cols, cols, "boundaries");
  }
}

TEST(QdqFast, TenMillionValuesPerFormatAndMode) {
  const size_t cols = 1000;
  const size_t rows = std::max<size_t>(1, ref::scaled(10'000'000) / cols);
  const std::vector<float> x = stimulus(rows, cols, ref::test_seed() + 500, false);
  std::vector<float> xf = x;  // NVFP4 has no NaN/Inf: the same data with the non-finite values zeroed
  for (auto& v : xf)
    if (!std::isfinite(v)) v = 0;
  for (const Config& c : configs()) check(c, c.f == Format::nvfp4 ? xf : x, rows, cols, "random");
}

TEST(QdqFast, FallsBackWhereNotHandled) {
  std::vector<float> x(64, 1.0f), y(64);
  QuantOptions o;
  o.rounding = Rounding::stochastic;
  EXPECT_FALSE(qdq_fast(Format::hif8, x.data(), y.data(), 1, 64, o));
  o.rounding = Rounding::hybrid;
  EXPECT_FALSE(qdq_fast(Format::hif8, x.data(), y.data(), 1, 64, o));
  QuantOptions h;
  h.hif4_compare = Hif4Compare::bf16_rounded;
  EXPECT_FALSE(qdq_fast(Format::hif4, x.data(), y.data(), 1, 64, h));
  QuantOptions m;
  m.mx_scale_rule = MxScaleRule::ceil;
  EXPECT_FALSE(qdq_fast(Format::mxfp4, x.data(), y.data(), 1, 64, m));
  // quantize_dequantize still gives the reference bits on the fallback and the stochastic
  // stream does not depend on the thread count.
  std::vector<float> big = stimulus(100, 1000, 9, false), a(big.size()), b(big.size());
  o.rounding = Rounding::stochastic;
  o.seed = 42;
  o.threads = 1;
  quantize_dequantize(Format::hif8, big.data(), a.data(), 100, 1000, o);
  o.threads = 3;
  quantize_dequantize(Format::hif8, big.data(), b.data(), 100, 1000, o);
  EXPECT_EQ(first_diff(a, b), -1);
}

TEST(QdqFast, NvfpRejectsNonFinite) {
  std::vector<float> x(32, 1.0f), y(32);
  x[20] = INFINITY;
  EXPECT_THROW(qdq_fast(Format::nvfp4, x.data(), y.data(), 2, 16, {}), hifsim::Error);
}

TEST(QdqFast, PlainE2M1ElementsMatchTheCodec) {
  // fp4-e2m1 on its own (the ml-dtypes float4_e2m1fn peer in the benchmarks): the fast path must
  // equal minifloat_decode(minifloat_encode(x)) with saturation, for RNE and ties-away.
  const size_t cols = 1000, rows = std::max<size_t>(1, ref::scaled(10'000'000) / cols);
  std::vector<float> x = stimulus(rows, cols, ref::test_seed() + 600, true);
  const std::vector<float> b = boundaries(cols);
  x.insert(x.end(), b.begin(), b.end());
  for (Rounding r : {Rounding::nearest_even, Rounding::nearest_away}) {
    MiniFloatEncode e;
    e.rounding = r;
    e.saturate = true;
    std::vector<float> want(x.size());
    for (size_t i = 0; i < x.size(); ++i) want[i] = minifloat_decode(kE2M1, minifloat_encode(kE2M1, x[i], e));
    for (QdqIsa isa : {QdqIsa::portable, QdqIsa::avx2}) {
      if (isa == QdqIsa::avx2 && !qdq_fast_cpu_has_avx2()) continue;
      qdq_fast_set_isa(isa);
      QuantOptions o;
      o.rounding = r;
      std::vector<float> got(x.size());
      ASSERT_TRUE(qdq_fast(Format::fp4_e2m1, x.data(), got.data(), 1, x.size(), o));
      const long d = first_diff(got, want);
      EXPECT_EQ(d, -1) << rounding_name(r) << " " << qdq_isa_name(isa) << " element " << d;
    }
    qdq_fast_set_isa(QdqIsa::automatic);
  }
}

namespace {

// Blocks that aim at HiF4's decision points: the level-2/level-3 thresholds (products exactly
// 4 and 2, and one BF16 ulp either side), element ties (quarter-odd multiples of the unit), the
// E6M2 rounding of SF (carries into the next binade, the 49152 clamp, the 2^-48 clamp),
// subnormal BF16 elements, FP32 values that round to BF16 Inf, signed zeros, NaN and Inf.
std::vector<float> hif4_corner_blocks(size_t blocks, uint64_t seed) {
  ref::Gen g(seed);
  std::vector<float> x(blocks * 64);
  for (size_t b = 0; b < blocks; ++b) {
    float* v = x.data() + b * 64;
    const int e = static_cast<int>(g.next() % 300) - 150;  // the block's binade, far beyond E6M2
    const uint64_t kind = g.next() % 6;
    for (int k = 0; k < 64; ++k) {
      // Small integers times a power of two: every threshold and tie of the unit lies on them.
      float y = std::ldexp(static_cast<float>(g.next() % 57), e - static_cast<int>(g.next() % 6));
      if (kind == 1) y = bits_f32(f32_bits(y) + (static_cast<uint32_t>(g.next() % 3) << 16) - (1u << 16));  // +-1 BF16 ulp
      if (kind == 2) y = bits_f32(g.u32() & 0x007FFFFFu);                                          // subnormals
      if (kind == 3 && k == 0) y = bits_f32(0x7F7F8000u + (g.u32() & 0x7FFFu));  // rounds to BF16 max or Inf
      if (kind == 4) y = k == 0 ? std::ldexp(1.0f, static_cast<int>(g.next() % 256) - 128) : 0.0f;  // one peak
      if (!std::isfinite(y)) y = 0.0f;
      if (g.next() % 2) y = -y;
      v[k] = y;
    }
    if (kind == 5) {
      const uint64_t r = g.next() % 4;
      v[g.next() % 64] = r == 0 ? std::nanf("") : r == 1 ? -INFINITY : r == 2 ? INFINITY : -0.0f;
    }
  }
  return x;
}

std::string unit_text(const Hif4Unit& u) {
  std::ostringstream s;
  s << "e6m2 " << int(u.e6m2) << " e1_8 " << int(u.e1_8) << " e1_16 " << u.e1_16 << " nib";
  for (int k = 0; k < 64; ++k) s << ' ' << int(u.nib[k]);
  return s.str();
}

}  // namespace

// hif4_quantize_fast (the codes fmt::quantize and the GEMM engine use) against the reference
// quantizer hif4_quantize, unit for unit, for both instruction-set paths and every option:
// random stimulus (ties, subnormals, huge values, NaN, Inf), the boundary values and the
// corner blocks above. The options the fast kernel does not handle must take the reference.
TEST(QdqFast, Hif4CodesEqualTheReferenceQuantizer) {
  std::vector<float> x = stimulus(std::max<size_t>(1, ref::scaled(2'000'000) / 1024), 1024, ref::test_seed() + 700, false);
  const std::vector<float> b = boundaries(64), c = hif4_corner_blocks(ref::scaled(200'000), ref::test_seed() + 701);
  x.insert(x.end(), b.begin(), b.end());
  x.insert(x.end(), c.begin(), c.end());
  const size_t units = x.size() / 64;
  std::vector<QdqIsa> isas = {QdqIsa::portable};
  if (qdq_fast_cpu_has_avx2()) isas.push_back(QdqIsa::avx2);
  for (Rounding r : {Rounding::nearest_away, Rounding::nearest_even})
    for (Hif4Compare cmp : {Hif4Compare::exact, Hif4Compare::bf16_rounded})
      for (bool inf_nan : {false, true}) {
        Hif4Options o;
        o.element_rounding = r;
        o.compare = cmp;
        o.inf_to_nan = inf_nan;
        std::vector<Hif4Unit> want(units);
        for (size_t i = 0; i < units; ++i) want[i] = hif4_quantize(x.data() + 64 * i, o);
        for (QdqIsa isa : isas) {
          qdq_fast_set_isa(isa);
          size_t bad = 0, first = 0;
          for (size_t i = 0; i < units; ++i)
            if (!(hif4_quantize_fast(x.data() + 64 * i, o) == want[i]) && bad++ == 0) first = i;
          EXPECT_EQ(bad, 0u) << rounding_name(r) << (cmp == Hif4Compare::exact ? " exact" : " bf16") << " inf_to_nan "
                             << inf_nan << " isa " << qdq_isa_name(isa) << ": " << bad << " of " << units
                             << " units differ; first " << first << ": got "
                             << unit_text(hif4_quantize_fast(x.data() + 64 * first, o)) << " want "
                             << unit_text(want[first]) << "; " << ref::seed_note();
        }
      }
  qdq_fast_set_isa(QdqIsa::automatic);
}

// mx_quantize_block_fast / nvfp4_quantize_block_fast (the codes fmt::quantize uses) against the
// reference block quantizers, codes and scale, for both instruction-set paths: every MX element
// type, rounding and scale rule (the ceil rule must take the reference), NVFP4's two recipes at
// tensor scales from tiny to huge (and an all-zero tensor's), full and partial blocks, the random
// stimulus (NaN, Inf, subnormals, ties), the boundary values and the HiF4 corner blocks.
TEST(QdqFast, BlockCodesEqualTheReferenceQuantizers) {
  std::vector<float> x = stimulus(std::max<size_t>(1, ref::scaled(1'000'000) / 1024), 1024, ref::test_seed() + 800, false);
  const std::vector<float> b = boundaries(64), c = hif4_corner_blocks(ref::scaled(50'000), ref::test_seed() + 801);
  x.insert(x.end(), b.begin(), b.end());
  x.insert(x.end(), c.begin(), c.end());
  std::vector<QdqIsa> isas = {QdqIsa::portable};
  if (qdq_fast_cpu_has_avx2()) isas.push_back(QdqIsa::avx2);
  // Block i holds min(block, 1 + i % (2 * block)) values: every partial length, mostly full.
  auto len = [](size_t i, size_t blk) { return std::min(blk, 1 + i % (2 * blk)); };
  for (QdqIsa isa : isas) {
    qdq_fast_set_isa(isa);
    for (const MiniFloatSpec* e : {&kE2M1, &kE4M3, &kE5M2})
      for (Rounding r : {Rounding::nearest_even, Rounding::nearest_away})
        for (MxScaleRule rule : {MxScaleRule::floor, MxScaleRule::ceil}) {
          const MxOptions o{r, rule};
          size_t bad = 0, blocks = x.size() / 32;
          for (size_t i = 0; i < blocks; ++i) {
            uint8_t want[32], got[32], ws = 0, gs = 1;
            std::memset(got, 0xAA, sizeof got);
            mx_quantize_block(*e, x.data() + 32 * i, len(i, 32), o, want, ws);
            mx_quantize_block_fast(*e, x.data() + 32 * i, len(i, 32), o, got, gs);
            bad += (ws != gs || std::memcmp(want, got, 32) != 0) ? 1 : 0;
          }
          EXPECT_EQ(bad, 0u) << e->name << " " << rounding_name(r) << (rule == MxScaleRule::floor ? " floor" : " ceil")
                             << " isa " << qdq_isa_name(isa) << ": " << bad << " of " << blocks << " blocks differ; "
                             << ref::seed_note();
        }
    for (NvfpRecipe recipe : {NvfpRecipe::te, NvfpRecipe::torchao})
      for (float amax : {0.0f, 0x1p-120f, 1e-3f, 1.0f, 448.0f * 6.0f, 1e30f, FLT_MAX}) {
        const Nvfp4TensorScale ts = nvfp4_tensor_scale(amax, recipe);
        size_t bad = 0, blocks = x.size() / 16;
        for (size_t i = 0; i < blocks; ++i) {
          uint8_t want[16], got[16], ws = 0, gs = 1;
          std::memset(got, 0xAA, sizeof got);
          nvfp4_quantize_block(x.data() + 16 * i, len(i, 16), ts, recipe, want, ws);
          nvfp4_quantize_block_fast(x.data() + 16 * i, len(i, 16), ts, recipe, got, gs);
          bad += (ws != gs || std::memcmp(want, got, 16) != 0) ? 1 : 0;
        }
        EXPECT_EQ(bad, 0u) << "nvfp4 " << (recipe == NvfpRecipe::te ? "te" : "torchao") << " amax " << amax << " isa "
                           << qdq_isa_name(isa) << ": " << bad << " of " << blocks << " blocks differ; " << ref::seed_note();
        // The batched form fmt::quantize uses for runs of full blocks, on the stimulus (groups of
        // eight with a NaN or Inf go block by block) and on a copy without NaN and Inf (every
        // group through the eight-block kernel), plus a tail of fewer than eight blocks.
        std::vector<float> finite = x;
        for (float& v : finite) v = std::isfinite(v) ? v : 1.5f;
        for (const std::vector<float>* in : {&x, &finite}) {
          const size_t nb = blocks - 3;
          std::vector<uint8_t> gc(16 * nb, 0xAA), gsc(nb, 1);
          nvfp4_quantize_blocks_fast(in->data(), nb, ts, recipe, gc.data(), gsc.data());
          size_t bad8 = 0;
          for (size_t i = 0; i < nb; ++i) {
            uint8_t want[16], ws = 0;
            nvfp4_quantize_block(in->data() + 16 * i, 16, ts, recipe, want, ws);
            bad8 += (ws != gsc[i] || std::memcmp(want, gc.data() + 16 * i, 16) != 0) ? 1 : 0;
          }
          EXPECT_EQ(bad8, 0u) << "nvfp4 blocks " << (in == &x ? "stimulus" : "finite") << " "
                              << (recipe == NvfpRecipe::te ? "te" : "torchao") << " amax " << amax << " isa "
                              << qdq_isa_name(isa) << ": " << bad8 << " of " << nb << " blocks differ; " << ref::seed_note();
        }
      }
  }
  qdq_fast_set_isa(QdqIsa::automatic);
}

// The element-wise code quantizers (encode_codes_fast, behind fmt::quantize for hif8, fp8 and bf16)
// against the reference encoder encode_code, code for code: every configuration the fast path
// takes, >= 10^7 values each (the random stimulus: ties and ties +-1 ulp, subnormals, huge values,
// NaN, Inf, signed zeros) plus the grid boundaries +-4 ulps, both instruction-set paths, 1/2/3
// threads through fmt::quantize.
TEST(QdqFast, ElementCodesEqualTheReferenceEncoder) {
  const size_t cols = 1000;
  const size_t rows = std::max<size_t>(1, ref::scaled(10'000'000) / cols);
  std::vector<float> x = stimulus(rows, cols, ref::test_seed() + 900, false);
  const std::vector<float> b = boundaries(cols);
  x.insert(x.end(), b.begin(), b.end());
  const size_t n = x.size();
  std::vector<QdqIsa> isas = {QdqIsa::portable};
  if (qdq_fast_cpu_has_avx2()) isas.push_back(QdqIsa::avx2);
  for (const Config& c : configs()) {
    if (format_info(c.f).block != 1) continue;
    const QuantOptions o = options(c, 0);
    std::vector<uint16_t> want(n);
    for (size_t i = 0; i < n; ++i) want[i] = encode_code(c.f, x[i], c.r, o, i);
    for (QdqIsa isa : isas) {
      qdq_fast_set_isa(isa);
      for (unsigned threads : {1u, 2u, 3u}) {
        const QTensor q = quantize(c.f, x.data(), n / cols, cols, options(c, threads));
        size_t d = 0;
        while (d < n && q.codes[d] == want[d]) ++d;
        EXPECT_EQ(d, n) << c.name() << " isa " << qdq_isa_name(isa) << " threads " << threads << ": element " << d
                        << " x=0x" << std::hex << (d < n ? f32_bits(x[d]) : 0) << " got 0x" << (d < n ? q.codes[d] : 0)
                        << " want 0x" << (d < n ? want[d] : 0) << "; " << ref::seed_note();
      }
    }
  }
  qdq_fast_set_isa(QdqIsa::automatic);
  // What the fast path does not take it leaves alone.
  uint16_t code = 0xABCD;
  EXPECT_FALSE(encode_codes_fast(Format::fp8_e4m3, x.data(), 1, Rounding::toward_zero, false, &code));
  EXPECT_FALSE(encode_codes_fast(Format::hif8, x.data(), 1, Rounding::stochastic, false, &code));
  EXPECT_FALSE(encode_codes_fast(Format::fp4_e2m1, x.data(), 1, Rounding::nearest_even, false, &code));
  EXPECT_EQ(code, 0xABCD);
}
