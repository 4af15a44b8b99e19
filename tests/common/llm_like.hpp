// LLM-like test operands, shared by the GEMM tests: a Gaussian bulk, a few outlier channels
// (x40, the activations' heavy columns) and a band of tiny values (x1e-4: underflow in the
// 4-bit formats), so that blocks see large scale gaps and zeros as in real traces.
#pragma once
#include <cmath>
#include <cstddef>
#include <vector>

#include "util/rng.hpp"

namespace hifsim::test {

inline std::vector<float> llm_like_floats(size_t rows, size_t cols, SplitMix64& r) {
  std::vector<float> x(rows * cols);
  for (size_t i = 0; i < x.size(); ++i) {
    const double u1 = r.uniform() + 1e-12, u2 = r.uniform();
    x[i] = static_cast<float>(std::sqrt(-2 * std::log(u1)) * std::cos(6.283185307179586 * u2));
    const size_t c = i % cols;
    if (c % 37 == 5) x[i] *= 40.0f;
    if (c % 11 == 3) x[i] *= 1e-4f;
  }
  return x;
}

}  // namespace hifsim::test
