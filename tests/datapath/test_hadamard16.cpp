// The 16 x 16 Hadamard unit (datapath/hadamard16.hpp) against the RHT definition
// (fmt::rht_rows_reference, N = 16) and, stage by stage, against an exact reference built with
// Boost.Multiprecision: >= 10^5 random blocks of mixed FP32 classes, ties reached in every stage.
#include <gtest/gtest.h>

#include <cmath>

#include "datapath/hadamard16.hpp"
#include "exact_ref.hpp"
#include "formats/bits.hpp"
#include "formats/hadamard.hpp"
#include "unit_vectors.hpp"
#include "util/rng.hpp"

using namespace hifsim;
using namespace hifsim::dp;
using namespace hifsim::test;

namespace {

// A FP32 value of a class mix: normals over the whole range, values near one binade (ties and
// cancellation), subnormals, zeros of both signs, the largest values, Inf and (rarely) NaN.
uint32_t mixed(SplitMix64& r, int base_exp) {
  const uint32_t s = static_cast<uint32_t>(r.below(2)) << 31;
  switch (r.below(16)) {
    case 0: return s | static_cast<uint32_t>(r.below(1u << 23));                 // subnormal
    case 1: return s;                                                            // +-0
    case 2: return s | 0x7F000000u | static_cast<uint32_t>(r.below(1u << 23));  // huge
    case 3: return r.below(8) ? (s | 0x7F800000u) : 0x7FC00001u + static_cast<uint32_t>(r.below(100));
    case 4: case 5: return s | (static_cast<uint32_t>(1 + r.below(254)) << 23) | static_cast<uint32_t>(r.below(1u << 23));
    default: {
      // One binade band with short mantissas: sums tie and cancel.
      const int e = std::max(1, std::min(254, base_exp + static_cast<int>(r.below(6)) - 3));
      return s | (static_cast<uint32_t>(e) << 23) | (static_cast<uint32_t>(r.below(1u << 4)) << 19) |
             static_cast<uint32_t>(r.below(2));
    }
  }
}

bool is_nan(uint32_t b) { return (b & 0x7FFFFFFFu) > 0x7F800000u; }

// a + b (or a - b) exactly, then RNE to FP32 (IEEE zero signs, Inf rules), from exact_ref.hpp.
uint32_t exact_add(uint32_t a, uint32_t b, bool sub) {
  if (sub) b ^= 0x80000000u;
  const float x = fmt::bits_f32(a), y = fmt::bits_f32(b);
  if (std::isnan(x) || std::isnan(y)) return kNaN;
  if (std::isinf(x) || std::isinf(y)) {
    if (std::isinf(x) && std::isinf(y) && (a >> 31) != (b >> 31)) return kNaN;
    return std::isinf(x) ? a : b;
  }
  const ref::Dy s = ref::add(ref::from_float(x), ref::from_float(y));
  if (s.n == 0) return (a & b) & 0x80000000u;  // exact zero: -0 only for (-0) + (-0)
  return ref::bits(ref::round_p(s));
}

}  // namespace

