// Stochastic rounding (docs/training.md, "Stochastic rounding"): the Threefry-2x32-20 stream
// against the published known answers, the vectorised fill against the one-element draw on every
// instruction-set path, and for every tensor format an aggregate test over many seeds that the
// up-rate of each element is exactly the specified floor(f 2^B) / 2^B and the mean error zero,
// with round-to-nearest on the same input shown biased. Results do not depend on the thread count.
//
// Mutations shown failing (docs/training.md lists them): `frac + rbits < frac` -> `<=` in
// bits.hpp (a biased compare: up-rate off by 2^-B), and the Threefry rotation 13 -> 12; for the
// fused quantizers (sr_draws drawn block by block): `>=` -> `>` in their element loops, the
// Threefry counter g0 + 1, the B = 8 lane one byte off, the B | 64 lanes' mask one bit short
// (B = 32), and the draw window of fmt::quantize taken as 96 elements instead of 64.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "formats/codes.hpp"
#include "formats/format.hpp"
#include "formats/qdq_fast.hpp"
#include "formats/stochastic.hpp"
#include "formats/tensor.hpp"
#include "reference.hpp"
#include "util/error.hpp"

using namespace hifsim::fmt;

namespace {

TEST(Stochastic, ThreefryKnownAnswers) {
  // Random123 kat_vectors, threefry2x32 20 rounds: counter (c0, c1), key (k0, k1) -> (x0, x1).
  struct Kat { uint32_t c0, c1, k0, k1, x0, x1; };
  const Kat kats[] = {
      {0, 0, 0, 0, 0x6b200159u, 0x99ba4efeu},
      {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x1cb996fcu, 0xbb002be7u},
      {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u, 0xc4923a9cu, 0x483df7a0u},
  };
  for (const Kat& k : kats) {
    const uint64_t w = threefry2x32_20(k.k0 | (uint64_t{k.k1} << 32), k.c0, k.c1);
    EXPECT_EQ(static_cast<uint32_t>(w), k.x0);
    EXPECT_EQ(static_cast<uint32_t>(w >> 32), k.x1);
  }
}

TEST(Stochastic, LaneMappingAndFillMatchDraw) {
  // Element i takes lane i mod L of group i / L: bits [lane * B, lane * B + B) of the word.
  const SrStream s8{42, 7, 8};
  const uint64_t w = threefry2x32_20(42, 3, 7);
  for (unsigned lane = 0; lane < 8; ++lane) EXPECT_EQ(sr_draw(s8, 3 * 8 + lane), (w >> (8 * lane)) & 0xFF);
  const SrStream s5{42, 7, 5};  // L = 12 lanes, the top 4 bits unused
  EXPECT_EQ(sr_draw(s5, 12 * 3 + 11), (w >> 55) & 0x1F);
  for (QdqIsa isa : {QdqIsa::portable, QdqIsa::avx2}) {
    if (isa == QdqIsa::avx2 && !qdq_fast_cpu_has_avx2()) continue;
    qdq_fast_set_isa(isa);
    for (unsigned bits : {1u, 3u, 8u, 13u, 32u}) {
      const SrStream s{0x0123456789ABCDEFull, 99, bits};
      for (uint64_t first : {uint64_t{0}, uint64_t{5}, uint64_t{1000003}}) {
        std::vector<uint64_t> got(777);
        sr_fill(s, first, got.size(), got.data());
        for (size_t i = 0; i < got.size(); ++i)
          ASSERT_EQ(got[i], sr_rbits(s, first + i)) << qdq_isa_name(isa) << " B " << bits << " i " << first + i;
      }
    }
  }
  qdq_fast_set_isa(QdqIsa::automatic);
}

TEST(Stochastic, RuleIsTheCarryOfTheTopBDiscardedBits) {
  // v = 0b1011'0110 shifted right by 8: T = 0xB6 with B = 8 rounds up iff r >= 256 - 0xB6 = 0x4A.
  for (uint32_t r = 0; r < 256; ++r)
    EXPECT_EQ(round_shift_right(0x1B6, 8, Rounding::stochastic, sr_word(r, 8)), r >= 0x4A ? 2u : 1u) << r;
  // Bits below the top B are dropped: T = 0xB6 for every low part, B = 8.
  for (uint32_t r : {0x49u, 0x4Au})
    EXPECT_EQ(round_shift_right((uint64_t{0x1B6} << 20) | 0xFFFFF, 28, Rounding::stochastic, sr_word(r, 8)),
              r >= 0x4A ? 2u : 1u);
  // Fewer discarded bits than B: T zero-extended, so 1 discarded bit set (f = 1/2) rounds up
  // for exactly half of the 2^B values.
  int up = 0;
  for (uint32_t r = 0; r < 256; ++r) up += round_shift_right(3, 1, Rounding::stochastic, sr_word(r, 8)) == 2;
  EXPECT_EQ(up, 128);
}

// ---- aggregate unbiasedness, every tensor format ---------------------------------------------

// An input whose every element lies a fraction k/16 (k = 1..7, below one half) of the way between
// its two neighbours, so round-to-nearest always rounds it down (biased) and 4-bit stochastic
// rounding is exactly unbiased. Block formats get a first element that fixes a power-of-two
// scale (HiF4 7 * 2^3 -> E6M2 2^3; NVFP4 6 * 2^3 with no tensor scale; MX any), so the fraction
// seen by the quantizer is the fraction between the dequantized neighbours.
struct Prepared {
  std::vector<float> x;
  std::vector<float> lo, hi;  // observed neighbour magnitudes (lo == hi: element not used)
};

QuantOptions sr_options(Format f, uint64_t seed, unsigned bits) {
  QuantOptions o;
  o.rounding = Rounding::stochastic;
  o.seed = seed;
  o.sr_bits = bits;
  o.nvfp4_tensor_scale = f != Format::nvfp4;  // nvfp4: single level, so the scale is a power of two
  o.threads = 2;
  return o;
}

// Neighbours of every element from `seeds` stochastic draws (min and max magnitude seen).
void observe(Format f, const std::vector<float>& x, size_t rows, size_t cols, int seeds, std::vector<float>& lo,
             std::vector<float>& hi) {
  lo.assign(x.size(), INFINITY);
  hi.assign(x.size(), 0.0f);
  std::vector<float> y(x.size());
  for (int s = 0; s < seeds; ++s) {
    quantize_dequantize(f, x.data(), y.data(), rows, cols, sr_options(f, 1000 + s, 8));
    for (size_t i = 0; i < x.size(); ++i) {
      lo[i] = std::min(lo[i], std::fabs(y[i]));
      hi[i] = std::max(hi[i], std::fabs(y[i]));
    }
  }
}

Prepared prepare(Format f, size_t rows, size_t cols, uint64_t seed) {
  const size_t blk = format_info(f).block;
  const float amax = f == Format::hif4 ? 56.0f : f == Format::nvfp4 ? 48.0f : 40.0f;
  ref::Gen g(seed);
  std::vector<float> x0(rows * cols);
  for (size_t i = 0; i < x0.size(); ++i) {
    const bool block_max = blk > 1 && i % blk == 0;
    const double m = block_max ? amax : (0.02 + 0.9 * g.uniform()) * amax;
    x0[i] = static_cast<float>((g.next() & 1) ? -m : m);
  }
  Prepared p;
  observe(f, x0, rows, cols, 48, p.lo, p.hi);
  p.x = x0;
  for (size_t i = 0; i < x0.size(); ++i) {
    if (blk > 1 && i % blk == 0) continue;
    if (p.lo[i] == p.hi[i]) continue;
    const double k = 1 + static_cast<double>(g.next() % 7);
    const double m = p.lo[i] + (static_cast<double>(p.hi[i]) - p.lo[i]) * k / 16;
    p.x[i] = static_cast<float>(x0[i] < 0 ? -m : m);
  }
  observe(f, p.x, rows, cols, 48, p.lo, p.hi);  // the neighbours of the prepared values
  return p;
}

struct Tally {
  double samples = 0, up = 0, expect_up = 0, var = 0, err = 0;  // err in units of (hi - lo)
};

Tally run(Format f, const Prepared& p, size_t rows, size_t cols, int seeds, const QuantOptions& base, bool sr) {
  Tally t;
  std::vector<float> y(p.x.size());
  for (int s = 0; s < seeds; ++s) {
    QuantOptions o = base;
    o.seed = 7 + s;
    quantize_dequantize(f, p.x.data(), y.data(), rows, cols, o);
    for (size_t i = 0; i < p.x.size(); ++i) {
      if (!(p.lo[i] < p.hi[i])) continue;
      const double span = static_cast<double>(p.hi[i]) - p.lo[i];
      const double frac = (std::fabs(static_cast<double>(p.x[i])) - p.lo[i]) / span;
      const double pr = std::floor(frac * (1u << base.sr_bits)) / (1u << base.sr_bits);  // the specified rate
      t.samples += 1;
      t.up += std::fabs(y[i]) == p.hi[i];
      t.expect_up += pr;
      t.var += pr * (1 - pr);
      t.err += (std::fabs(static_cast<double>(y[i])) - std::fabs(static_cast<double>(p.x[i]))) / span;
    }
  }
  (void)sr;
  return t;
}

class SrUnbiased : public ::testing::TestWithParam<Format> {};

TEST_P(SrUnbiased, UpRateIsTheSpecifiedOneAndRneIsBiased) {
  const Format f = GetParam();
  const size_t rows = 16, cols = 256;
  const Prepared p = prepare(f, rows, cols, ref::test_seed() + static_cast<uint64_t>(f));
  const Tally t = run(f, p, rows, cols, 256, sr_options(f, 0, 4), true);
  ASSERT_GT(t.samples, 0.5 * 256 * rows * cols) << "too few elements with two neighbours";
  // The count of round-ups against the specified probabilities: a z-score over ~10^6 draws.
  const double z = (t.up - t.expect_up) / std::sqrt(t.var);
  EXPECT_LT(std::fabs(z), 5.0) << format_info(f).name << ": up " << t.up << " expected " << t.expect_up;
  // Mean error in units of the local spacing: 0 for SR on these inputs (to 10^-2; the noise is
  // ~5e-4), about -1/4 for round-to-nearest, which always rounds these inputs down.
  const double sr_mean = t.err / t.samples;
  EXPECT_LT(std::fabs(sr_mean), 0.01) << format_info(f).name;
  QuantOptions rne = sr_options(f, 0, 4);
  rne.rounding = Rounding::nearest_even;
  const Tally r = run(f, p, rows, cols, 1, rne, false);
  EXPECT_LT(r.err / r.samples, -0.1) << format_info(f).name << ": round-to-nearest should be biased here";
  std::printf("%-11s SR mean error %+.5f spacing (z %.2f over %.0f draws); RNE %+.4f\n", format_info(f).name, sr_mean,
              z, t.samples, r.err / r.samples);
}

INSTANTIATE_TEST_SUITE_P(EveryTensorFormat, SrUnbiased,
                         ::testing::Values(Format::hif4, Format::nvfp4, Format::mxfp4, Format::mxfp8_e4m3,
                                           Format::mxfp8_e5m2, Format::hif8, Format::fp8_e4m3, Format::fp8_e5m2,
                                           Format::bf16),
                         [](const auto& info) {
                           std::string n = format_info(info.param).name;
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

TEST(Stochastic, ThreadCountAndSeedInvariance) {
  ref::Gen g(ref::test_seed() + 300);
  const size_t rows = 37, cols = 320;
  std::vector<float> x(rows * cols);
  for (auto& v : x) v = static_cast<float>((g.uniform() - 0.5) * 20);
  for (Format f : {Format::hif4, Format::nvfp4, Format::mxfp4, Format::mxfp8_e4m3, Format::mxfp8_e5m2, Format::hif8,
                   Format::fp8_e4m3, Format::fp8_e5m2, Format::bf16}) {
    QuantOptions o = sr_options(f, 11, 8);
    o.nvfp4_tensor_scale = true;
    o.threads = 1;
    const QTensor a = quantize(f, x.data(), rows, cols, o);
    o.threads = 3;
    const QTensor b = quantize(f, x.data(), rows, cols, o);
    EXPECT_EQ(a.codes, b.codes) << format_info(f).name;
    EXPECT_EQ(a.scales, b.scales) << format_info(f).name;
    o.seed = 12;
    const QTensor c = quantize(f, x.data(), rows, cols, o);
    EXPECT_NE(a.codes, c.codes) << format_info(f).name << ": another seed, other bits";
    EXPECT_EQ(a.scales, c.scales) << format_info(f).name << ": scales stay round-to-nearest";
    o.seed = 11;
    o.sr_stream = 1;
    const QTensor d = quantize(f, x.data(), rows, cols, o);
    EXPECT_NE(a.codes, d.codes) << format_info(f).name << ": another stream, other bits";
  }
}

// Values that reach every path of the element loops: zeros of both signs, FP32 subnormals, block
// maxima far above the rest (elements far below the quantum), ties of the grid, +-Inf/NaN
// (MX/HiF4: NaN/Inf blocks) and a wide exponent spread.
std::vector<float> hostile(size_t n, uint64_t seed, bool finite) {
  ref::Gen g(seed);
  std::vector<float> x(n);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t kind = static_cast<uint32_t>(g.next() % 16);
    uint32_t b = (g.u32() & 0x807FFFFFu) | ((100 + static_cast<uint32_t>(g.next() % 60)) << 23);
    if (kind == 0) b &= 0x80000000u;                                  // +-0
    if (kind == 1) b &= 0x807FFFFFu;                                  // subnormal
    if (kind == 2) b = (b & 0x80000000u) | 0x3F400000u;               // 0.75: a grid midpoint at scale 1
    if (kind == 3) b = (b & 0xFF800000u) | 0x00400000u;               // 1.5 x 2^e
    if (kind == 4 && !finite && g.next() % 64 == 0) b = (g.next() & 1) ? 0x7F800000u : 0x7FC00000u;
    if (kind == 5) b = (b & 0x807FFFFFu) | (static_cast<uint32_t>(g.next() % 254 + 1) << 23);  // any exponent
    x[i] = bits_f32(b);
  }
  return x;
}

// The elements (and scales) of q that differ from the reference quantizers fed the one-element
// draws (sr_rbits) block by block: the block formats' hif4_quantize / mx_quantize_block /
// nvfp4_quantize_block, the element-wise formats' encode_code_with.
size_t reference_mismatches(Format f, const std::vector<float>& x, size_t rows, size_t cols, const QuantOptions& o,
                            const QTensor& q) {
  const size_t blk = format_info(f).block, nb = (cols + blk - 1) / blk;  // the last block may be partial
  const SrStream st{o.seed, o.sr_stream, o.sr_bits};
  size_t bad = 0;
  if (blk == 1) {
    for (size_t i = 0; i < rows * cols; ++i)
      bad += q.codes[i] != encode_code_with(f, x[i], Rounding::stochastic, o, sr_rbits(st, i));
    return bad;
  }
  float amax = 0.0f;
  for (float v : x) amax = std::max(amax, std::fabs(v));
  const Nvfp4TensorScale ts = o.nvfp4_tensor_scale ? nvfp4_tensor_scale(amax, o.nvfp4_recipe) : Nvfp4TensorScale{};
  for (size_t r = 0; r < rows; ++r)
    for (size_t b = 0; b < nb; ++b) {
      const size_t n = std::min(blk, cols - b * blk);
      uint64_t w[64] = {};
      for (size_t k = 0; k < n; ++k) w[k] = sr_rbits(st, r * cols + b * blk + k);
      float src[64] = {};  // zero-padded as fmt::quantize pads
      std::copy(x.data() + r * cols + b * blk, x.data() + r * cols + b * blk + n, src);
      uint8_t codes[64] = {}, scale = 0;
      if (f == Format::hif4) {
        Hif4Options h;
        h.element_rounding = Rounding::stochastic;
        h.compare = o.hif4_compare;
        h.rbits = w;
        const Hif4Unit u = hif4_quantize(src, h);
        bad += !(u == q.hif4_unit(r, b));
        continue;
      }
      if (f == Format::nvfp4) {
        float tile = -1.0f;
        if (o.nvfp4_2d) {
          tile = 0.0f;
          for (size_t rr = r / 16 * 16; rr < std::min(rows, r / 16 * 16 + 16); ++rr)
            for (size_t k = 0; k < n; ++k) tile = std::max(tile, std::fabs(x[rr * cols + b * 16 + k]));
        }
        nvfp4_quantize_block(src, n, ts, o.nvfp4_recipe, codes, scale, w, tile);
      } else {
        MxOptions m;
        m.rounding = Rounding::stochastic;
        m.rbits = w;
        mx_quantize_block(*format_traits(f).minifloat, src, n, m, codes, scale);
      }
      bad += scale != q.scales[r * nb + b];
      for (size_t k = 0; k < n; ++k) bad += codes[k] != q.codes[r * q.padded_cols + b * blk + k];
    }
  return bad;
}

TEST(Stochastic, FastBlockQuantizersMatchTheReference) {
  // cols 200: a partial last block in every format (8 of HiF4's 64), windows of draws across rows.
  const size_t rows = 24;
  for (QdqIsa isa : {QdqIsa::portable, QdqIsa::avx2}) {
    if (isa == QdqIsa::avx2 && !qdq_fast_cpu_has_avx2()) continue;
    qdq_fast_set_isa(isa);
    for (size_t cols : {size_t{192}, size_t{200}})
    for (Format f : {Format::hif4, Format::nvfp4, Format::mxfp4, Format::mxfp8_e4m3, Format::mxfp8_e5m2})
      for (unsigned bits : {1u, 4u, 8u, 23u, 30u, 32u})
        for (int variant = 0; variant < 3; ++variant) {
          const std::vector<float> x = hostile(rows * cols, ref::test_seed() + 500 + bits * 7 + variant, f == Format::nvfp4);
          QuantOptions o = sr_options(f, 77 + variant, bits);
          o.nvfp4_tensor_scale = true;
          if (f == Format::nvfp4 && variant == 1) o.nvfp4_recipe = NvfpRecipe::torchao;
          if (f == Format::nvfp4 && variant == 2) o.nvfp4_2d = true;
          if (f == Format::hif4 && variant == 1) o.hif4_compare = Hif4Compare::bf16_rounded;
          const QTensor q = quantize(f, x.data(), rows, cols, o);
          EXPECT_EQ(reference_mismatches(f, x, rows, cols, o, q), 0u) << format_info(f).name << " cols " << cols << " B "
                                                                       << bits << " variant " << variant << " "
                                                                       << qdq_isa_name(isa);
        }
  }
  qdq_fast_set_isa(QdqIsa::automatic);
}

TEST(Stochastic, DrawsMatchTheOneElementDrawForEveryBitCount) {
  // sr_draws (the quantizers' in-loop draws) against sr_draw for every B, at group starts, inside
  // groups, across pieces of 64 and near the last group of the stream.
  for (QdqIsa isa : {QdqIsa::portable, QdqIsa::avx2}) {
    if (isa == QdqIsa::avx2 && !qdq_fast_cpu_has_avx2()) continue;
    qdq_fast_set_isa(isa);
    for (unsigned bits = 1; bits <= kSrBitsMax; ++bits) {
      const SrStream s{0xF00DCAFE12345678ull, 3, bits};
      const uint64_t L = sr_lanes(bits);
      for (uint64_t first : {uint64_t{0}, uint64_t{1}, L - 1, 7 * L + 3, uint64_t{1000003}, sr_max_elements(bits) - 300})
        for (size_t n : {size_t{1}, size_t{17}, size_t{64}, size_t{200}}) {
          std::vector<uint32_t> got(n);
          sr_draws(s, first, n, got.data());
          size_t bad = 0;
          for (size_t i = 0; i < n; ++i) bad += got[i] != sr_draw(s, first + i);
          ASSERT_EQ(bad, 0u) << qdq_isa_name(isa) << " B " << bits << " first " << first << " n " << n;
        }
    }
  }
  qdq_fast_set_isa(QdqIsa::automatic);
}

// Inputs that put elements exactly on the stochastic-rounding threshold T + r == 2^B (and others
// one below it, T + r == 2^B - 1), from each element's own draw r: v = 1 + q T 2^-B with q the
// quantum at 1, so T / 2^B is the fraction of q that is discarded. MX: one element per block at
// 2^emax pins the shared exponent to 0; NVFP4 (no tensor scale): 6 pins the block scale to 1;
// HiF4: 7 in the first group of 8 (the rest of it 1) pins the scale to 1, and every other element,
// on the BF16 grid 1 + k/128, is quantized as 4v = 4 + T 2^-B (a 5-bit fraction); BF16 and FP8:
// no scale. Where the value cannot carry T (B above its fraction bits, unless r has enough
// trailing zeros) the element sits below the threshold instead. up[i]: 1 if the rule rounds it up
// (to the next grid value above 1), 0 if down (to 1), 2 for a pin.
struct TieInput {
  std::vector<float> x;
  std::vector<uint8_t> up;
  size_t ties = 0;
};
TieInput threshold_input(Format f, size_t rows, size_t cols, const SrStream& s, uint64_t seed) {
  const size_t blk = format_info(f).block;
  int frac_bits = 0, qbits = 0;  // bits of T a value can carry; q = 2^-qbits
  float pin = 0.0f;
  if (f == Format::mxfp4 || f == Format::nvfp4) frac_bits = 22, qbits = 1, pin = f == Format::nvfp4 ? 6.0f : 4.0f;
  if (f == Format::mxfp8_e4m3 || f == Format::fp8_e4m3) frac_bits = 20, qbits = 3, pin = 256.0f;
  if (f == Format::mxfp8_e5m2) frac_bits = 21, qbits = 2, pin = 32768.0f;
  if (f == Format::bf16) frac_bits = 16, qbits = 7;
  if (f == Format::hif4) frac_bits = 5, qbits = 2, pin = 7.0f;  // v = 1 + T 2^-B / 4
  ref::Gen g(seed);
  TieInput t;
  t.x.resize(rows * cols);
  t.up.resize(rows * cols);
  const unsigned B = s.bits;
  const uint64_t full = uint64_t{1} << B;
  for (size_t i = 0; i < rows * cols; ++i) {
    const float sign = (g.next() & 1) ? -1.0f : 1.0f;
    const size_t in_blk = blk > 1 ? (i % cols) % blk : 1;
    if (in_blk == 0 || (f == Format::hif4 && in_blk < 8)) {  // the pin (HiF4: and its group of 8 at 1)
      t.x[i] = sign * (in_blk == 0 ? pin : 1.0f);
      t.up[i] = 2;
      continue;
    }
    const uint64_t r = sr_draw(s, i);
    uint64_t T = (g.next() & 3) != 0 && r != 0 ? full - r : full - 1 - r;  // on the threshold, or one below
    const int drop = static_cast<int>(B) - frac_bits;
    if (drop > 0) T = T >> drop << drop;  // what the value can carry: below the threshold unless r allows
    t.x[i] = sign * static_cast<float>(1.0 + std::ldexp(static_cast<double>(T), -static_cast<int>(B) - qbits));
    t.up[i] = T + r >= full ? 1 : 0;
    t.ties += T + r == full ? 1 : 0;
  }
  return t;
}

TEST(Stochastic, FusedQuantizersMatchTheReferenceOnTheThreshold) {
  // Each format at the --sr-bits edges (1, 8, 30 = the widest the element loops take, 31, 32) on
  // every instruction-set path: equal to the reference, and every element on the threshold rounded
  // up, every one just below rounded down.
  const size_t cols = 1024;
  for (QdqIsa isa : {QdqIsa::portable, QdqIsa::avx2}) {
    if (isa == QdqIsa::avx2 && !qdq_fast_cpu_has_avx2()) continue;
    qdq_fast_set_isa(isa);
    for (Format f : {Format::hif4, Format::nvfp4, Format::mxfp4, Format::mxfp8_e4m3, Format::mxfp8_e5m2, Format::bf16,
                     Format::fp8_e4m3})
      for (unsigned bits : {1u, 8u, 30u, 31u, 32u}) {
        const size_t rows = bits >= 30 ? 64 : 8;  // wide B: ties need rare draws, so more elements
        const QuantOptions o = sr_options(f, 0xA11CE + bits, bits);  // nvfp4: no tensor scale
        const SrStream s{o.seed, o.sr_stream, bits};
        const TieInput t = threshold_input(f, rows, cols, s, ref::test_seed() + 900 + bits);
        const QTensor q = quantize(f, t.x.data(), rows, cols, o);
        const std::string what = std::string(format_info(f).name) + " B " + std::to_string(bits) + " " +
                                 qdq_isa_name(isa) + ", " + std::to_string(t.ties) + " ties";
        EXPECT_EQ(reference_mismatches(f, t.x, rows, cols, o, q), 0u) << what;
        const std::vector<float> y = dequantize(q);
        size_t wrong = 0;
        for (size_t i = 0; i < y.size(); ++i)
          if (t.up[i] != 2) wrong += (std::fabs(y[i]) > 1.0f) != (t.up[i] == 1);
        EXPECT_EQ(wrong, 0u) << what << ": elements rounded the wrong way at the threshold";
        // Elements exactly on it: thousands at B <= 8, ~12 for mxfp8-e4m3 at B = 32; HiF4 and BF16
        // values carry 5 and 16 fraction bits, so at B >= 30 a tie needs r with B - 5 or B - 16
        // trailing zero bits, too rare to count on.
        if (!(bits >= 30 && (f == Format::hif4 || f == Format::bf16))) {
          EXPECT_GE(t.ties, 3u) << what;
        }
      }
  }
  qdq_fast_set_isa(QdqIsa::automatic);
}

}  // namespace
