// The MXFP4 dot unit (datapath/mxfp4_dot.hpp) against an exact reference built with
// Boost.Multiprecision: >= 10^5 random vectors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "datapath/mxfp4_dot.hpp"
#include "exact_ref.hpp"
#include "formats/bits.hpp"
#include "formats/minifloat.hpp"
#include "formats/scales.hpp"
#include "unit_vectors.hpp"
#include "util/rng.hpp"

using namespace hifsim;
using namespace hifsim::dp;
using namespace hifsim::test;

TEST(Mxfp4Dot64, RandomVectorsMatchExactReference) {
  SplitMix64 rng(4);
  int subnormal = 0, inf = 0, rounded = 0;
  for (int i = 0; i < kRandomVectors; ++i) {
    uint8_t ca[64], cb[64], sa[2], sb[2];
    random_e2m1_pairs(rng, ca, cb);
    for (int j = 0; j < 2; ++j) {
      sa[j] = static_cast<uint8_t>(rng.below(255));
      sb[j] = static_cast<uint8_t>(rng.below(255));
    }
    if (i % 3 == 0) {  // keep the two blocks close so their sum needs rounding often
      sa[1] = static_cast<uint8_t>(std::clamp<int>(sa[0] + static_cast<int>(rng.below(60)) - 30, 0, 254));
      sb[1] = sb[0];
    }
    const DotResult r = Mxfp4Dot64::compute(ca, sa, cb, sb);
    ref::Dy ex;
    for (int j = 0; j < 2; ++j) {
      const ref::Dy blk = e2m1_block_dot(ca, cb, 32 * j, 32);
      ex = ref::add(ex, ref::mul(blk, ref::mul(e8m0_dy(sa[j]), e8m0_dy(sb[j]))));
    }
    const float want = ref::round_p(ex);
    ASSERT_EQ(ref::bits(r.value), ref::bits(want)) << "vector " << i;
    if (want != 0 && std::fabs(want) < 0x1p-126f) ++subnormal;
    if (std::isinf(want)) ++inf;
    if (!ref::exact_is(ex, want)) ++rounded;
  }
  EXPECT_GT(subnormal, 0);
  EXPECT_GT(inf, 0);
  EXPECT_GT(rounded, 100);
  uint8_t c[64] = {}, s[2] = {0xFF, 127};
  EXPECT_EQ(ref::bits(Mxfp4Dot64::compute(c, s, c, s).value), kNaN);
}
