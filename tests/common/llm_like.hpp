// LLM-like test operands, shared by the GEMM tests: a Gaussian bulk, a few outlier channels
// (x40, the activations' heavy columns) and a band of tiny values (x1e-4: underflow in the
// 4-bit formats), so that blocks see large scale gaps and zeros as in real traces.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "util/gaussian.hpp"

namespace hifsim::test {

// The test operands below are built from util/gaussian.hpp's draws (bench_gemm uses them too).
using ::hifsim::gaussian;
using ::hifsim::normal_draw;

inline std::vector<float> llm_like_floats(size_t rows, size_t cols, SplitMix64& r) {
  std::vector<float> x(rows * cols);
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = normal_draw(r);
    const size_t c = i % cols;
    if (c % 37 == 5) x[i] *= 40.0f;
    if (c % 11 == 3) x[i] *= 1e-4f;
  }
  return x;
}

}  // namespace hifsim::test
