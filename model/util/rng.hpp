// Counter-based random numbers: the value for (seed, stream, index) depends on nothing
// else, so results are identical whatever the thread count or iteration order.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace hifsim {

// SplitMix64 finaliser: a bijective 64-bit mixer with full avalanche.
inline uint64_t mix64(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Random 64-bit word number `index` of stream `stream` under `seed`.
inline uint64_t counter_random(uint64_t seed, uint64_t stream, uint64_t index) {
  return mix64(mix64(seed ^ mix64(stream + 0x51ED2701u)) + index);
}

// A small sequential generator (SplitMix64) for stimulus and test data.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() { return mix64(state_++ * 0x9E3779B97F4A7C15ull); }
  uint32_t next32() { return static_cast<uint32_t>(next() >> 32); }
  // Uniform in [0, n) for n > 0 (multiply-shift; bias < 2^-32 for n < 2^32).
  uint64_t below(uint64_t n) { return static_cast<uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64); }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t state_;
};

// n standard normal values drawn from g: Box-Muller, one pair of uniforms giving two values
// (cos, sin). Seeded operands of the run and cost commands.
inline std::vector<float> normal_values(size_t n, SplitMix64 g) {
  std::vector<float> x(n);
  for (size_t i = 0; i < n; i += 2) {
    const double u1 = std::max(g.uniform(), 1e-300), u2 = g.uniform();
    const double rad = std::sqrt(-2.0 * std::log(u1));
    x[i] = static_cast<float>(rad * std::cos(6.283185307179586 * u2));
    if (i + 1 < n) x[i + 1] = static_cast<float>(rad * std::sin(6.283185307179586 * u2));
  }
  return x;
}

}  // namespace hifsim
