// Rollout-ResQ residual paths and ARCQuant channels (docs/datapath.md units 7-8).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "common/llm_like.hpp"
#include "common/test_env.hpp"
#include "datapath/hif4_dot.hpp"
#include "formats/bits.hpp"
#include "gemm/arc.hpp"
#include "gemm/gemm_stats.hpp"
#include "gemm/residual_gemm.hpp"
#include "util/rng.hpp"

using namespace hifsim;
using namespace hifsim::dp;
using fmt::Format;

namespace {
// Activations with outlier channels (which stretch block scales) and small values that underflow.
std::vector<float> outlier_activations(size_t rows, size_t cols, uint64_t seed) {
  SplitMix64 r(seed);
  std::vector<float> x(rows * cols);
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = test::normal_draw(r);
    if (i % cols % 29 == 7) x[i] *= 60.0f;
  }
  return x;
}
using test::gaussian;
}  // namespace

TEST(Residual, TwoFourSelectionKeepsTheLargestWithLowerIndexOnTies) {
  // One row of 8 MXFP8-E4M3 values (one block): magnitudes chosen to exercise ties.
  const float x[32] = {1.0f, -3.0f, 3.0f, 0.5f,   // tie between 1 and 2 at |3|: keep 1 and 2
                       2.0f, 2.0f, 2.0f, 2.0f,    // all equal: keep 4 and 5
                       0.0f, 0.0f, 0.0f, 0.25f,   // one nonzero: keep 11 and the lowest zero (8)
                       -1.0f, 4.0f, -4.0f, 1.0f};  // |4| twice: keep 13 and 14
  fmt::QTensor q = fmt::quantize(Format::mxfp8_e4m3, x, 1, 32);
  const std::vector<uint8_t> keep = sparsify_24(q);
  const uint8_t want[16] = {0, 1, 1, 0, 1, 1, 0, 0, 1, 0, 0, 1, 0, 1, 1, 0};
  for (int k = 0; k < 16; ++k) EXPECT_EQ(keep[k], want[k]) << "element " << k;
  for (int k = 0; k < 16; ++k) {
    if (!want[k]) {
      EXPECT_EQ(q.codes[k], 0) << "dropped element " << k << " must be +0";
    }
  }
  // Every group of 4 keeps exactly 2.
  for (size_t g = 0; g < keep.size(); g += 4) EXPECT_EQ(keep[g] + keep[g + 1] + keep[g + 2] + keep[g + 3], 2);
}

TEST(Residual, Top50KeepsHalfTheChannelsByL2Norm) {
  const size_t rows = 4, cols = 64;
  std::vector<float> x(rows * cols, 0.01f);
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < cols; c += 2) x[r * cols + c] = 1.0f + c;  // even channels are large
  fmt::QTensor q = fmt::quantize(Format::bf16, x.data(), rows, cols);
  const std::vector<uint8_t> keep = keep_top50_channels(q);
  for (size_t c = 0; c < cols; ++c) EXPECT_EQ(keep[c], c % 2 == 0 ? 1 : 0) << c;
}

TEST(Residual, ResidualIsBf16OfTheQuantizationError) {
  const auto x = outlier_activations(3, 128, 1);
  const fmt::QTensor q = fmt::quantize(Format::hif4, x.data(), 3, 128);
  const std::vector<float> d = fmt::dequantize(q), r = residual_values(x.data(), q);
  for (size_t i = 0; i < x.size(); ++i) EXPECT_EQ(r[i], fmt::bf16_round(x[i] - d[i]));
}

TEST(Residual, DenseResidualLowersTheErrorOnOutlierData) {
  const size_t M = 32, N = 48, K = 512;
  const auto X = outlier_activations(M, K, 2), W = gaussian(N * K, 3);
  const auto ref = gemm_fp64(X.data(), M, K, W.data(), N);
  for (Format f : {Format::hif4, Format::mxfp4, Format::nvfp4}) {
    GemmSpec s;
    s.format = f;
    ResidualSpec none, dense, s24, top;
    dense.kind = ResidualKind::dense;
    s24.kind = ResidualKind::sparse24;
    top.kind = ResidualKind::top50;
    const double e0 = gemm_error(gemm_with_residual(X.data(), M, K, W.data(), N, s, none), ref).sqnr_db;
    const double ed = gemm_error(gemm_with_residual(X.data(), M, K, W.data(), N, s, dense), ref).sqnr_db;
    const double es = gemm_error(gemm_with_residual(X.data(), M, K, W.data(), N, s, s24), ref).sqnr_db;
    const double et = gemm_error(gemm_with_residual(X.data(), M, K, W.data(), N, s, top), ref).sqnr_db;
    EXPECT_GT(ed, e0 + 1.0) << fmt::format_info(f).name << ": dense residual must raise SQNR";
    EXPECT_GT(es, e0) << fmt::format_info(f).name << ": 2:4 residual must raise SQNR";
    EXPECT_GT(et, e0) << fmt::format_info(f).name << ": top50 residual must raise SQNR";
    EXPECT_GE(ed, es - 0.5) << fmt::format_info(f).name;
  }
}

