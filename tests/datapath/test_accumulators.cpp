// Accumulators: the soft FP adder against the host FPU (binary32 RNE), reduced-mantissa
// variants and the Kulisch register against exact cpp_int sums.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "datapath/accumulator.hpp"
#include "datapath/fp_add.hpp"
#include "common/test_env.hpp"
#include "exact_ref.hpp"
#include "formats/bits.hpp"
#include "util/rng.hpp"

using namespace hifsim;
using namespace hifsim::dp;

namespace {
// Random FP32 bit patterns biased towards interesting classes.
float random_float(SplitMix64& r) {
  const uint64_t kind = r.below(16);
  uint32_t b = r.next32();
  if (kind == 0) b &= 0x807FFFFFu;                             // subnormal / zero
  else if (kind == 1) b = (b & 0x80000000u) | 0x7F800000u;     // Inf
  else if (kind == 2) b = (b & 0x807FFFFFu) | 0x00800000u;     // smallest normal binade
  else if (kind == 3) b = (b & 0x807FFFFFu) | 0x7F000000u;     // largest binade
  else if (kind < 8) b = (b & 0x80FFFFFFu) | (static_cast<uint32_t>(120 + r.below(16)) << 23);  // near 1
  if (((b >> 23) & 0xFF) == 0xFF && (b & 0x7FFFFF)) b &= 0xFF800000u;  // keep NaN out here
  return fmt::bits_f32(b);
}
}  // namespace

TEST(FpAdd, BinaryThirtyTwoMatchesTheHostFpu) {
  SplitMix64 rng(11);
  for (size_t i = 0; i < hifsim::test::scaled(2000000); ++i) {
    const float a = random_float(rng);
    float b = random_float(rng);
    if (i % 4 == 0) b = fmt::bits_f32(fmt::f32_bits(a) ^ 0x80000000u ^ (rng.next32() & 0xFF));  // near-cancellation
    float want = a + b;
    if (want != want) want = fmt::f32_nan();
    ASSERT_EQ(fmt::f32_bits(fp_add(a, b)), fmt::f32_bits(want)) << std::hexfloat << a << " + " << b;
  }
  EXPECT_EQ(fmt::f32_bits(fp_add(-0.0f, -0.0f)), 0x80000000u);
  EXPECT_EQ(fmt::f32_bits(fp_add(-0.0f, 0.0f)), 0u);
  EXPECT_EQ(fmt::f32_bits(fp_add(1.0f, -1.0f)), 0u);
  EXPECT_EQ(fmt::f32_bits(fp_add(HUGE_VALF, -HUGE_VALF)), 0x7FC00000u);
}

TEST(FpAdd, ReducedPrecisionMatchesExactRounding) {
  SplitMix64 rng(12);
  int inexact = 0;
  for (int p : {8, 11, 14, 17, 20}) {
    for (const bool rz : {false, true}) {
      for (size_t i = 0; i < hifsim::test::scaled(200000); ++i) {
        // Operands already representable with p bits (as in a p-bit accumulator register) and
        // arbitrary FP32 dot results.
        const float a = fp_round(random_float(rng), p, rz ? RoundMode::rz : RoundMode::rne);
        const float b = random_float(rng);
        if (!std::isfinite(a) || !std::isfinite(b)) continue;
        const ref::Dy ex = ref::add(ref::from_float(a), ref::from_float(b));
        float want = ref::round_p(ex, p, rz);
        if (ex.n == 0) want = (std::signbit(a) && std::signbit(b)) ? -0.0f : 0.0f;
        const float got = fp_add(a, b, p, rz ? RoundMode::rz : RoundMode::rne);
        ASSERT_EQ(fmt::f32_bits(got), fmt::f32_bits(want)) << "p=" << p << " rz=" << rz << std::hexfloat << " " << a << " + " << b;
        if (!ref::exact_is(ex, got)) ++inexact;
      }
    }
  }
  EXPECT_GT(inexact, static_cast<int>(hifsim::test::scaled(200000) * 10 / 20));  // at least 5% of the cases round
  // A tie at p = 8: 1 + 2^-8 is halfway between 1 and 1 + 2^-7 -> even (1); RZ truncates.
  EXPECT_EQ(fp_add(1.0f, 0x1p-8f, 8, RoundMode::rne), 1.0f);
  EXPECT_EQ(fp_add(1.0f + 0x1p-7f, 0x1p-8f, 8, RoundMode::rne), 1.0f + 0x1p-6f);
  EXPECT_EQ(fp_add(1.0f, 0x1.fp-8f, 8, RoundMode::rz), 1.0f);
  EXPECT_EQ(fp_add(1.0f, -0x1p-30f, 8, RoundMode::rz), 1.0f - 0x1p-8f);
}

TEST(Accumulator, KulischIsExactWithOneRounding) {
  SplitMix64 rng(13);
  for (int t = 0; t < 200; ++t) {
    Accumulator acc(AccSpec::parse("kulisch"));
    acc.reset(0.0f);
    ref::Dy ex;
    for (int i = 0; i < 500; ++i) {
      float v = random_float(rng);
      if (!std::isfinite(v) || std::fabs(v) > 0x1p100f) v = 1.0f;
      acc.add_value(v);
      ex = ref::add(ex, ref::from_float(v));
    }
    ASSERT_EQ(fmt::f32_bits(acc.result()), fmt::f32_bits(ref::round_p(ex))) << "trial " << t;
  }
  // Catastrophic cancellation that FP32 gets wrong and Kulisch gets right.
  Accumulator k(AccSpec::parse("kulisch")), f(AccSpec::parse("fp32"));
  k.reset();
  f.reset();
  for (float v : {1e30f, 1.0f, -1e30f}) {
    k.add_value(v);
    f.add_value(v);
  }
  EXPECT_EQ(k.result(), 1.0f);
  EXPECT_EQ(f.result(), 0.0f);
}

TEST(Accumulator, SpecParsingAndErrors) {
  EXPECT_EQ(AccSpec::parse("fp32-m13-rz").name(), "fp32-m13-rz");
  EXPECT_EQ(AccSpec::parse("fp32-m10-rne").mant_bits, 10);
  for (const char* bad : {"fp16", "fp32-m0-rz", "fp32-m24-rne", "fp32-m10-rd", "fp32-mx-rz", ""}) {
    EXPECT_THROW(AccSpec::parse(bad), std::runtime_error) << bad;
  }
}
