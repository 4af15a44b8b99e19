// Element and scale codecs against the simple references in reference.hpp:
//   fp8-e4m3 (fn), fp8-e5m2, fp4-e2m1: every mode (rne, away, rz, stochastic), saturating and not
//   bf16: rne and truncation
//   e6m2, e8m0, s1p2
// Inputs: every BF16 pattern, +-8 ulps around every value and every midpoint of each format,
// and 10^6 random FP32 patterns per format and mode (seeded; see reference.hpp).
#include <gtest/gtest.h>

#include "formats/bits.hpp"
#include "formats/codes.hpp"
#include "formats/minifloat.hpp"
#include "formats/s1p2.hpp"
#include "formats/scales.hpp"
#include "reference.hpp"
#include "util/error.hpp"

using namespace hifsim::fmt;

namespace {

// +-8 ulps around each point, both signs.
std::vector<uint32_t> around(const std::vector<double>& pts) {
  std::vector<uint32_t> out;
  for (double p : pts) {
    const uint32_t b = ref::bits(static_cast<float>(p));
    for (int d = -8; d <= 8; ++d) {
      const int64_t v = static_cast<int64_t>(b) + d;
      if (v < 0 || v > 0x7FFFFFFF) continue;
      out.push_back(static_cast<uint32_t>(v));
      out.push_back(static_cast<uint32_t>(v) | 0x80000000u);
    }
  }
  for (uint32_t s : {0u, 0x80000000u})
    for (uint32_t b : {0u, 1u, 0x007FFFFFu, 0x00800000u, 0x7F7FFFFFu, 0x7F800000u, 0x7FC00000u, 0x7F800001u})
      out.push_back(s | b);
  return out;
}

std::vector<double> values_and_midpoints(std::vector<double> v, double virt) {
  const size_t n = v.size();
  v.push_back(virt);
  for (size_t i = 0; i + 1 <= n; ++i) v.push_back((v[i] + (i + 1 < n ? v[i + 1] : virt)) / 2);
  return v;
}

// A stimulus set for a format: boundaries, all BF16 patterns, random FP32 patterns.
std::vector<uint32_t> stimulus(const std::vector<double>& pts, size_t nrandom, uint64_t seed) {
  std::vector<uint32_t> s = around(pts);
  for (uint32_t h = 0; h < 65536; ++h) s.push_back(h << 16);
  ref::Gen g(seed);
  for (size_t i = 0; i < nrandom; ++i) {
    uint32_t b = g.u32();
    if (i & 1) b = (b & 0x807FFFFFu) | ((100 + static_cast<uint32_t>(g.next() % 60)) << 23);  // 2^-27..2^32
    s.push_back(b);
  }
  return s;
}

ref::Mode rmode(Rounding r) {
  switch (r) {
    case Rounding::nearest_even: return ref::Mode::rne;
    case Rounding::nearest_away: return ref::Mode::away;
    case Rounding::toward_zero: return ref::Mode::rz;
    case Rounding::stochastic: return ref::Mode::sr;
    default: return ref::Mode::rne;
  }
}

// How many patterns b of pats get a code got(b) other than the reference's want(b); the first 10
// are reported in full. With finite_only, non-finite inputs are skipped (the codec rejects them).
template <class Got, class Want>
int mismatches(const std::string& what, const std::vector<uint32_t>& pats, Got got, Want want, bool finite_only = false) {
  int failures = 0;
  for (uint32_t b : pats) {
    const float x = bits_f32(b);
    if (finite_only && !std::isfinite(x)) continue;
    const unsigned g = got(b), w = want(b);
    if (g != w && failures++ < 10)
      ADD_FAILURE() << what << " 0x" << std::hex << b << " (" << x << ") got 0x" << g << " want 0x" << w;
  }
  return failures;
}

void check_minifloat(const MiniFloatSpec& spec, const ref::Mini& rs, Rounding r, bool sat) {
  const ref::MiniGrid g = ref::mini_grid(rs);
  const auto pats = stimulus(values_and_midpoints(g.grid, g.virt), ref::scaled(1'000'000), ref::test_seed() + spec.ebits);
  ref::Gen rg(ref::test_seed() + 17);
  int failures = 0;
  for (uint32_t b : pats) {
    const float x = bits_f32(b);
    if (std::isnan(x) && !spec.has_nan) continue;  // E2M1: NaN is rejected before encoding
    MiniFloatEncode o;
    o.rounding = r;
    o.saturate = sat;
    o.rbits = r == Rounding::stochastic ? rg.next() : 0;
    const uint8_t got = minifloat_encode(spec, x, o);
    const uint8_t want = ref::mini_encode(rs, x, rmode(r), sat, o.rbits);
    if (got != want && failures++ < 10)
      ADD_FAILURE() << spec.name << " " << rounding_name(r) << (sat ? " sat" : "") << " x=0x" << std::hex << b << " ("
                    << x << ") got 0x" << int(got) << " want 0x" << int(want) << "; " << ref::seed_note();
  }
  EXPECT_EQ(failures, 0) << spec.name << " " << rounding_name(r) << " sat=" << sat << " over " << pats.size()
                         << " inputs";
}

}  // namespace

