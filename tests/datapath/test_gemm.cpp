// The GEMM engine: equal to the sequential composition of unit results, bit-identical across
// kernels (reference, portable, AVX2) and thread counts, K padding, NVFP4 epilogue.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "common/llm_like.hpp"
#include "formats/bits.hpp"
#include "gemm/gemm.hpp"
#include "util/rng.hpp"

using namespace hifsim;
using namespace hifsim::dp;
using fmt::Format;

namespace {
std::vector<float> activations(size_t rows, size_t cols, uint64_t seed) {
  SplitMix64 r(seed);
  return test::llm_like_floats(rows, cols, r);
}

std::vector<uint32_t> bits(const std::vector<float>& v) {
  std::vector<uint32_t> b(v.size());
  for (size_t i = 0; i < v.size(); ++i) b[i] = fmt::f32_bits(v[i]);
  return b;
}

const Format kAll[] = {Format::hif4, Format::nvfp4, Format::mxfp4, Format::mxfp8_e4m3, Format::mxfp8_e5m2,
                       Format::hif8, Format::bf16, Format::fp8_e4m3, Format::fp8_e5m2};
}  // namespace

TEST(Gemm, EqualsSequentialCompositionOfUnitResults) {
  const size_t M = 5, N = 11, K = 200;  // K not a multiple of any block
  const auto A = activations(M, K, 1), B = activations(N, K, 2);
  for (Format f : kAll) {
    for (const char* acc : {"fp32", "fp32-m10-rz", "kulisch"}) {
      GemmSpec s;
      s.format = f;
      s.acc = AccSpec::parse(acc);
      const auto qa = quantize_operand(A.data(), M, K, s), qb = quantize_operand(B.data(), N, K, s);
      const auto C = gemm_quantized(qa, qb, s);
      const size_t nblk = qa.padded_cols / dot_width(s);
      for (size_t m = 0; m < M; ++m) {
        for (size_t n = 0; n < N; ++n) {
          Accumulator a(s.acc);
          a.reset(0.0f);
          for (size_t b = 0; b < nblk; ++b) a.add(unit_dot(qa, m, qb, n, b, s));
          ASSERT_EQ(fmt::f32_bits(C[m * N + n]), fmt::f32_bits(epilogue(a.result(), qa, qb)))
              << fmt::format_info(f).name << " " << acc << " m=" << m << " n=" << n;
        }
      }
    }
  }
}

TEST(Gemm, KernelsAndThreadCountsAreBitIdentical) {
  const size_t M = 19, N = 37, K = 640;
  const auto A = activations(M, K, 3), B = activations(N, K, 4);
  for (Format f : {Format::hif4, Format::nvfp4, Format::mxfp4}) {
    for (const char* acc : {"fp32", "fp32-m13-rne"}) {
      GemmSpec s;
      s.format = f;
      s.acc = AccSpec::parse(acc);
      s.kernel = GemmKernel::reference;
      s.threads = 1;
      const auto want = bits(gemm(A.data(), M, K, B.data(), N, s));
      for (GemmKernel k : {GemmKernel::portable, GemmKernel::automatic}) {
        for (unsigned t : {1u, 2u, 3u, 8u}) {
          s.kernel = k;
          s.threads = t;
          EXPECT_EQ(bits(gemm(A.data(), M, K, B.data(), N, s)), want)
              << fmt::format_info(f).name << " " << acc << " kernel " << resolved_kernel(s) << " threads " << t;
        }
      }
    }
  }
}


TEST(Gemm, HandlesNaNScalesAndZeroPadding) {
  // A NaN scale makes exactly its row's outputs NaN (canonical); padding adds nothing.
  const size_t M = 3, N = 9, K = 70;
  auto A = activations(M, K, 5), B = activations(N, K, 6);
  GemmSpec s;
  s.format = Format::hif4;
  auto qa = quantize_operand(A.data(), M, K, s);
  const auto qb = quantize_operand(B.data(), N, K, s);
  EXPECT_EQ(qa.padded_cols, 128u);
  qa.scales[1 * qa.blocks_per_row() + 0] = 0xFF;
  for (GemmKernel k : {GemmKernel::reference, GemmKernel::automatic}) {
    s.kernel = k;
    const auto C = gemm_quantized(qa, qb, s);
    for (size_t n = 0; n < N; ++n) {
      EXPECT_EQ(fmt::f32_bits(C[1 * N + n]), 0x7FC00000u);
      EXPECT_FALSE(std::isnan(C[0 * N + n]));
    }
  }
  // Zero-padding K to the dot width gives the same result as explicit zero columns.
  std::vector<float> A2(M * 128, 0.0f), B2(N * 128, 0.0f);
  for (size_t m = 0; m < M; ++m)
    for (size_t k = 0; k < K; ++k) A2[m * 128 + k] = A[m * K + k];
  for (size_t n = 0; n < N; ++n)
    for (size_t k = 0; k < K; ++k) B2[n * 128 + k] = B[n * K + k];
  s.kernel = GemmKernel::automatic;
  EXPECT_EQ(bits(gemm(A.data(), M, K, B.data(), N, s)), bits(gemm(A2.data(), M, 128, B2.data(), N, s)));
}

