// Every datapath unit against an exact reference built with Boost.Multiprecision (exact_ref.hpp):
// >= 10^5 random vectors per unit plus directed corners, and the documented stage bounds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "datapath/aligned_dot.hpp"
#include "datapath/hif4_dot.hpp"
#include "datapath/mxfp4_dot.hpp"
#include "datapath/mxfp8_dot.hpp"
#include "datapath/nvfp4_dot.hpp"
#include "common/test_env.hpp"
#include "exact_ref.hpp"
#include "formats/bits.hpp"
#include "formats/hif4.hpp"
#include "formats/hif8.hpp"
#include "formats/minifloat.hpp"
#include "formats/scales.hpp"
#include "util/rng.hpp"

using namespace hifsim;
using namespace hifsim::dp;

namespace {
const int kRandomVectors = static_cast<int>(hifsim::test::scaled(100000));
constexpr uint32_t kNaN = 0x7FC00000u;

fmt::Hif4Unit random_hif4(SplitMix64& r, bool allow_nan) {
  fmt::Hif4Unit u;
  u.e6m2 = static_cast<uint8_t>(r.below(allow_nan ? 256 : 255));
  u.e1_8 = static_cast<uint8_t>(r.next());
  u.e1_16 = static_cast<uint16_t>(r.next());
  for (int k = 0; k < 64; ++k) u.nib[k] = static_cast<uint8_t>(r.below(16));
  return u;
}

// 64 random FP4 E2M1 element codes (all 16, NaN-free) for each operand of an NVFP4/MXFP4 unit,
// drawn in pairs (a[k] then b[k]) so that a seed always gives the same vectors.
void random_e2m1_pairs(SplitMix64& rng, uint8_t* ca, uint8_t* cb) {
  for (int k = 0; k < 64; ++k) {
    ca[k] = static_cast<uint8_t>(rng.below(16));
    cb[k] = static_cast<uint8_t>(rng.below(16));
  }
}

// Exact dot of the FP4 E2M1 elements k = from .. from + n - 1 of two operands (one scale block).
ref::Dy e2m1_block_dot(const uint8_t* ca, const uint8_t* cb, int from, int n) {
  ref::Dy s;
  for (int k = from; k < from + n; ++k)
    s = ref::add(s, ref::mul(ref::from_float(fmt::minifloat_decode(fmt::kE2M1, ca[k])),
                             ref::from_float(fmt::minifloat_decode(fmt::kE2M1, cb[k]))));
  return s;
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

// ---------------------------------------------------------------- HiF4
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

// ---------------------------------------------------------------- NVFP4
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

// ---------------------------------------------------------------- MXFP4 / MXFP8
namespace {
ref::Dy e8m0_dy(uint8_t s) {
  ref::Dy d;
  d.n = 1;
  d.e = static_cast<int>(s) - 127;
  return d;
}
}  // namespace

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

// ---------------------------------------------------------------- HiF8 / BF16 aligned dot
namespace {
// The alignment definition written out independently with cpp_int (docs/datapath.md, unit 4).
uint32_t aligned_reference(const std::vector<float>& va, const std::vector<float>& vb, int pbits, int W, bool sticky) {
  bool nan = false, pinf = false, ninf = false;
  struct P {
    ref::Dy v;
    long long sig;
    int lsb;
  };
  std::vector<P> prods;
  for (size_t k = 0; k < va.size(); ++k) {
    const float x = va[k], y = vb[k];
    if (std::isnan(x) || std::isnan(y)) {
      nan = true;
      continue;
    }
    if (std::isinf(x) || std::isinf(y)) {
      if (x == 0 || y == 0) nan = true;
      else (std::signbit(x) != std::signbit(y) ? ninf : pinf) = true;
      continue;
    }
    if (x == 0 || y == 0) continue;
    // Split into the unit's integer forms: HiF8 sig 8..15 (4 bits); BF16 8 bits (sub: f, exp -133).
    auto split = [&](float f, long long& sig, int& ex) {
      if (pbits == 8) {
        int e;
        const float fr = std::frexp(std::fabs(f), &e);
        sig = static_cast<long long>(fr * 16);
        ex = e - 4;
      } else {
        const uint32_t b = ref::bits(f) >> 16;
        const int ef = (b >> 7) & 0xFF;
        sig = ef ? 128 + (b & 0x7F) : (b & 0x7F);
        ex = (ef ? ef : 1) - 134;
      }
    };
    long long sx, sy;
    int ex, ey;
    split(x, sx, ex);
    split(y, sy, ey);
    P p;
    p.sig = sx * sy;
    p.lsb = ex + ey;
    p.v.n = (std::signbit(x) != std::signbit(y)) ? -p.sig : p.sig;
    p.v.e = p.lsb;
    prods.push_back(p);
  }
  if (nan || (pinf && ninf)) return kNaN;
  if (pinf) return 0x7F800000u;
  if (ninf) return 0xFF800000u;
  if (prods.empty()) return 0;
  if (W == 0) {
    ref::Dy s;
    for (auto& p : prods) s = ref::add(s, p.v);
    return ref::bits(ref::round_p(s));
  }
  int emax = -100000;
  for (auto& p : prods) emax = std::max(emax, p.lsb + pbits);
  const int L = emax - W - (sticky ? 1 : 0);
  ref::Dy s;
  s.e = L;
  for (auto& p : prods) {
    // floor(|v| / 2^L) with the remainder test, in cpp_int.
    ref::cpp_int mag = p.sig;
    ref::cpp_int t;
    bool dropped;
    if (p.lsb >= L) {
      t = mag << (p.lsb - L);
      dropped = false;
    } else {
      t = mag >> (L - p.lsb);
      dropped = (t << (L - p.lsb)) != mag;
    }
    if (sticky && dropped) t |= 1;
    s.n += (p.v.n < 0) ? ref::cpp_int(-t) : t;
  }
  return ref::bits(ref::round_p(s));
}
}  // namespace

TEST(Hif8DotN, AlignmentWidthsAndPoliciesMatchReference) {
  SplitMix64 rng(7);
  const int widths[] = {0, kHif8ExactWidth, 48, 30, 24, 16, 9};
  int truncations_differ = 0;
  for (int i = 0; i < kRandomVectors; ++i) {
    const int n = (i % 3 == 0) ? 16 : (i % 3 == 1 ? 32 : 64);
    uint8_t a[64], b[64];
    const bool special = i % 50 == 0;
    for (int k = 0; k < n; ++k) {
      do {
        a[k] = static_cast<uint8_t>(rng.below(256));
        b[k] = static_cast<uint8_t>(rng.below(256));
      } while (!special && (a[k] == 0x80 || b[k] == 0x80 || (a[k] & 0x7F) == 0x6F || (b[k] & 0x7F) == 0x6F));
    }
    std::vector<float> va(a, a + n), vb(b, b + n);
    for (int k = 0; k < n; ++k) {
      va[k] = fmt::hif8_decode(a[k]);
      vb[k] = fmt::hif8_decode(b[k]);
    }
    const int W = widths[i % 7];
    const bool sticky = (i / 7) % 2;
    AlignSpec spec{W, sticky ? AlignPolicy::sticky : AlignPolicy::trunc};
    const uint32_t got = ref::bits(Hif8DotN::compute(a, b, n, spec).value);
    ASSERT_EQ(got, aligned_reference(va, vb, 8, W, sticky)) << "vector " << i << " W=" << W;
    if (W == 16 && got != aligned_reference(va, vb, 8, 0, false)) ++truncations_differ;
  }
  EXPECT_GT(truncations_differ, 100) << "a narrow window must change results";
}

TEST(Hif8DotN, ExactWidthEqualsUnboundedWindow) {
  SplitMix64 rng(8);
  for (int i = 0; i < 20000; ++i) {
    uint8_t a[64], b[64];
    for (int k = 0; k < 64; ++k) {
      do a[k] = static_cast<uint8_t>(rng.below(256));
      while (a[k] == 0x80 || (a[k] & 0x7F) == 0x6F);
      do b[k] = static_cast<uint8_t>(rng.below(256));
      while (b[k] == 0x80 || (b[k] & 0x7F) == 0x6F);
    }
    const float exact = Hif8DotN::compute(a, b, 64, {0, AlignPolicy::trunc}).value;
    ASSERT_EQ(ref::bits(Hif8DotN::compute(a, b, 64, {kHif8ExactWidth, AlignPolicy::trunc}).value), ref::bits(exact));
    ASSERT_EQ(ref::bits(Hif8DotN::compute(a, b, 64, {kHif8ExactWidth, AlignPolicy::sticky}).value), ref::bits(exact));
  }
}

TEST(Bf16Dot64, WidthsMatchReferenceAndSubnormalResults) {
  SplitMix64 rng(9);
  int subnormal = 0;
  for (int i = 0; i < kRandomVectors; ++i) {
    uint16_t a[64], b[64];
    std::vector<float> va(64), vb(64);
    // Exponents drawn from a window so sums mix magnitudes; every 5th vector sits near the
    // bottom of the range to make FP32 subnormal results.
    const int base = (i % 5 == 0) ? 64 : static_cast<int>(rng.below(200)) + 20;
    for (int k = 0; k < 64; ++k) {
      const uint16_t ea = static_cast<uint16_t>(std::clamp<int>(base + static_cast<int>(rng.below(24)) - 12, 0, 254));
      const uint16_t eb = static_cast<uint16_t>(std::clamp<int>(base + static_cast<int>(rng.below(24)) - 12, 0, 254));
      a[k] = static_cast<uint16_t>((rng.below(2) << 15) | (ea << 7) | rng.below(128));
      b[k] = static_cast<uint16_t>((rng.below(2) << 15) | (eb << 7) | rng.below(128));
      if (i % 97 == 0 && k == 3) a[k] = 0x7F80;  // +Inf
      if (i % 89 == 0 && k == 5) b[k] = 0x7FC1;  // NaN
      va[k] = fmt::bf16_to_float(a[k]);
      vb[k] = fmt::bf16_to_float(b[k]);
    }
    const int widths[] = {0, 64, 40, 26};
    const int W = widths[i % 4];
    const bool sticky = (i / 4) % 2;
    const uint32_t got = ref::bits(Bf16Dot64::compute(a, b, {W, sticky ? AlignPolicy::sticky : AlignPolicy::trunc}).value);
    ASSERT_EQ(got, aligned_reference(va, vb, 16, W, sticky)) << "vector " << i << " W=" << W;
    const float g = fmt::bits_f32(got);
    if (g != 0 && std::fabs(g) < 0x1p-126f) ++subnormal;
  }
  // Proportional to the vector count (100 at the default 10^5) so HIFSIM_TEST_SCALE can shrink it.
  EXPECT_GT(subnormal, kRandomVectors / 1000) << "too few subnormal results to pin the bottom of the range";
}
