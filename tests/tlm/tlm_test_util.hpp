// Helpers shared by the tlm tests: small configs from YAML text, random operands.
#pragma once
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "config/unit_config.hpp"
#include "util/rng.hpp"

namespace hifsim::test {

// A 2 x 2 HiF4 unit with easy numbers: memory 36 B/cycle (one HiF4 unit per beat), latency 10,
// pipeline depth 3, drain width 2 (so a pass drains in ceil(4/2) = 2 cycles), roomy buffers.
inline std::string tiny_yaml() {
  return R"(schema: hifsim-unit/1
name: tiny
pe: {format: hif4, pipeline_depth: 3}
array: {rows: 2, cols: 2, dataflow: os, drain_width: 2}
buffers:
  a: {bytes: 8192}
  b: {bytes: 8192}
  acc: {bytes: 4096}
dma: {burst_bytes: 4096, outstanding: 16}
memory: {bytes_per_cycle: 36, latency: 10}
)";
}

inline cfg::UnitConfig tiny(const std::vector<std::string>& overrides = {}) {
  return cfg::unit_config_from_string(tiny_yaml(), "tiny.yaml", overrides);
}

// A small unit of any format for value tests: 4 x 4 PEs, small buffers so GEMMs of a few hundred
// elements split into several M, N and K tiles.
inline cfg::UnitConfig small_unit(const std::string& format, const std::vector<std::string>& overrides = {}) {
  const std::string y = "schema: hifsim-unit/1\nname: small-" + format + "\npe: {format: " + format +
                        "}\narray: {rows: 4, cols: 4}\nbuffers:\n  a: {bytes: 16KiB}\n  b: {bytes: 16KiB}\n"
                        "  acc: {bytes: 2KiB}\nmemory: {bytes_per_cycle: 64, latency: 20}\n";
  return cfg::unit_config_from_string(y, "small-" + format + ".yaml", overrides);
}

inline std::vector<float> random_values(size_t n, uint64_t seed, bool specials = false) {
  std::vector<float> x(n);
  SplitMix64 r(seed);
  for (auto& v : x) {
    const double u = r.uniform() * 2 - 1;
    // Wide dynamic range: mantissa noise times 2^[-6, 6].
    v = static_cast<float>(u * std::ldexp(1.0, static_cast<int>(r.below(13)) - 6));
  }
  if (specials && n > 8) {
    x[3] = INFINITY;
    x[n / 2] = -INFINITY;
    x[n - 2] = NAN;
  }
  return x;
}

inline bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

}  // namespace hifsim::test