TEST(Residual, FusedEqualsOneAccumulatorOverMainThenResidualBlocks) {
  const size_t M = 4, N = 6, K = 256;
  const auto X = outlier_activations(M, K, 4), W = gaussian(N * K, 5);
  for (Format f : {Format::hif4, Format::nvfp4, Format::hif8}) {
    GemmSpec s;
    s.format = f;
    ResidualSpec rs;
    rs.kind = ResidualKind::sparse24;
    rs.mode = ResidualMode::fused;
    const auto y = gemm_with_residual(X.data(), M, K, W.data(), N, s, rs);
    const ResidualOperands ops = make_residual_operands(X.data(), M, K, s, rs);
    const fmt::QTensor wq = quantize_operand(W.data(), N, K, s);
    const size_t nblk = wq.padded_cols / dot_width(s);
    for (size_t m = 0; m < M; ++m)
      for (size_t n = 0; n < N; ++n) {
        Accumulator acc(s.acc);
        acc.reset();
        for (size_t b = 0; b < nblk; ++b) acc.add(unit_dot(ops.main, m, wq, n, b, s));
        for (size_t b = 0; b < nblk; ++b) acc.add(unit_dot(ops.residual, m, wq, n, b, s));
        ASSERT_EQ(fmt::f32_bits(y[m * N + n]), fmt::f32_bits(epilogue(acc.result(), ops.main, wq)))
            << fmt::format_info(f).name;
      }
    // Unfused: two GEMMs from +0, one FP32 add.
    rs.mode = ResidualMode::unfused;
    const auto yu = gemm_with_residual(X.data(), M, K, W.data(), N, s, rs);
    const ResidualOperands ou = make_residual_operands(X.data(), M, K, s, rs);
    const auto y1 = gemm_quantized(ou.main, wq, s), y2 = gemm_quantized(ou.residual, wq, s);
    for (size_t i = 0; i < yu.size(); ++i) ASSERT_EQ(fmt::f32_bits(yu[i]), fmt::f32_bits(y1[i] + y2[i]));
  }
}

TEST(SparseResidualUnit, SelectAndMultiplyEqualsDenseDotOnDecompressed) {
  SplitMix64 rng(6);
  for (size_t i = 0; i < hifsim::test::scaled(100000); ++i) {
    fmt::Hif4Unit r, w;
    r.e6m2 = static_cast<uint8_t>(rng.below(i % 500 == 0 ? 256 : 255));
    w.e6m2 = static_cast<uint8_t>(rng.below(255));
    r.e1_8 = static_cast<uint8_t>(rng.next());
    r.e1_16 = static_cast<uint16_t>(rng.next());
    w.e1_8 = static_cast<uint8_t>(rng.next());
    w.e1_16 = static_cast<uint16_t>(rng.next());
    for (int g = 0; g < 16; ++g) {
      // Two random positions (maybe equal) carry values: at most 2 nonzeros per group.
      const int p0 = static_cast<int>(rng.below(4)), p1 = static_cast<int>(rng.below(4));
      for (int k = 0; k < 4; ++k) {
        const bool kept = k == p0 || k == p1;
        r.nib[4 * g + k] = kept ? static_cast<uint8_t>(rng.below(16)) : (rng.below(2) ? 8 : 0);  // +-0 elsewhere
      }
    }
    for (auto& n : w.nib) n = static_cast<uint8_t>(rng.below(16));
    const Hif4Sparse24 c = compress_24(r);
    SparseDotStages st;
    const DotResult sparse = SparseResidualHif4Dot::compute(c, w, &st);
    const DotResult dense = Hif4Dot64::compute(r, w);
    ASSERT_EQ(fmt::f32_bits(sparse.value), fmt::f32_bits(dense.value)) << "vector " << i;
    ASSERT_LE(std::abs(st.i_sum), SparseDotBounds::i_sum);
    ASSERT_LE(std::abs(st.big), SparseDotBounds::big);
    for (int j = 0; j < 32; ++j) ASSERT_LT(c.idx[j], 4);
    for (int g = 0; g < 16; ++g) ASSERT_LT(c.idx[2 * g], c.idx[2 * g + 1]);
  }
  fmt::Hif4Unit bad;
  bad.nib[0] = bad.nib[1] = bad.nib[2] = 1;  // three nonzeros in group 0
  EXPECT_THROW(compress_24(bad), std::runtime_error);
}