TEST(Elements, E4M3AllModes) {
  for (Rounding r : {Rounding::nearest_even, Rounding::nearest_away, Rounding::toward_zero, Rounding::stochastic})
    for (bool sat : {false, true}) check_minifloat(kE4M3, ref::kE4M3, r, sat);
}

TEST(Elements, E5M2AllModes) {
  for (Rounding r : {Rounding::nearest_even, Rounding::nearest_away, Rounding::toward_zero, Rounding::stochastic})
    for (bool sat : {false, true}) check_minifloat(kE5M2, ref::kE5M2, r, sat);
}

TEST(Elements, E2M1AllModes) {
  for (Rounding r : {Rounding::nearest_even, Rounding::nearest_away, Rounding::toward_zero, Rounding::stochastic})
    check_minifloat(kE2M1, ref::kE2M1, r, false);
}

TEST(Elements, OverflowBoundaries) {
  // mx-nvfp4-fp8.md 2: E4M3 464 ties to 448, above it overflows (NaN, or 448 saturating);
  // E5M2 61440 ties to Inf; E2M1 5 ties to 4 (RNE) and to 6 (away).
  EXPECT_EQ(minifloat_encode(kE4M3, 464.0f), 0x7E);
  // Above the tie 464 the nearest slot is 480, the NaN code: overflow (mx-nvfp4-fp8.md 2 says
  // "|x| < 480 -> at most 448", which is wrong for (464, 480); ml-dtypes agrees with this).
  EXPECT_EQ(minifloat_encode(kE4M3, 464.00003f), 0x7F);
  EXPECT_EQ(minifloat_encode(kE4M3, 463.99997f), 0x7E);
  EXPECT_EQ(minifloat_encode(kE4M3, 480.0f), 0x7F);
  EXPECT_EQ(minifloat_encode(kE4M3, -480.0f), 0xFF);
  MiniFloatEncode sat;
  sat.saturate = true;
  EXPECT_EQ(minifloat_encode(kE4M3, 1e30f, sat), 0x7E);
  EXPECT_EQ(minifloat_encode(kE5M2, 61439.996f), 0x7B);
  EXPECT_EQ(minifloat_encode(kE5M2, 61440.0f), 0x7C);
  EXPECT_EQ(minifloat_encode(kE5M2, 61440.0f, sat), 0x7B);
  EXPECT_EQ(minifloat_encode(kE2M1, 5.0f), 0x6);
  MiniFloatEncode away;
  away.rounding = Rounding::nearest_away;
  EXPECT_EQ(minifloat_encode(kE2M1, 5.0f, away), 0x7);
  EXPECT_EQ(minifloat_encode(kE2M1, 0.25f), 0x0);
  EXPECT_EQ(minifloat_encode(kE2M1, 0.25f, away), 0x1);
  EXPECT_EQ(minifloat_encode(kE2M1, -0.25f), 0x8);
  // Truncation never overflows a finite value (IEEE roundTowardZero).
  MiniFloatEncode rz;
  rz.rounding = Rounding::toward_zero;
  EXPECT_EQ(minifloat_encode(kE4M3, 1000.0f, rz), 0x7E);
  EXPECT_EQ(minifloat_encode(kE5M2, 1e9f, rz), 0x7B);
  EXPECT_EQ(minifloat_encode(kE5M2, bits_f32(0x7F800000u), rz), 0x7C);
}

TEST(Bf16, RneAndTruncationAgainstReference) {
  std::vector<double> pts;
  for (int e = -133; e <= 127; e += 1) pts.push_back(std::ldexp(1.0, e));
  auto pats = stimulus(pts, ref::scaled(2'000'000), ref::test_seed() + 30);
  // Every rounding position of a BF16: the half-way point and +-1 ulp, even and odd.
  ref::Gen g(ref::test_seed() + 31);
  for (int i = 0; i < 200000; ++i) {
    const uint32_t hi = g.u32() & 0xFFFF0000u;
    for (uint32_t lo : {0x7FFFu, 0x8000u, 0x8001u, 0xFFFFu, 0x0001u}) pats.push_back(hi | lo);
  }
  int failures = 0;
  for (bool tz : {false, true})
    failures += mismatches(
        tz ? "bf16 rz" : "bf16 rne", pats, [&](uint32_t b) { return tz ? bf16_from_f32_rz(b) : bf16_from_f32_rne(b); },
        [&](uint32_t b) { return ref::bf16_encode(bits_f32(b), tz); });
  EXPECT_EQ(failures, 0);
}

