// dp::SrQuantizer (rtl/sr_quantizer.sv's model): against an independent reference (the element
// grid as a table: the neighbours lo <= |a| < hi, frac = (|a| - lo) / (hi - lo) exactly, T its top
// B bits) on >= 10^5 elements per format and B, and against the format quantizers it is part of
// (nvfp4_quantize_block, hif4_quantize_bf16, the MXFP4 tensor quantizer with the same stream: the
// unit's contract).
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <limits>
#include <vector>

#include "datapath/sr_quantizer.hpp"
#include "formats/bits.hpp"
#include "formats/hif4.hpp"
#include "formats/minifloat.hpp"
#include "formats/nvfp4.hpp"
#include "formats/scales.hpp"
#include "formats/mx.hpp"
#include "formats/stochastic.hpp"
#include "formats/tensor.hpp"
#include "util/error.hpp"
#include "util/rng.hpp"

namespace hifsim {
namespace {

using dp::SrElem;

// The grid of a format's magnitude codes 0..7 (the value of code c).
double grid(SrElem e, int c) {
  static const double e2m1[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  return e != SrElem::hif4_s1p2 ? e2m1[c] : c;
}

uint8_t reference_code(SrElem e, float a, uint32_t r, unsigned B) {
  const uint32_t b = fmt::f32_bits(a);
  const uint8_t sign = static_cast<uint8_t>((b >> 31) << 3);
  const double m = std::fabs(static_cast<double>(a));
  if (e == SrElem::mxfp4_e2m1 && !std::isfinite(m)) return 0;  // the MX special block: code 0
  if (std::isnan(m)) return e == SrElem::nvfp4_e2m1 ? sign : static_cast<uint8_t>(sign | 7);
  if (m >= grid(e, 7)) return sign | 7;
  int c = 0;
  while (grid(e, c + 1) <= m) ++c;
  const double lo = grid(e, c), hi = grid(e, c + 1);
  const double frac = (m - lo) / (hi - lo);  // exact: m FP32, lo and hi - lo small dyadic
  const double T = std::floor(std::ldexp(frac, static_cast<int>(B)));
  const bool up = T + r >= std::ldexp(1.0, static_cast<int>(B));
  return static_cast<uint8_t>(sign | (up ? c + 1 : c));
}

float random_element(SplitMix64& g) {
  switch (g.below(4)) {
    case 0: return fmt::bits_f32(g.next32());                                          // any pattern
    case 1: return fmt::bits_f32(static_cast<uint32_t>(0x30000000u + g.below(0x11800000u)) | (g.below(2) << 31));
    case 2: {                                                                          // near a grid point
      const float v = static_cast<float>(g.below(33)) * 0.25f;
      return fmt::bits_f32(static_cast<uint32_t>(static_cast<int64_t>(fmt::f32_bits(v)) + static_cast<int>(g.below(5)) - 2) |
                           (g.below(2) << 31));
    }
    default: return static_cast<float>(g.uniform() * 9.0) * (g.below(2) ? -1.0f : 1.0f);
  }
}

TEST(SrQuantizer, MatchesGridReference) {
  SplitMix64 g(0x5EED);
  for (SrElem e : {SrElem::nvfp4_e2m1, SrElem::hif4_s1p2, SrElem::mxfp4_e2m1})
    for (unsigned B : {1u, 3u, 5u, 8u, 13u, 16u, 31u, 32u}) {
      const dp::SrQuantizer q(e, B);
      const unsigned L = fmt::sr_lanes(B);
      for (int n = 0; n < 8000; ++n) {  // 16 elements each: 128000 per (format, B)
        dp::SrqInput in;
        in.seed = g.next();
        in.stream = g.next32();
        in.group = g.next32();
        in.lane = static_cast<uint32_t>(g.below(L));
        for (float& a : in.a) a = random_element(g);
        dp::SrqStages s;
        q.compute(in, s);
        for (int k = 0; k < dp::kSrqLanes; ++k) {
          const float a = in.a[k];
          if (std::isnan(a) && e == SrElem::hif4_s1p2) continue;  // checked below
          ASSERT_EQ(s.code[k], reference_code(e, a, s.r[k], B))
              << "B=" << B << " fmt=" << static_cast<int>(e) << " a=" << std::hexfloat << a << " r=" << s.r[k];
        }
      }
    }
}

TEST(SrQuantizer, DrawsAtTheElementIndex) {
  // Element k of (group, lane) has index group * L + lane + k in the stream.
  for (unsigned B : {5u, 8u, 32u}) {
    const dp::SrQuantizer q(SrElem::nvfp4_e2m1, B);
    dp::SrqInput in;
    in.seed = 0x0123456789ABCDEFull;
    in.stream = 3;
    in.group = 0xFFFFFFFFu;  // the counter wraps inside the operation
    in.lane = fmt::sr_lanes(B) - 1;
    dp::SrqStages s;
    q.compute(in, s);
    const fmt::SrStream st{in.seed, in.stream, B};
    for (int k = 0; k < dp::kSrqLanes; ++k)
      EXPECT_EQ(s.r[k], fmt::sr_draw(st, uint64_t{0xFFFFFFFFu} * fmt::sr_lanes(B) + in.lane + static_cast<uint64_t>(k)));
  }
  EXPECT_THROW(dp::SrQuantizer(SrElem::nvfp4_e2m1, 0), Error);
  EXPECT_THROW(dp::SrQuantizer(SrElem::nvfp4_e2m1, 33), Error);
  dp::SrqInput bad;
  bad.lane = 8;
  dp::SrqStages s;
  EXPECT_THROW(dp::SrQuantizer(SrElem::nvfp4_e2m1, 8).compute(bad, s), Error);
}

// T (the net trace's and the coverage's view of the discarded fraction) on its own: inside the
// grid (no saturation) an element rounds up, away from zero, exactly when T + r >= 2^B
// (docs/training.md's rule), and T < 2^B. Fails on a T computed one bit short or with the
// quantum of the binade above.
TEST(SrQuantizer, DiscardedFractionDecidesTheRounding) {
  SplitMix64 g(0x7D);
  for (SrElem e : {SrElem::nvfp4_e2m1, SrElem::hif4_s1p2, SrElem::mxfp4_e2m1})
    for (unsigned B : {1u, 4u, 8u, 13u, 24u}) {
      const dp::SrQuantizer q(e, B);
      const double top = e == SrElem::hif4_s1p2 ? 7.0 : 6.0;  // the largest code: above it, saturation
      int ups = 0, downs = 0;
      for (int n = 0; n < 2000; ++n) {
        dp::SrqInput in;
        in.seed = g.next();
        in.group = g.next32();
        in.lane = static_cast<uint32_t>(g.below(fmt::sr_lanes(B)));
        for (float& a : in.a) a = static_cast<float>(g.uniform() * top) * (g.below(2) ? -1.0f : 1.0f);
        dp::SrqStages s;
        q.compute(in, s);
        for (int k = 0; k < dp::kSrqLanes; ++k) {
          const double mag = std::fabs(static_cast<double>(in.a[k]));
          const unsigned m = s.code[k] & 7u;
          const double v = e == SrElem::hif4_s1p2 ? static_cast<double>(m) : fmt::minifloat_decode(fmt::kE2M1, m);
          ASSERT_LT(uint64_t{s.t[k]}, uint64_t{1} << B);
          const bool up = v > mag;
          ASSERT_EQ(up, uint64_t{s.t[k]} + s.r[k] >= (uint64_t{1} << B))
              << "fmt=" << static_cast<int>(e) << " B=" << B << " a=" << std::hexfloat << in.a[k] << " T=" << s.t[k]
              << " r=" << s.r[k] << " code=" << int{s.code[k]};
          (up ? ups : downs) += 1;
        }
      }
      EXPECT_GT(ups, 1000);
      EXPECT_GT(downs, 1000);
    }
}

// The unit's input is the value the quantizers round; given it, its codes are theirs.
TEST(SrQuantizer, IsTheElementStageOfNvfp4) {
  SplitMix64 g(11);
  const unsigned B = 8;
  const fmt::Nvfp4TensorScale ts = fmt::nvfp4_tensor_scale(40.0f, fmt::NvfpRecipe::te);
  for (int n = 0; n < 2000; ++n) {
    float x[16];
    for (float& v : x) v = static_cast<float>((g.uniform() * 2 - 1) * std::ldexp(1.0, static_cast<int>(g.below(8)) - 2));
    const fmt::SrStream st{g.next(), 1, B};
    const uint64_t first = g.below(1u << 20) * 16;
    std::vector<uint64_t> w(16);
    fmt::sr_fill(st, first, 16, w.data());
    uint8_t codes[16], scale = 0;
    fmt::nvfp4_quantize_block(x, 16, ts, fmt::NvfpRecipe::te, codes, scale, w.data());
    dp::SrqInput in;
    in.seed = st.seed;
    in.stream = st.stream;
    in.group = static_cast<uint32_t>(first / fmt::sr_lanes(B));
    in.lane = static_cast<uint32_t>(first % fmt::sr_lanes(B));
    const float e = std::fmin(1.0f / (fmt::minifloat_decode(fmt::kE4M3, scale) * ts.decode), FLT_MAX);  // TE's encode
    for (int k = 0; k < 16; ++k) in.a[k] = x[k] * e;
    dp::SrqStages s;
    dp::SrQuantizer(SrElem::nvfp4_e2m1, B).compute(in, s);
    for (int k = 0; k < 16; ++k) ASSERT_EQ(s.code[k], codes[k]) << n << " " << k;
  }
}

TEST(SrQuantizer, IsTheElementStageOfHif4) {
  SplitMix64 g(12);
  for (unsigned B : {4u, 8u, 20u}) {
    for (int n = 0; n < 1000; ++n) {
      uint16_t x[64];
      for (uint16_t& h : x) h = static_cast<uint16_t>(fmt::f32_bits(static_cast<float>((g.uniform() * 2 - 1) * std::ldexp(1.0, static_cast<int>(g.below(12)) - 6))) >> 16);
      const fmt::SrStream st{g.next(), 2, B};
      const uint64_t first = g.below(1u << 20) * 64;
      std::vector<uint64_t> w(64);
      fmt::sr_fill(st, first, 64, w.data());
      fmt::Hif4Options o;
      o.element_rounding = fmt::Rounding::stochastic;
      o.rbits = w.data();
      const fmt::Hif4Unit u = fmt::hif4_quantize_bf16(x, o);
      const double rec = static_cast<double>(fmt::hif4_reciprocal(u.e6m2));
      for (int op = 0; op < 4; ++op) {
        dp::SrqInput in;
        in.seed = st.seed;
        in.stream = st.stream;
        const uint64_t i0 = first + 16 * static_cast<uint64_t>(op);
        in.group = static_cast<uint32_t>(i0 / fmt::sr_lanes(B));
        in.lane = static_cast<uint32_t>(i0 % fmt::sr_lanes(B));
        for (int k = 0; k < 16; ++k) {
          const int j = 16 * op + k, e8 = (u.e1_8 >> (j >> 3)) & 1, e16 = (u.e1_16 >> (j >> 2)) & 1;
          const double y4 = std::ldexp(std::fabs(static_cast<double>(fmt::bf16_to_float(x[j]))) * rec, 2 - e8 - e16);
          const bool neg = (x[j] & 0x8000) && (x[j] & 0x7FFF);
          in.a[k] = static_cast<float>(neg ? -y4 : y4);  // exact: 16 significant bits
        }
        dp::SrqStages s;
        dp::SrQuantizer(SrElem::hif4_s1p2, B).compute(in, s);
        for (int k = 0; k < 16; ++k) ASSERT_EQ(s.code[k], u.nib[16 * op + k]) << "B=" << B << " " << n << " " << op << " " << k;
      }
    }
  }
}

// MXFP4: the unit's codes are the MXFP4 tensor quantizer's (fmt::quantize, stochastic, the fast
// path a training run takes) for the same stream. The 16-lane operation is half a 32-element
// block: its element 0 has the flat index row * cols + c (the model's stream, docs/training.md),
// its input x 2^-shared of the block's E8M0 scale (exact), or NaN, signed as x, in a block whose
// scale is NaN (x times a NaN reciprocal). Rows of 72 elements: the last block is 8 elements and
// padding (input 0, code 0); blocks with an Inf or a NaN; the floor and rceil scale rules.
TEST(SrQuantizer, IsTheElementStageOfMxfp4) {
  SplitMix64 g(13);
  const size_t rows = 24, cols = 72;
  size_t ops = 0, specials = 0;
  for (unsigned B : {5u, 8u, 13u})
    for (fmt::MxScaleRule rule : {fmt::MxScaleRule::floor, fmt::MxScaleRule::rceil}) {
      std::vector<float> x(rows * cols);
      for (float& v : x)
        v = static_cast<float>((g.uniform() * 2 - 1) * std::ldexp(1.0, static_cast<int>(g.below(40)) - 20));
      for (int n = 0; n < 4; ++n) {  // an Inf or a NaN of either sign somewhere
        const float sp = n % 2 ? std::numeric_limits<float>::infinity() : std::numeric_limits<float>::quiet_NaN();
        x[g.below(x.size())] = g.below(2) ? -sp : sp;
      }
      fmt::QuantOptions o;
      o.rounding = fmt::Rounding::stochastic;
      o.sr_bits = B;
      o.seed = g.next();
      o.sr_stream = 5;
      o.mx_scale_rule = rule;
      const fmt::QTensor q = fmt::quantize(fmt::Format::mxfp4, x.data(), rows, cols, o);
      const dp::SrQuantizer unit(SrElem::mxfp4_e2m1, B);
      const unsigned L = fmt::sr_lanes(B);
      for (size_t row = 0; row < rows; ++row)
        for (size_t c = 0; c < q.padded_cols; c += dp::kSrqLanes) {
          const uint8_t scale = q.scales[row * q.blocks_per_row() + c / fmt::kMxBlock];
          specials += scale == fmt::kE8M0NaN;
          dp::SrqInput in;
          in.seed = o.seed;
          in.stream = o.sr_stream;
          const uint64_t i0 = row * cols + c;
          in.group = static_cast<uint32_t>(i0 / L);
          in.lane = static_cast<uint32_t>(i0 % L);
          for (int k = 0; k < dp::kSrqLanes; ++k) {
            if (c + k >= cols) continue;  // padding: 0
            const float v = x[row * cols + c + k];
            in.a[k] = scale == fmt::kE8M0NaN ? std::copysign(std::numeric_limits<float>::quiet_NaN(), v)
                                             : static_cast<float>(std::ldexp(static_cast<double>(v), 127 - scale));
          }
          dp::SrqStages s;
          unit.compute(in, s);
          for (int k = 0; k < dp::kSrqLanes; ++k)
            ASSERT_EQ(s.code[k], q.codes[row * q.padded_cols + c + k])
                << "B=" << B << " rule " << fmt::mx_scale_rule_name(rule) << " row " << row << " col " << c + k;
          ++ops;
        }
    }
  EXPECT_EQ(ops, 3u * 2u * rows * 6u);
  EXPECT_GT(specials, 0u);
}

}  // namespace
}  // namespace hifsim