TEST(SparseResidualUnit, BoundsAreReached) {
  fmt::Hif4Unit u;
  u.e6m2 = 0xFB;
  u.e1_8 = 0xFF;
  u.e1_16 = 0xFFFF;
  for (int g = 0; g < 16; ++g) u.nib[4 * g] = u.nib[4 * g + 1] = 7;
  SparseDotStages st;
  fmt::Hif4Unit w = u;
  for (auto& n : w.nib) n = 7;
  SparseResidualHif4Dot::compute(compress_24(u), w, &st);
  EXPECT_EQ(st.p[0], SparseDotBounds::p);
  EXPECT_EQ(st.group[0], SparseDotBounds::group);
  EXPECT_EQ(st.shifted[0], SparseDotBounds::shifted);
  EXPECT_EQ(st.i_sum, SparseDotBounds::i_sum);
  EXPECT_EQ(st.big, SparseDotBounds::big);
}

TEST(Arc, PlanOrderAndAugmentedLayout) {
  const size_t M = 8, K = 64;
  std::vector<float> x(M * K);
  for (size_t m = 0; m < M; ++m)
    for (size_t k = 0; k < K; ++k) x[m * K + k] = static_cast<float>((k * 7) % 64) * 0.1f + 0.01f;
  const ArcPlan p = arc_plan(x.data(), M, K, 16, Format::nvfp4);
  ASSERT_EQ(p.group, 16u);
  ASSERT_EQ(p.S, 16u);
  // Ascending statistic: channel k has value ((7k) mod 64)/10, so the order is the inverse permutation.
  for (size_t j = 0; j < K; ++j) EXPECT_EQ((p.order[j] * 7) % 64, j);
  EXPECT_THROW(arc_plan(x.data(), M, K, 24, Format::nvfp4), std::runtime_error);   // not a multiple of 16
  EXPECT_THROW(arc_plan(x.data(), M, K, 128, Format::nvfp4), std::runtime_error);  // more than K
  GemmSpec s;
  s.format = Format::nvfp4;
  const std::vector<float> xa = arc_augment_activation(x.data(), M, K, p, s);
  std::vector<float> w(3 * K);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(i % 13) - 6.0f;
  const std::vector<float> wa = arc_augment_weight(w.data(), 3, K, p);
  ASSERT_EQ(xa.size(), M * (K + 16));
  for (size_t n = 0; n < 3; ++n)
    for (size_t j = 0; j < 16; ++j) {
      // Plain part (K - S = 48 channels) then the outlier group and its duplicate.
      EXPECT_EQ(wa[n * 80 + 48 + j], w[n * K + p.order[48 + j]]);
      EXPECT_EQ(wa[n * 80 + 64 + j], w[n * K + p.order[48 + j]]);
    }
}

TEST(Arc, CompensationLowersTheErrorAndEqualsTheResidualIdentity) {
  const size_t M = 32, N = 40, K = 512;
  const auto X = outlier_activations(M, K, 7), W = gaussian(N * K, 8);
  const auto ref = gemm_fp64(X.data(), M, K, W.data(), N);
  for (Format f : {Format::nvfp4, Format::hif4, Format::mxfp4}) {
    GemmSpec s;
    s.format = f;
    const double base = gemm_error(gemm(X.data(), M, K, W.data(), N, s), ref).sqnr_db;
    const ArcPlan p = arc_plan(X.data(), M, K, static_cast<long>(arc_group(f)) * 2, f);
    const double arc = gemm_error(gemm_arc(X.data(), M, K, W.data(), N, s, p), ref).sqnr_db;
    EXPECT_GT(arc, base + 0.5) << fmt::format_info(f).name;
    // No compensated channels: exactly the plain GEMM of the channel-reordered operands.
    ArcPlan zero = p;
    zero.S = 0;
    std::vector<float> xr(M * K), wr(N * K);
    for (size_t j = 0; j < K; ++j) {
      for (size_t m = 0; m < M; ++m) xr[m * K + j] = X[m * K + p.order[j]];
      for (size_t n = 0; n < N; ++n) wr[n * K + j] = W[n * K + p.order[j]];
    }
    const auto y0 = gemm_arc(X.data(), M, K, W.data(), N, s, zero), yr = gemm(xr.data(), M, K, wr.data(), N, s);
    for (size_t i = 0; i < y0.size(); ++i) ASSERT_EQ(fmt::f32_bits(y0[i]), fmt::f32_bits(yr[i]));
  }
  const size_t S = arc_auto_channels(X.data(), M, K, 16);
  EXPECT_EQ(S % 16, 0u);
  EXPECT_GT(S, 0u);
}
