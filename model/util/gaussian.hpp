// Standard normal values for generated test and benchmark operands (the GEMM benchmark, the GEMM
// and residual tests): one stream, drawn one value per two uniforms.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "util/rng.hpp"

namespace hifsim {

// One standard normal value from two uniforms of r (Box-Muller, the cosine branch only; the
// 1e-12 keeps log away from 0). rng.hpp's normal_values (both branches) is another stream.
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

}  // namespace hifsim
