// The MXFP8 dot unit (datapath/mxfp8_dot.hpp), E4M3 and E5M2 elements, against the IEEE
// reference (the exact sum rounded once): >= 10^5 random vectors per element format.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "datapath/mxfp8_dot.hpp"
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
// IEEE reference for the FP8 block dot: specials by the rules, else the exact sum rounded once.
uint32_t mxfp8_reference(const fmt::MiniFloatSpec& e, const uint8_t* ca, uint8_t sa, const uint8_t* cb, uint8_t sb) {
  if (sa == 0xFF || sb == 0xFF) return kNaN;
  bool nan = false, pinf = false, ninf = false;
  ref::Dy s;
  for (int k = 0; k < 32; ++k) {
    const float x = fmt::minifloat_decode(e, ca[k]), y = fmt::minifloat_decode(e, cb[k]);
    if (std::isnan(x) || std::isnan(y)) {
      nan = true;
    } else if (std::isinf(x) || std::isinf(y)) {
      if (x == 0 || y == 0) nan = true;
      else (std::signbit(x) != std::signbit(y) ? ninf : pinf) = true;
    } else {
      s = ref::add(s, ref::mul(ref::from_float(x), ref::from_float(y)));
    }
  }
  if (nan || (pinf && ninf)) return kNaN;
  if (pinf) return 0x7F800000u;
  if (ninf) return 0xFF800000u;
  return ref::bits(ref::round_p(ref::mul(s, ref::mul(e8m0_dy(sa), e8m0_dy(sb)))));
}
}  // namespace

TEST(Mxfp8Dot32, RandomVectorsMatchExactReferenceBothElementFormats) {
  for (const fmt::MiniFloatSpec* e : {&fmt::kE4M3, &fmt::kE5M2}) {
    SplitMix64 rng(e == &fmt::kE4M3 ? 5 : 6);
    int subnormal = 0, specials = 0;
    for (int i = 0; i < kRandomVectors; ++i) {
      uint8_t ca[32], cb[32];
      const bool allow_special = i % 10 == 0;
      for (int k = 0; k < 32; ++k) {
        do {
          ca[k] = static_cast<uint8_t>(rng.below(256));
        } while (!allow_special && std::isnan(fmt::minifloat_decode(*e, ca[k])));
        do {
          cb[k] = static_cast<uint8_t>(rng.below(256));
        } while (!allow_special &&
                 (std::isnan(fmt::minifloat_decode(*e, cb[k])) || std::isinf(fmt::minifloat_decode(*e, cb[k]))));
        if (!allow_special && std::isinf(fmt::minifloat_decode(*e, ca[k]))) ca[k] = 0x01;
      }
      const uint8_t sa = static_cast<uint8_t>(rng.below(i % 1000 == 7 ? 256 : 255));
      const uint8_t sb = static_cast<uint8_t>(i % 4 == 0 ? 254 - sa / 2 : rng.below(255));
      const uint32_t got = ref::bits(Mxfp8Dot32::compute(*e, ca, sa, cb, sb).value);
      const uint32_t want = mxfp8_reference(*e, ca, sa, cb, sb);
      ASSERT_EQ(got, want) << e->name << " vector " << i;
      const float w = fmt::bits_f32(want);
      if (w != 0 && std::fabs(w) < 0x1p-126f) ++subnormal;
      if (std::isnan(w) || std::isinf(w)) ++specials;
    }
    EXPECT_GT(subnormal, 0) << e->name << ": FP32 subnormal results must be exercised";
    EXPECT_GT(specials, 0) << e->name;
  }
}
