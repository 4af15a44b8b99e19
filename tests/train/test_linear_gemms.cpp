// LinearGemms (model/train/linear_gemms.*): the trainer's one interface to the engines.
// - tensor_scale pow2_rms is exact rescaling: BF16 quantization commutes with a power of two on
//   normal values, so bf16 with the scaling equals bf16 without, bit for bit;
// - a K that is not a multiple of the RHT size is zero-padded: the result equals the training GEMM
//   on explicitly padded operands, bit for bit, and stays close to the FP32 product;
// - kept layers run in keep.format, fp32 rules in the FP32 GEMM.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "gemm/train_gemm.hpp"
#include "train/fp32_gemm.hpp"
#include "train/linear_gemms.hpp"
#include "util/rng.hpp"

using namespace hifsim;
using namespace hifsim::train;

namespace {
std::vector<float> data(size_t n, uint64_t seed, float scale) {
  std::vector<float> x = normal_values(n, SplitMix64(seed));
  for (float& v : x) v *= scale;
  return x;
}

Recipe all(std::optional<fmt::Format> f) {
  Recipe r;
  r.name = "test";
  for (auto& k : r.kinds) k.format = f;
  return r;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}
}  // namespace

TEST(LinearGemms, Pow2TensorScaleIsExactForBf16) {
  const size_t M = 24, N = 20, K = 96;
  const auto A = data(M * K, 1, 3e-5f), B = data(N * K, 2, 0.07f);  // gradient-sized and weight-sized
  Recipe plain = all(fmt::Format::bf16), scaled = plain;
  for (auto& k : scaled.kinds) k.pow2_tensor_scale = true;
  std::vector<float> c0(M * N), c1(M * N);
  LinearGemms g0(plain, 5, 2, false), g1(scaled, 5, 2, false);
  g0.run(GemmKind::dgrad, "layers.0.wq", A.data(), M, B.data(), N, K, c0.data());
  g1.run(GemmKind::dgrad, "layers.0.wq", A.data(), M, B.data(), N, K, c1.data());
  EXPECT_TRUE(same_bits(c0, c1)) << "power-of-two scaling changed a BF16 GEMM";
  // ...and it does change HiF8 (tapered precision): the option is not a no-op.
  Recipe h0 = all(fmt::Format::hif8), h1 = h0;
  for (auto& k : h1.kinds) k.pow2_tensor_scale = true;
  LinearGemms g2(h0, 5, 2, false), g3(h1, 5, 2, false);
  g2.run(GemmKind::dgrad, "layers.0.wq", A.data(), M, B.data(), N, K, c0.data());
  g3.run(GemmKind::dgrad, "layers.0.wq", A.data(), M, B.data(), N, K, c1.data());
  EXPECT_FALSE(same_bits(c0, c1));
}

TEST(LinearGemms, RhtPadsKToTheHadamardSize) {
  const size_t M = 16, N = 12, K = 172, Kp = 192;  // stories260K's dgrad of w_gate / w_up
  const auto A = data(M * K, 3, 1.0f), B = data(N * K, 4, 1.0f);
  Recipe r = all(fmt::Format::mxfp4);
  r.kinds[static_cast<int>(GemmKind::dgrad)].rht = 32;
  std::vector<float> c(M * N);
  LinearGemms g(r, 9, 2, false);
  g.run(GemmKind::dgrad, "layers.0.w_gate", A.data(), M, B.data(), N, K, c.data());
  std::vector<float> Ap(M * Kp, 0.0f), Bp(N * Kp, 0.0f);
  for (size_t i = 0; i < M; ++i) std::memcpy(&Ap[i * Kp], &A[i * K], K * sizeof(float));
  for (size_t i = 0; i < N; ++i) std::memcpy(&Bp[i * Kp], &B[i * K], K * sizeof(float));
  dp::TrainGemmSpec ts;
  ts.gemm.format = fmt::Format::mxfp4;
  ts.gemm.rht.n = 32;
  ts.gemm.rht.seed = 9;
  const std::vector<float> want = dp::train_gemm_nt(Ap.data(), M, Bp.data(), N, Kp, ts);
  EXPECT_TRUE(same_bits(c, want));
  std::vector<float> ref(M * N);
  fp32_gemm(A.data(), M, K, B.data(), N, ref.data(), 1);
  double sig = 0, err = 0;
  for (size_t i = 0; i < M * N; ++i) sig += ref[i] * ref[i], err += (c[i] - ref[i]) * (c[i] - ref[i]);
  EXPECT_GT(10 * std::log10(sig / err), 10.0) << "MXFP4 with RHT far from the FP32 product";
}

TEST(LinearGemms, KeptLayersAndFp32Rules) {
  const size_t M = 8, N = 8, K = 64;
  const auto A = data(M * K, 5, 1.0f), B = data(N * K, 6, 1.0f);
  Recipe r = all(fmt::Format::hif4);
  r.keep_layers = {"classifier"};  // keep.format unset: FP32
  std::vector<float> c(M * N), ref(M * N);
  LinearGemms g(r, 1, 1, true);
  g.begin_step(1);
  g.run(GemmKind::fprop, "classifier", A.data(), M, B.data(), N, K, c.data());
  fp32_gemm(A.data(), M, K, B.data(), N, ref.data(), 1);
  EXPECT_TRUE(same_bits(c, ref));
  EXPECT_TRUE(std::isinf(g.sqnr_db(GemmKind::fprop)));  // kept in FP32: no error recorded
  g.run(GemmKind::fprop, "layers.0.wq", A.data(), M, B.data(), N, K, c.data());
  EXPECT_FALSE(same_bits(c, ref));
  EXPECT_GT(g.sqnr_db(GemmKind::fprop), 10.0);
  EXPECT_LT(g.sqnr_db(GemmKind::fprop), 40.0);
}
