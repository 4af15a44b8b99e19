// The aligned dot unit (datapath/aligned_dot.hpp: HiF8 N-wide and BF16 64-wide) against the
// alignment definition written out with cpp_int: every window width and policy, the exact width,
// subnormal results.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "datapath/aligned_dot.hpp"
#include "exact_ref.hpp"
#include "formats/bits.hpp"
#include "formats/hif8.hpp"
#include "formats/minifloat.hpp"
#include "unit_vectors.hpp"
#include "util/rng.hpp"

using namespace hifsim;
using namespace hifsim::dp;
using namespace hifsim::test;

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
