// The NVFP4 dot unit (datapath/nvfp4_dot.hpp) against an exact reference built with
// Boost.Multiprecision: >= 10^5 random vectors, the stage bounds and a rounding tie.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "datapath/nvfp4_dot.hpp"
#include "exact_ref.hpp"
#include "formats/bits.hpp"
#include "formats/minifloat.hpp"
#include "formats/scales.hpp"
#include "unit_vectors.hpp"
#include "util/rng.hpp"

using namespace hifsim;
using namespace hifsim::dp;
using namespace hifsim::test;

namespace {
ref::Dy nvfp4_exact(const uint8_t* ca, const uint8_t* sa, const uint8_t* cb, const uint8_t* sb) {
  ref::Dy s;
  for (int j = 0; j < 4; ++j) {
    const ref::Dy sub = e2m1_block_dot(ca, cb, 16 * j, 16);
    const ref::Dy sc = ref::mul(ref::from_float(fmt::minifloat_decode(fmt::kE4M3, sa[j])),
                                ref::from_float(fmt::minifloat_decode(fmt::kE4M3, sb[j])));
    s = ref::add(s, ref::mul(sub, sc));
  }
  return s;
}
}  // namespace

TEST(Nvfp4Dot64, RandomVectorsMatchExactReference) {
  SplitMix64 rng(3);
  int rounded = 0, nans = 0;
  for (int i = 0; i < kRandomVectors; ++i) {
    uint8_t ca[64], cb[64], sa[4], sb[4];
    random_e2m1_pairs(rng, ca, cb);
    for (int j = 0; j < 4; ++j) {
      // Mostly positive finite scales; occasionally NaN or negative codes.
      const uint64_t c = rng.below(1000);
      sa[j] = c == 0 ? 0x7F : static_cast<uint8_t>(rng.below(0x7F));
      sb[j] = c == 1 ? 0xFF : static_cast<uint8_t>(rng.below(c == 2 ? 0xFF : 0x7F));
      if (sb[j] == 0x7F || sb[j] == 0xFF) sb[j] = c == 1 ? 0xFF : 0x70;
    }
    Nvfp4DotStages st;
    const DotResult r = Nvfp4Dot64::compute(ca, sa, cb, sb, &st);
    bool nan = false;
    for (int j = 0; j < 4; ++j) nan |= (sa[j] & 0x7F) == 0x7F || (sb[j] & 0x7F) == 0x7F;
    if (nan) {
      ++nans;
      ASSERT_EQ(ref::bits(r.value), kNaN);
      continue;
    }
    const ref::Dy ex = nvfp4_exact(ca, sa, cb, sb);
    const float want = ref::round_p(ex);
    ASSERT_EQ(ref::bits(r.value), ref::bits(want)) << "vector " << i;
    if (!ref::exact_is(ex, want)) ++rounded;
    for (int j = 0; j < 4; ++j) {
      ASSERT_LE(std::abs(st.sub[j]), Nvfp4DotBounds::sub);
      ASSERT_LE(st.ss[j], Nvfp4DotBounds::ss);
      ASSERT_LE(std::abs(st.partial[j]), Nvfp4DotBounds::partial);
      ASSERT_GE(st.tt[j], Nvfp4DotBounds::tt_min);
      ASSERT_LE(st.tt[j], Nvfp4DotBounds::tt_max);
    }
  }
  EXPECT_GT(rounded, 100) << "the single rounding must be exercised";
  EXPECT_GT(nans, 0);
}

TEST(Nvfp4Dot64, BoundsReachedAndRoundingTie) {
  uint8_t c[64], s[4];
  for (auto& x : c) x = 7;      // 6.0 -> 12 half units
  for (auto& x : s) x = 0x77;   // 240 = 15 * 2^4: the largest scale significand
  Nvfp4DotStages st;
  Nvfp4Dot64::compute(c, s, c, s, &st);
  EXPECT_EQ(st.a_a[0], Nvfp4DotBounds::a);
  EXPECT_EQ(st.p[0], Nvfp4DotBounds::p);
  EXPECT_EQ(st.sub[0], Nvfp4DotBounds::sub);
  EXPECT_EQ(st.ss[0], Nvfp4DotBounds::ss);
  EXPECT_EQ(st.partial[0], Nvfp4DotBounds::partial);
  for (auto& x : s) x = 0x7E;   // 448: the largest exponent
  Nvfp4Dot64::compute(c, s, c, s, &st);
  EXPECT_EQ(st.tt[0], Nvfp4DotBounds::tt_max);
  for (auto& x : s) x = 0x01;   // 2^-9: the smallest
  Nvfp4Dot64::compute(c, s, c, s, &st);
  EXPECT_EQ(st.tt[0], Nvfp4DotBounds::tt_min);
  // A tie: sub-block 0 gives 2^24 (large scale), sub-block 1 gives +1 in units of the LSB
  // (tiny scale): exact value 2^24 + 1 -> ties to even 2^24; with +3 -> 2^24 + 4.
  uint8_t ca[64] = {}, cb[64] = {}, sa[4], sb[4];
  for (auto& x : sa) x = 0x01;  // 2^-9
  for (auto& x : sb) x = 0x01;
  // 0.5 * 0.5 = 0.25 per product with scales 2^-9 x 2^-9 -> 2^-20 per product.
  ca[16] = 1;
  cb[16] = 1;
  // Sub-block 0: 1.0 * 1.0 = 1 times 2^(e) with scales 2^2 x 2^2 ... choose 2^4 = 16 -> 2^4 * X.
  // Build 2^4 exactly: products 1*1 (codes 2) and scales 4.0 (0x48) -> 16; need 2^4 = 2^-20 * 2^24.
  ca[0] = 2;
  cb[0] = 2;
  sa[0] = 0x48;  // 4.0
  sb[0] = 0x48;
  EXPECT_EQ(Nvfp4Dot64::compute(ca, sa, cb, sb).value, 16.0f);  // 16 + 2^-20 rounds to 16 (below half-ulp)
  // 16 + 2^-20 * k: ulp(16) = 2^-19, so k = 1 is an exact tie -> even (16); k = 3 -> 16 + 2^-18.
  ca[17] = 1;
  cb[17] = 1;
  ca[18] = 1;
  cb[18] = 1;
  EXPECT_EQ(Nvfp4Dot64::compute(ca, sa, cb, sb).value, 16.0f + 0x1p-18f);
  ca[17] = ca[18] = cb[17] = cb[18] = 0;
  ca[16] = 1;
  cb[16] = 1;
  const float tie = Nvfp4Dot64::compute(ca, sa, cb, sb).value;
  EXPECT_EQ(tie, 16.0f);
}