TEST(Scales, E6M2AgainstReference) {
  std::vector<double> pts;
  for (int c = 0; c < 0xFF; ++c) pts.push_back(ref::e6m2_value(static_cast<uint8_t>(c)));
  pts = values_and_midpoints(pts, 57344.0);
  const auto pats = stimulus(pts, ref::scaled(1'000'000), ref::test_seed() + 40);
  EXPECT_EQ(mismatches(
                "e6m2", pats, [](uint32_t b) { return e6m2_encode(bits_f32(b)); },
                [](uint32_t b) { return ref::e6m2_encode(bits_f32(b)); }),
            0);
  // The clamp below the NaN code: 1.75 * 2^15 and everything up to Inf give 0xFE.
  EXPECT_EQ(e6m2_encode(57344.0f), 0xFE);
  EXPECT_EQ(e6m2_encode(53248.0f), 0xFE);  // tie 1.5/1.75 * 2^15 -> even 1.5
  EXPECT_EQ(e6m2_encode(1e30f), 0xFE);
  EXPECT_EQ(e6m2_encode(0x1p-60f), 0x00);
}

TEST(Scales, E8M0AgainstReference) {
  std::vector<double> pts;
  for (int k = -127; k <= 127; ++k) {
    pts.push_back(std::ldexp(1.0, k));
    pts.push_back(std::ldexp(1.5, k));
  }
  const auto pats = stimulus(pts, ref::scaled(1'000'000), ref::test_seed() + 50);
  EXPECT_EQ(mismatches(
                "e8m0", pats, [](uint32_t b) { return e8m0_encode(bits_f32(b)); },
                [](uint32_t b) { return ref::e8m0_encode(bits_f32(b)); }),
            0);
}

TEST(Scales, S1P2AgainstReference) {
  std::vector<double> pts;
  for (int m = 0; m <= 8; ++m) {
    pts.push_back(m / 4.0);
    pts.push_back(m / 4.0 + 0.125);
  }
  const auto pats = stimulus(pts, ref::scaled(500'000), ref::test_seed() + 60);
  int failures = 0;
  for (Rounding r : {Rounding::nearest_away, Rounding::nearest_even})  // non-finite: rejected (no NaN/Inf codes)
    failures += mismatches(
        std::string("s1p2 ") + rounding_name(r), pats, [&](uint32_t b) { return s1p2_encode(bits_f32(b), r); },
        [&](uint32_t b) { return ref::s1p2_encode(bits_f32(b), rmode(r)); }, true);
  EXPECT_EQ(failures, 0);
}

TEST(Codes, EncodeCodesThreadInvariantAndRejectsNonFinite) {
  std::vector<float> x(100000);
  ref::Gen g(ref::test_seed() + 70);
  for (auto& v : x) v = bits_f32((g.u32() & 0x807FFFFFu) | ((110 + static_cast<uint32_t>(g.next() % 30)) << 23));
  for (Format f : {Format::hif8, Format::fp8_e4m3, Format::fp8_e5m2}) {
    QuantOptions o;
    o.rounding = Rounding::stochastic;
    o.seed = 7;
    std::vector<uint16_t> a(x.size()), b(x.size());
    o.threads = 1;
    encode_codes(f, x.data(), x.size(), o, a.data());
    o.threads = 3;
    encode_codes(f, x.data(), x.size(), o, b.data());
    EXPECT_EQ(a, b) << format_info(f).name;
    o.seed = 8;
    encode_codes(f, x.data(), x.size(), o, b.data());
    EXPECT_NE(a, b) << "a different seed gives a different stream";
  }
  std::vector<float> bad = {1.0f, bits_f32(0x7FC00000u)};
  std::vector<uint16_t> c(2);
  EXPECT_THROW(encode_codes(Format::fp4_e2m1, bad.data(), 2, {}, c.data()), hifsim::Error);
  bad[1] = bits_f32(0xFF800000u);
  EXPECT_THROW(encode_codes(Format::s1p2, bad.data(), 2, {}, c.data()), hifsim::Error);
  std::vector<uint16_t> codes = {0x10};
  std::vector<float> out(1);
  EXPECT_THROW(decode_codes(Format::fp4_e2m1, codes.data(), 1, out.data()), hifsim::Error);
}
