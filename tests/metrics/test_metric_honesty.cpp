// Metrics that cannot lie (issue 18): an accuracy figure over NaN/Inf outputs is reported as
// invalid -- NaN figures, null in JSON, "invalid" in tables, with the counts -- never as a score.
// Before, non-finite outputs were skipped: an all-NaN GEMM wrote "sqnr_db": 1e999 (exact!) and an
// FP8 op with 75 % NaN outputs scored 27 dB, above HiF8. Every tensor format gets operands that
// make its unit produce NaN or Inf.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "formats/format.hpp"
#include "gemm/gemm.hpp"
#include "gemm/gemm_stats.hpp"

using namespace hifsim;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

std::vector<float> normal(size_t n, uint32_t seed) {
  std::mt19937 g(seed);
  std::normal_distribution<float> d;
  std::vector<float> v(n);
  for (auto& x : v) x = d(g);
  return v;
}

void expect_invalid(const dp::GemmError& e, const std::string& what) {
  EXPECT_FALSE(e.valid()) << what;
  for (double v : {e.sqnr_db, e.rel_frobenius, e.max_rel_err, e.mean_rel_err, e.max_abs_err, e.cosine})
    EXPECT_TRUE(std::isnan(v)) << what << ": a figure of an invalid set must be NaN, got " << v;
  EXPECT_NE(e.invalid_reason(), "") << what;
  const std::string j = e.json();
  EXPECT_NE(j.find("\"sqnr_db\": null"), std::string::npos) << what << "\n" << j;
  EXPECT_NE(j.find("\"valid\": false"), std::string::npos) << what << "\n" << j;
  EXPECT_EQ(j.find("1e999"), std::string::npos) << what << "\n" << j;
  EXPECT_EQ(dp::metric_text(e.sqnr_db, e, 6), "invalid");
}

}  // namespace

TEST(MetricHonesty, AllNaNOutputsAreInvalidNotExact) {
  const std::vector<float> c(64, kNaN);
  const std::vector<double> ref(64, 1.0);
  const dp::GemmError e = dp::gemm_error(c, ref);
  expect_invalid(e, "all NaN");
  EXPECT_EQ(e.nonfinite, 64u);
  EXPECT_EQ(e.outputs, 64u);
  EXPECT_EQ(e.invalid_reason(), "64 of 64 outputs are NaN or Inf");
}

TEST(MetricHonesty, APartlyNaNResultHasNoScore) {
  // 3 of 4 outputs NaN, the fourth close to the reference: skipping the NaNs scored ~40 dB.
  const std::vector<float> c = {kNaN, kNaN, std::numeric_limits<float>::infinity(), 1.001f};
  const std::vector<double> ref = {1, 1, 1, 1};
  const dp::GemmError e = dp::gemm_error(c, ref);
  expect_invalid(e, "75 % non-finite");
  EXPECT_EQ(e.invalid_reason(), "3 of 4 outputs are NaN or Inf");
}

TEST(MetricHonesty, NonFiniteReferenceIsInvalidToo) {
  const std::vector<float> c = {1, 2, 3};
  const std::vector<double> ref = {1, std::numeric_limits<double>::infinity(), 3};
  const dp::GemmError e = dp::gemm_error(c, ref);
  expect_invalid(e, "reference Inf");
  EXPECT_EQ(e.nonfinite_reference, 1u);
  EXPECT_EQ(e.invalid_reason(), "1 of 3 reference values are NaN or Inf");
}

TEST(MetricHonesty, AggregatesContainingAnInvalidSetAreInvalid) {
  dp::ErrorSums good, bad, both;
  const float c1[2] = {1.0f, 2.0f}, r1[2] = {1.0f, 2.5f}, c2[2] = {kNaN, 1.0f}, r2[2] = {1.0f, 1.0f};
  good.add(c1, r1, 2);
  bad.add(c2, r2, 2);
  EXPECT_TRUE(good.metrics().valid());
  EXPECT_NEAR(good.metrics().sqnr_db, 10 * std::log10((1.0 + 6.25) / 0.25), 1e-12);  // 14.6 dB, by hand
  both.add(good);
  both.add(bad);
  expect_invalid(both.metrics(), "aggregate");
  EXPECT_EQ(both.metrics().outputs, 4u);
}

TEST(MetricHonesty, ExactResultsStayExact) {
  const std::vector<float> c = {1, -2, 0.5f};
  const std::vector<double> ref = {1, -2, 0.5};
  const dp::GemmError e = dp::gemm_error(c, ref);
  EXPECT_TRUE(e.valid());
  EXPECT_TRUE(std::isinf(e.sqnr_db) && e.sqnr_db > 0);
  EXPECT_EQ(e.cosine, 1.0);
  EXPECT_EQ(dp::metric_text(e.rel_frobenius, e, 6), "0");
}

// Every tensor format: operands that make its unit produce NaN or Inf outputs. Huge finite
// operands overflow the FP32 accumulation of the formats that do not saturate them (the FP64
// reference stays finite: non-finite *outputs*); HiF4 saturates every finite input, so a NaN
// element (NaN block) it is.
TEST(MetricHonesty, EveryFormatsNonFiniteOutputsAreInvalid) {
  const size_t M = 4, N = 4, K = 64;
  const std::vector<float> B = normal(N * K, 7);
  int formats = 0;
  for (const fmt::FormatInfo& fi : fmt::all_formats()) {
    if (!fi.tensor) continue;
    ++formats;
    dp::GemmSpec s;
    s.format = fi.id;
    s.threads = 1;
    std::vector<float> A(M * K, 3e38f);
    if (fi.id == fmt::Format::hif4) {
      A = normal(M * K, 3);
      A[5] = kNaN;
    }
    const std::vector<float> C = dp::gemm(A.data(), M, K, B.data(), N, s);
    const dp::GemmError e = dp::gemm_error(C, dp::gemm_fp64(A.data(), M, K, B.data(), N, 1));
    EXPECT_GT(e.nonfinite + e.nonfinite_reference, 0u) << fi.name << ": the operands did not produce NaN/Inf";
    expect_invalid(e, fi.name);
    if (fi.id != fmt::Format::hif4) {
      EXPECT_EQ(e.nonfinite_reference, 0u) << fi.name << ": the FP64 reference is finite";
    }
  }
  EXPECT_EQ(formats, 9);
}

// The case: FP8 E4M3 (no saturation) with 12 of 16 rows far beyond its range -- the old
// figures were 26.6 dB and cosine 0.999, as good as HiF8's.
TEST(MetricHonesty, Fp8WithMostlyNaNOutputsDoesNotRank) {
  const size_t M = 16, N = 16, K = 64;
  std::vector<float> A = normal(M * K, 0), B = normal(N * K, 1);
  for (size_t i = 0; i < 12 * K; ++i) A[i] *= 1e6f;
  dp::GemmSpec s;
  s.format = fmt::Format::fp8_e4m3;
  s.threads = 1;
  const dp::GemmError e = dp::gemm_error(dp::gemm(A.data(), M, K, B.data(), N, s), dp::gemm_fp64(A.data(), M, K, B.data(), N, 1));
  expect_invalid(e, "fp8-e4m3");
  EXPECT_EQ(e.nonfinite, 12u * 16u);
  EXPECT_EQ(e.outputs, 256u);
}
