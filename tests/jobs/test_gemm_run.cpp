// eval::run_gemm_staged, the plain `hifsim gemm` that holds A, then B, then C in one buffer
// (issue 27): the same bits as run_gemm for every format and shape, with the storage of each
// stage overwritten as soon as the engine has said it is done with it. Quantizing A after
// read_b, B after result(), or B with A's stochastic-rounding stream would change the bits.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "eval/gemm_run.hpp"
#include "util/gaussian.hpp"
#include "util/uninit_buffer.hpp"

using namespace hifsim;

namespace {

struct Case {
  fmt::Format format;
  size_t M, N, K;
  bool stochastic;
};

}  // namespace

TEST(GemmStaged, SameBitsAsRunGemmWithEachStageOverwritten) {
  const Case cases[] = {
      {fmt::Format::hif4, 70, 33, 192, false},    // B fits in A's storage, C in B's
      {fmt::Format::nvfp4, 20, 45, 128, false},   // B does not fit: a fresh buffer
      {fmt::Format::mxfp4, 37, 29, 100, true},    // K padded, stochastic rounding: A and B streams
      {fmt::Format::hif8, 25, 19, 70, true},
      {fmt::Format::bf16, 9, 40, 64, false},      // C larger than A's storage
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(fmt::format_info(c.format).name);
    const std::vector<float> a = gaussian(c.M * c.K, 1), b = gaussian(c.N * c.K, 2);
    dp::GemmSpec spec;
    spec.format = c.format;
    spec.threads = 2;
    if (c.stochastic) {
      spec.quant.rounding = fmt::Rounding::stochastic;
      spec.quant.seed = 11;
    }
    eval::GemmRequest r;
    r.spec = spec;
    r.A = {a.data(), c.M, c.K};
    r.B = {b.data(), c.N, c.K};
    const std::vector<float> want = eval::run_gemm(r).C;

    UninitBuffer<float> buf(a.begin(), a.end()), own;
    int stage = 0;
    float* C = nullptr;
    eval::run_gemm_staged(
        spec, {buf.data(), c.M, c.K},
        [&] {
          EXPECT_EQ(stage++, 0);
          if (buf.capacity() < b.size()) buf = UninitBuffer<float>(b.size());
          buf.assign(b.begin(), b.end());  // A is gone
          return eval::Matrix{buf.data(), c.N, c.K};
        },
        [&](size_t m, size_t n) {
          EXPECT_EQ(stage++, 1);
          UninitBuffer<float>& out = m * n <= buf.capacity() ? buf : own;
          out.assign(m * n, std::nanf(""));  // B is gone
          return C = out.data();
        });
    EXPECT_EQ(stage, 2);
    ASSERT_NE(C, nullptr);
    EXPECT_EQ(std::memcmp(C, want.data(), want.size() * sizeof(float)), 0);
  }
}