TEST(Hadamard16, MatchesTheRhtDefinitionAndTheExactStages) {
  SplitMix64 rng(16);
  int ties[kHad16Levels + 1] = {}, nans = 0, infs = 0, subn = 0;
  for (int i = 0; i < kRandomVectors; ++i) {
    fmt::RhtSpec spec{16, rng.next(), rng.below(8) ? fmt::RhtSigns::random : fmt::RhtSigns::none};
    const uint16_t signs = static_cast<uint16_t>(fmt::rht_sign_bits(spec));
    const int base = 1 + static_cast<int>(rng.below(254));
    uint32_t x[kHad16], out[kHad16];
    for (uint32_t& v : x) v = mixed(rng, base);
    Hadamard16Stages st;
    Hadamard16::compute(x, signs, out, &st);
    // The definition, through the model's own RHT of one 1 x 16 row.
    float xf[kHad16], yf[kHad16];
    for (int j = 0; j < kHad16; ++j) xf[j] = fmt::bits_f32(x[j]);
    fmt::rht_rows_reference(spec, xf, yf, 1, kHad16);
    for (int j = 0; j < kHad16; ++j) {
      const uint32_t want = fmt::f32_bits(yf[j]);
      if (is_nan(want)) {
        ASSERT_EQ(out[j], kNaN) << "vector " << i << " element " << j;
        ++nans;
      } else {
        ASSERT_EQ(out[j], want) << "vector " << i << " element " << j;
        infs += (want & 0x7FFFFFFFu) == 0x7F800000u;
        subn += (want & 0x7F800000u) == 0 && (want & 0x7FFFFFu);
      }
    }
    // Every stage, independently: exact sum rounded once, and the scaling.
    const uint32_t* v = st.v0;
    for (int j = 0; j < kHad16; ++j) ASSERT_EQ(st.v0[j], x[j] ^ (((signs >> j) & 1u) << 31));
    for (int l = 0; l < kHad16Levels; ++l) {
      const int h = 1 << l;
      for (int k = 0; k < kHad16; ++k) {
        const int lo = k & ~h;
        const uint32_t want = exact_add(v[lo], v[lo + h], (k & h) != 0);
        ASSERT_EQ(st.b[l][k], want) << "vector " << i << " stage " << l + 1 << " element " << k;
        // A tie: the exact sum lies halfway between two FP32 values (the one bit below the last).
        const float a = fmt::bits_f32(v[lo]), b = fmt::bits_f32(v[lo + h]);
        if (std::isfinite(a) && std::isfinite(b)) {
          const ref::Dy s = ref::add(ref::from_float(a), ref::from_float((k & h) ? -b : b));
          const float r = fmt::bits_f32(want);
          if (std::isfinite(r) && !ref::exact_is(s, r)) {
            ref::Dy d = ref::add(s, ref::from_float(-r));
            const float lsb = std::nextafter(std::fabs(r), INFINITY) - std::fabs(r);
            ref::Dy half = ref::from_float(lsb);
            half.e -= 1;
            if (d.n < 0) d.n = -d.n;
            if (d.n << std::max(0, d.e - half.e) == half.n << std::max(0, half.e - d.e)) ++ties[l];
          }
        }
      }
      v = st.b[l];
    }
    for (int j = 0; j < kHad16; ++j) {
      if (is_nan(v[j])) continue;
      const float a = fmt::bits_f32(v[j]);
      const uint32_t want = std::isfinite(a) ? ref::bits(ref::round_p(ref::shift(ref::from_float(a), -2))) : v[j];
      ASSERT_EQ(st.out[j], a == 0.0f ? v[j] : want) << "vector " << i << " scaling of element " << j;
      if (a != 0.0f && std::isfinite(a) && !ref::exact_is(ref::shift(ref::from_float(a), -2), fmt::bits_f32(want)))
        ++ties[kHad16Levels];
    }
  }
  for (int l = 0; l < kHad16Levels; ++l) EXPECT_GT(ties[l], 0) << "no rounding tie in stage " << l + 1;
  EXPECT_GT(ties[kHad16Levels], 0) << "the scaling never rounded (subnormal outputs)";
  EXPECT_GT(nans, 0);
  EXPECT_GT(infs, 0);
  EXPECT_GT(subn, 0);
}

TEST(Hadamard16, Corners) {
  uint32_t x[kHad16] = {}, out[kHad16];
  // All +0 and all -0: the signs of zero sums (only (-0) + (-0) stays -0).
  Hadamard16::compute(x, 0, out, nullptr);
  for (uint32_t o : out) EXPECT_EQ(o, 0u);
  for (uint32_t& v : x) v = 0x80000000u;
  Hadamard16::compute(x, 0, out, nullptr);
  EXPECT_EQ(out[0], 0x80000000u);   // -0 + -0 + ... = -0
  for (int j = 1; j < kHad16; ++j) EXPECT_EQ(out[j], 0u) << j;  // -0 - (-0) = +0
  // Cancellation to zero: x = (1, 1, 0, ...): y_1 = 1 - 1 = +0 exactly, y_0 = 2 * 0.25.
  for (uint32_t& v : x) v = 0;
  x[0] = x[1] = 0x3F800000u;
  Hadamard16::compute(x, 0, out, nullptr);
  EXPECT_EQ(out[0], 0x3F000000u);
  EXPECT_EQ(out[1], 0u);
  // Overflow: 16 x max finite overflows the first stage to Inf (b1 = Inf, +0, Inf, +0, ...);
  // Inf * 0.25 = Inf; stage 2 meets Inf - Inf = NaN; the differences of equal values stay +0.
  for (uint32_t& v : x) v = 0x7F7FFFFFu;
  Hadamard16::compute(x, 0, out, nullptr);
  EXPECT_EQ(out[0], 0x7F800000u);
  EXPECT_EQ(out[1], 0u);
  EXPECT_EQ(out[2], kNaN);
  // Subnormal output: the scaling rounds (1 ulp of the smallest subnormal * 0.25 -> +0; 3 -> 1).
  EXPECT_EQ(Hadamard16::scale(0x00000001u), 0u);
  EXPECT_EQ(Hadamard16::scale(0x80000002u), 0x80000000u);  // tie to even: 0.5 -> 0, sign kept
  EXPECT_EQ(Hadamard16::scale(0x00000006u), 0x00000002u);  // 1.5 -> 2
  EXPECT_EQ(Hadamard16::scale(0x00800000u), 0x00200000u);  // 2^-126 -> 2^-128 exactly
  EXPECT_EQ(Hadamard16::scale(0x7F800001u), kNaN);         // a NaN is canonical
}
