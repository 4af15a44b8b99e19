// The HiF4 dot unit (datapath/hif4_dot.hpp) against an exact reference built with
// Boost.Multiprecision: >= 10^5 random vectors plus the worked example, corners and the stage bounds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "datapath/hif4_dot.hpp"
#include "exact_ref.hpp"
#include "formats/bits.hpp"
#include "formats/hif4.hpp"
#include "formats/scales.hpp"
#include "unit_vectors.hpp"
#include "util/rng.hpp"

using namespace hifsim;
using namespace hifsim::dp;
using namespace hifsim::test;

namespace {
fmt::Hif4Unit random_hif4(SplitMix64& r, bool allow_nan) {
  fmt::Hif4Unit u;
  u.e6m2 = static_cast<uint8_t>(r.below(allow_nan ? 256 : 255));
  u.e1_8 = static_cast<uint8_t>(r.next());
  u.e1_16 = static_cast<uint16_t>(r.next());
  for (int k = 0; k < 64; ++k) u.nib[k] = static_cast<uint8_t>(r.below(16));
  return u;
}

// Exact dot of two decoded HiF4 units (every decoded value is exact in FP32).
ref::Dy hif4_exact(const fmt::Hif4Unit& a, const fmt::Hif4Unit& b) {
  float va[64], vb[64];
  fmt::hif4_decode(a, va);
  fmt::hif4_decode(b, vb);
  ref::Dy s;
  for (int k = 0; k < 64; ++k) s = ref::add(s, ref::mul(ref::from_float(va[k]), ref::from_float(vb[k])));
  return s;
}
}  // namespace

TEST(Hif4Dot64, WorkedExampleFromReference) {
  // hif4.md section 9: Example 1 (x = k/8) . Example 4 -> I = 160, SA = 4, SB = 5, X = -8, 12.5.
  float x1[64], x4[64] = {};
  for (int k = 0; k < 64; ++k) x1[k] = k / 8.0f;
  x4[0] = -9;
  x4[5] = 1;
  x4[40] = 2;
  x4[63] = 0.25f;
  const auto u1 = fmt::hif4_quantize(x1), u4 = fmt::hif4_quantize(x4);
  ASSERT_EQ(fmt::hif4_meta_word(u1), 0xFFF0F0C0u);
  ASSERT_EQ(fmt::hif4_meta_word(u4), 0x000101C1u);
  Hif4DotStages st;
  const DotResult r = Hif4Dot64::compute(u1, u4, &st);
  EXPECT_EQ(st.i_sum, 160);
  EXPECT_EQ(st.scale_prod, 20);
  EXPECT_EQ(st.exp, -8);
  EXPECT_EQ(r.value, 12.5f);
}

TEST(Hif4Dot64, RandomVectorsMatchExactReference) {
  SplitMix64 rng(1);
  int nans = 0;
  for (int i = 0; i < kRandomVectors; ++i) {
    const auto a = random_hif4(rng, true), b = random_hif4(rng, true);
    Hif4DotStages st;
    const DotResult r = Hif4Dot64::compute(a, b, &st);
    if (a.e6m2 == 0xFF || b.e6m2 == 0xFF) {
      ++nans;
      ASSERT_EQ(ref::bits(r.value), kNaN);
      continue;
    }
    const float want = ref::round_p(hif4_exact(a, b));
    ASSERT_EQ(ref::bits(r.value), ref::bits(want)) << "vector " << i;
    // The conversion to FP32 is exact: the exact value equals the float.
    ASSERT_TRUE(ref::exact_is(hif4_exact(a, b), want));
  }
  EXPECT_GT(nans, 0);
}

// s0 (computed eight elements at a time) against the definition, element by element: the
// magnitude doubled by its level-3 bit, negated by its sign; -0 codes give 0.
TEST(Hif4Dot64, LevelThreeElementsAreTheDefinition) {
  SplitMix64 rng(3);
  for (int i = 0; i < 20000; ++i) {
    const auto a = random_hif4(rng, false), b = random_hif4(rng, false);
    Hif4DotStages st;
    Hif4Dot64::compute(a, b, &st);
    for (int k = 0; k < 64; ++k) {
      const int ma = (a.nib[k] & 7) * (((a.e1_16 >> (k / 4)) & 1) ? 2 : 1);
      const int mb = (b.nib[k] & 7) * (((b.e1_16 >> (k / 4)) & 1) ? 2 : 1);
      ASSERT_EQ(st.a_a[k], (a.nib[k] & 8) ? -ma : ma) << "vector " << i << " element " << k;
      ASSERT_EQ(st.a_b[k], (b.nib[k] & 8) ? -mb : mb) << "vector " << i << " element " << k;
      ASSERT_EQ(st.p[k], st.a_a[k] * st.a_b[k]);
    }
  }
}

