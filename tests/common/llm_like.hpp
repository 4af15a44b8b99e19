// LLM-like test operands, shared by the GEMM tests: a Gaussian bulk, a few outlier channels
// (x40, the activations' heavy columns) and a band of tiny values (x1e-4: underflow in the
// 4-bit formats), so that blocks see large scale gaps and zeros as in real traces.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "util/rng.hpp"

namespace hifsim::test {

// One standard normal value from two uniforms of r (Box-Muller, the cosine branch only; the
// 1e-12 keeps log away from 0). The test operands below are built from it.
inline float normal_draw(SplitMix64& r) {
  const double u1 = r.uniform() + 1e-12, u2 = r.uniform();
  return static_cast<float>(std::sqrt(-2 * std::log(u1)) * std::cos(6.283185307179586 * u2));
}

// n standard normal values of the generator seeded with seed.
inline std::vector<float> gaussian(size_t n, uint64_t seed) {
  SplitMix64 r(seed);
  std::vector<float> x(n);
  for (auto& v : x) v = normal_draw(r);
  return x;
}

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