TEST(Gemm, Nvfp4AppliesTensorScalesOnceAfterAccumulation) {
  const size_t M = 2, N = 3, K = 64;
  const auto A = activations(M, K, 7), B = activations(N, K, 8);
  GemmSpec s;
  s.format = Format::nvfp4;
  const auto qa = quantize_operand(A.data(), M, K, s), qb = quantize_operand(B.data(), N, K, s);
  ASSERT_NE(qa.tensor_scale, 1.0f);
  const auto C = gemm_quantized(qa, qb, s);
  const float alpha = qa.tensor_scale * qb.tensor_scale;
  for (size_t m = 0; m < M; ++m)
    for (size_t n = 0; n < N; ++n) EXPECT_EQ(C[m * N + n], unit_dot(qa, m, qb, n, 0, s).value * alpha);
}

TEST(Gemm, RejectsBadSpecs) {
  GemmSpec s;
  s.format = Format::hif8;
  s.hif8_lanes = 48;
  EXPECT_THROW(validate(s), std::runtime_error);
  s.hif8_lanes = 32;
  s.align = {121, AlignPolicy::trunc};
  s.align_set = true;
  EXPECT_THROW(validate(s), std::runtime_error);
  s.align = {40, AlignPolicy::trunc};
  EXPECT_NO_THROW(validate(s));
}

TEST(Gemm, FloatElementKernelsMatchReferenceAcrossWindowsAndSpecials) {
  const size_t M = 6, N = 10, K = 192;
  auto A = activations(M, K, 9), B = activations(N, K, 10);
  // Wide dynamic range in some rows, and non-finite values in one row of A.
  for (size_t k = 0; k < K; ++k) A[1 * K + k] *= std::ldexp(1.0f, static_cast<int>(k % 40) - 20);
  A[2 * K + 5] = HUGE_VALF;
  A[3 * K + 70] = std::nanf("");
  struct Case {
    Format f;
    int width;
    AlignPolicy pol;
  };
  const Case cases[] = {{Format::hif8, 0, AlignPolicy::trunc},      {Format::hif8, 16, AlignPolicy::sticky},
                        {Format::hif8, 30, AlignPolicy::trunc},     {Format::bf16, 0, AlignPolicy::trunc},
                        {Format::bf16, 26, AlignPolicy::trunc},     {Format::bf16, 64, AlignPolicy::sticky},
                        {Format::mxfp8_e4m3, 0, AlignPolicy::trunc}, {Format::mxfp8_e5m2, 0, AlignPolicy::trunc},
                        {Format::fp8_e4m3, 0, AlignPolicy::trunc},  {Format::fp8_e5m2, 0, AlignPolicy::trunc}};
  for (const Case& c : cases) {
    for (const char* acc : {"fp32", "kulisch"}) {
      GemmSpec s;
      s.format = c.f;
      s.acc = AccSpec::parse(acc);
      if (c.f == Format::hif8 || c.f == Format::bf16) {
        s.align = {c.width, c.pol};
        s.align_set = true;
      }
      s.hif8_lanes = 32;
      s.kernel = GemmKernel::reference;
      const auto want = bits(gemm(A.data(), M, K, B.data(), N, s));
      s.kernel = GemmKernel::automatic;
      for (unsigned t : {1u, 3u}) {
        s.threads = t;
        EXPECT_EQ(bits(gemm(A.data(), M, K, B.data(), N, s)), want)
            << fmt::format_info(c.f).name << " W=" << c.width << " " << acc << " threads " << t;
      }
    }
  }
}