TEST(Hif4Dot64, StageBoundsAreReachedAndNeverExceeded) {
  using B = Hif4DotBounds;
  // Directed maximum: every element 7 with both micro-exponents set, equal signs, 0xFE scales.
  fmt::Hif4Unit mx;
  mx.e6m2 = 0xFB;  // E = 62, M = 3: the largest scale significand (0xFF with M = 3 is NaN)
  mx.e1_8 = 0xFF;
  mx.e1_16 = 0xFFFF;
  for (auto& n : mx.nib) n = 7;
  Hif4DotStages st;
  Hif4Dot64::compute(mx, mx, &st);
  EXPECT_EQ(st.a_a[0], B::a);
  EXPECT_EQ(st.p[0], B::p);
  EXPECT_EQ(st.group[0], B::group);
  EXPECT_EQ(st.shifted[0], B::shifted);
  EXPECT_EQ(st.i_sum, B::i_sum);
  EXPECT_EQ(st.scale_prod, B::scale_prod_max);
  EXPECT_EQ(st.big, B::big);
  fmt::Hif4Unit top;
  top.e6m2 = 0xFE;  // E = 63: the largest exponent
  Hif4Dot64::compute(top, top, &st);
  EXPECT_EQ(st.exp, B::exp_max);
  fmt::Hif4Unit neg = mx;
  for (auto& n : neg.nib) n = 15;
  Hif4Dot64::compute(mx, neg, &st);
  EXPECT_EQ(st.i_sum, -B::i_sum);
  EXPECT_EQ(st.big, -B::big);
  fmt::Hif4Unit lo;
  lo.e6m2 = 0x00;
  Hif4Dot64::compute(lo, lo, &st);
  EXPECT_EQ(st.exp, B::exp_min);
  EXPECT_EQ(st.scale_prod, B::scale_prod_min);
  // Random vectors stay inside every bound.
  SplitMix64 rng(2);
  for (int i = 0; i < kRandomVectors; ++i) {
    const auto a = random_hif4(rng, false), b = random_hif4(rng, false);
    Hif4Dot64::compute(a, b, &st);
    for (int k = 0; k < 64; ++k) {
      ASSERT_LE(std::abs(st.a_a[k]), B::a);
      ASSERT_LE(std::abs(st.p[k]), B::p);
    }
    for (int g = 0; g < 8; ++g) {
      ASSERT_LE(std::abs(st.group[g]), B::group);
      ASSERT_LE(std::abs(st.shifted[g]), B::shifted);
    }
    ASSERT_LE(std::abs(st.i_sum), B::i_sum);
    ASSERT_LE(std::abs(st.big), B::big);
    ASSERT_GE(st.scale_prod, B::scale_prod_min);
    ASSERT_LE(st.scale_prod, B::scale_prod_max);
    ASSERT_GE(st.exp, B::exp_min);
    ASSERT_LE(st.exp, B::exp_max);
  }
}

TEST(Hif4Dot64, CornersCancellationZeroAndNaN) {
  fmt::Hif4Unit a, b;
  a.e6m2 = b.e6m2 = 0xC0;
  for (int k = 0; k < 64; ++k) {
    a.nib[k] = 5;
    b.nib[k] = (k & 1) ? 13 : 5;  // alternating signs: exact cancellation
  }
  EXPECT_EQ(ref::bits(Hif4Dot64::compute(a, b).value), 0u);  // +0.0
  for (auto& n : a.nib) n = 8;  // all -0 elements
  EXPECT_EQ(ref::bits(Hif4Dot64::compute(a, b).value), 0u);
  a.e6m2 = 0xFF;
  EXPECT_EQ(ref::bits(Hif4Dot64::compute(a, b).value), kNaN);
  a.e6m2 = 0x10;
  b.e6m2 = 0xFF;
  EXPECT_EQ(ref::bits(Hif4Dot64::compute(a, b).value), kNaN);
}
