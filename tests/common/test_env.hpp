// Test environment knobs shared by every C++ test (TestFloat style: one documented default,
// overridable, printed on failure).
//   HIFSIM_TEST_SEED   seed of the random stimulus (default 20261129)
//   HIFSIM_TEST_SCALE  factor on random case counts (default 1; 0.05 under AddressSanitizer)
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace hifsim::test {

inline uint64_t test_seed() {
  const char* s = std::getenv("HIFSIM_TEST_SEED");
  return s ? std::strtoull(s, nullptr, 0) : 20261129ull;
}
inline std::string seed_note() {
  return "seed " + std::to_string(test_seed()) + " (set HIFSIM_TEST_SEED to reproduce or vary)";
}
inline double test_scale() {
  if (const char* s = std::getenv("HIFSIM_TEST_SCALE")) return std::atof(s);
#if defined(__SANITIZE_ADDRESS__)
  return 0.05;
#else
  return 1.0;
#endif
}
// n scaled, never below `floor` cases.
inline size_t scaled(size_t n, size_t floor = 1000) {
  return std::max<size_t>(floor, static_cast<size_t>(static_cast<double>(n) * test_scale()));
}

}  // namespace hifsim::test
