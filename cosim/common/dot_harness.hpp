// The common main loop of the valid/ready unit harnesses (cosim/<unit>/main.cpp): a harness
// object supplies the stimulus, the golden model and the port mapping; run_harness() wires it
// to a StreamDriver (random input bubbles, random output back-pressure, in-order scoreboard),
// a VectorStream (the directed corners, then seeded random vectors, or one replay vector) and
// the waveform re-run of a failing vector.
//
// A Harness has:
//   void golden(const Vector&, uint32_t* expected)       the C++ model (+ coverage bins)
//   std::vector<Vector> corners()                        the directed vectors
//   Vector random(SplitMix64&)                           one seeded random vector
//   std::string describe(const Vector&)                  decoded vector + model stages
//   void hooks(typename StreamDriver<Model>::Hooks&)     set_inputs / get_outputs / idle inputs
//                                                        (and steps / set_inputs_step for sequences)
//
// Header-only: include it from a harness that links the Verilated --cc model library.
#pragma once
#include <cstdio>
#include <exception>
#include <functional>
#include <string>

#include "cosim.hpp"
#include "stream_driver.hpp"

namespace hifsim::cosim {

// The handshake knobs every stream harness accepts: --p-idle P, --p-stall P.
struct StreamKnobs {
  double p_idle = 0.15, p_stall = 0.25;
  // For parse_cli's `extra`: consumes --p-idle / --p-stall.
  bool parse(const std::string& f, const std::function<std::string()>& val) {
    if (f == "--p-idle") p_idle = std::stod(val());
    else if (f == "--p-stall") p_stall = std::stod(val());
    else return false;
    return true;
  }
  static const char* usage() {
    return "  --p-idle P          probability of an input bubble per cycle (default 0.15)\n"
           "  --p-stall P         probability of out_ready = 0 per cycle (default 0.25)\n";
  }
};

// `around_rerun(true)` / `(false)` is called before / after the waveform re-run of a failing
// vector (from reset), for harnesses whose golden model carries state across vectors.
template <class Model, class Harness>
int run_harness(Session& s, Harness& h, int out_words, const StreamKnobs& k,
                const std::function<void(bool)>& around_rerun = nullptr) {
  try {
    s.describe = [&](const Vector& v) { return h.describe(v); };
    typename StreamDriver<Model>::Hooks hooks;
    h.hooks(hooks);
    hooks.golden = [&](const Vector& v, uint32_t* out) { h.golden(v, out); };
    StreamDriver<Model> drv(s, hooks, out_words);
    drv.p_idle = k.p_idle;
    drv.p_stall = k.p_stall;
    s.rerun_with_waves = [&](const Vector& v, const std::string& path) {
      if (around_rerun) around_rerun(true);
      const bool again = drv.run_one_with_waves(v, path);
      if (around_rerun) around_rerun(false);
      return again;
    };
    VectorStream vs(s, h.corners(), [&](SplitMix64& r) { return h.random(r); });
    const std::string wave_path = run_wave_path(s.opt());
    Sim<Model> sim(wave_path);
    if (!wave_path.empty()) std::printf("waveform: %s\n", wave_path.c_str());
    drv.run(sim, vs);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cosim_%s: %s\n", s.opt().module.c_str(), e.what());
    return kExitUsage;
  }
  return s.finish();
}

// The random-source pick shared by the harnesses: --source NAME if given (the corner source
// maps to `fallback`), otherwise a draw from `weights` (one per source, corner's weight 0).
inline int pick_source(SplitMix64& r, const Session& s, const std::vector<int>& weights, int fallback) {
  const std::string& only = s.opt().only_source;
  if (!only.empty()) {
    const auto& names = s.sources();
    for (size_t i = 0; i < names.size(); ++i)
      if (names[i] == only) return (i == 0) ? fallback : static_cast<int>(i);
    return fallback;
  }
  int total = 0;
  for (int w : weights) total += w;
  int x = static_cast<int>(r.below(static_cast<uint64_t>(total)));
  for (size_t i = 0; i < weights.size(); ++i) {
    if (x < weights[i]) return static_cast<int>(i);
    x -= weights[i];
  }
  return fallback;
}

// FP32 output fields for a layout: <prefix>sign / exponent / mantissa of output word `word`.
inline void add_fp32_fields(std::vector<Field>& layout, const std::string& prefix, int word) {
  const int b = 32 * word;
  layout.push_back({prefix + "sign", b + 31, b + 31});
  layout.push_back({prefix + "exponent", b + 30, b + 23});
  layout.push_back({prefix + "mantissa", b + 22, b});
}

}  // namespace hifsim::cosim
