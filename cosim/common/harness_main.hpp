// The main() of every Verilated harness, cosim_<module> (docs/cosim.md): one generator, one
// checker, a subject, as in berkeley-testfloat-3. The unit's bench (model/verif/<unit>_bench.cpp)
// is the generator and the checker; the subject is one of the unit's Verilated models:
//
//   main    the regression model (quick and long levels)
//   sweep   (--sweep) every other STAGES value and parameter set of the unit, in groups run one
//           after the other through the top's `sel` port, each against its own declared latency
//   mutant  (--mutant) the main model built from a mutated RTL copy (scripts/mutate_rtl.py):
//           the regression must catch it
//
// harness_main() parses the command line, reads the model's parameter sets from its cosim top
// (read_layout), opens the Session, makes the bench and runs every group through the driver
// (StreamDriver for valid/ready units, StepDriver for fp32_acc), then prints the summary.
//
// What a unit's main.cpp supplies is its HarnessSpec (the bench's name, how its RTL parameters
// are read from the cfg words, the vector counts) and its models. The valid/ready units share one
// cosim top (cosim/common/cosim_top.sv) whose `in` / `out` ports hold the bench's words as they
// are, so one BusPorts drives them all (fp32_acc's own top has the same ports; its Ports derives
// from BusPorts for other idle inputs). A Ports has:
//   template <class M> static void set(M&, const uint32_t* w) drive one transaction's words
//   template <class M> static void get(const M&, uint32_t* out, size_t words)   read the outputs
//   template <class M> static void idle(M&, SplitMix64&)      junk on the data inputs (the unit
//                                                             must ignore it); all controls off
//
// Header-only: include it from a harness that links the Verilated --cc model library.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cosim.hpp"
#include "sim_model.hpp"
#include "step_driver.hpp"
#include "verif/stimulus.hpp"
#include "stream_driver.hpp"
#include "verif/bench.hpp"
#include "verif/conformance.hpp"

namespace hifsim::cosim {

// The handshake knobs every stream harness accepts: --p-idle P, --p-stall P.
struct StreamKnobs {
  double p_idle = 0.15, p_stall = 0.25;
  int junk_cycles = 0;  // from the HarnessSpec, not the command line
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

// A group's outputs as the harness prints and checks them.
struct HarnessOutput {
  std::string banner;         // the line printed before the group runs (without the newline)
  std::vector<Field> layout;  // the output fields, for "first differing field"
  int words = 0;              // output words per transaction
};

// An RTL parameter of the unit's instances, read from their cfg words (the cosim top writes them):
// `width` bits at `lsb` of the instance's parameter word, or, with no bits ({"STAGES"}), the
// instance's STAGES field.
struct CfgParam {
  const char* name;
  int lsb = 0, width = 0;
};

struct HarnessSpec {
  const char* module;                // the unit: its bench (verif::make_bench) and its executable
  std::vector<CfgParam> params;      // its RTL parameters, in the bench's order
  uint64_t quick_count, long_count;  // vectors per group of the main and mutant models
  uint64_t sweep_count;              // vectors per group of the sweep model at the quick level
  int junk_cycles = 0;               // junk transactions before the stream's reset (StreamDriver)
};

// The bench's parameter sets of the instances `inst`.
inline std::vector<verif::Params> cfg_params(const std::vector<Instance>& inst, const std::vector<CfgParam>& params) {
  std::vector<verif::Params> p;
  for (const Instance& i : inst) {
    verif::Params one;
    for (const CfgParam& c : params)
      one.emplace_back(c.name, c.width == 0 ? i.stages : static_cast<int>((i.params >> c.lsb) & ((1u << c.width) - 1)));
    p.push_back(one);
  }
  return p;
}

// The ports of cosim/common/cosim_top.sv: word k of a transaction is in[32k +: 32], output word k
// is out[32k +: 32].
struct BusPorts {
  template <class M>
  static void set(M& m, const uint32_t* w) {
    for (size_t k = 0; k < port_words(m.in); ++k) m.in[k] = w[k];
  }
  template <class M>
  static void get(const M& m, uint32_t* out, size_t n) {
    for (size_t k = 0; k < n; ++k) out[k] = port_word(m.out, k);
  }
  template <class M>
  static void idle(M& m, SplitMix64& r) {
    for (size_t k = 0; k < port_words(m.in); ++k) m.in[k] = r.next32();
  }
};

// A model the harness does not have (no sweep or no mutant model built).
struct NoModel {};

}  // namespace hifsim::cosim

// The unit's mutant model, when the build made one (cosim/CMakeLists.txt defines its header and
// class name for the harness of the unit): harnesses pass MutantModel to harness_main.
#ifdef HIFSIM_MUTANT_HEADER
#include HIFSIM_MUTANT_HEADER
namespace hifsim::cosim {
using MutantModel = ::HIFSIM_MUTANT_MODEL;
}  // namespace hifsim::cosim
#else
namespace hifsim::cosim {
using MutantModel = NoModel;
}  // namespace hifsim::cosim
#endif

namespace hifsim::cosim {

// The harness of a unit: its bench (generator, golden model, coverage) and its Ports.
template <class Ports>
class BenchHarness {
 public:
  BenchHarness(Session& s, const HarnessSpec& spec, const std::vector<Instance>& inst, const std::string& npy)
      : bench_(verif::make_bench(spec.module, cfg_params(inst, spec.params),
                                 verif::BenchContext{&s.cov(), s.opt().only_source}, npy)) {}
  verif::Bench& bench() { return *bench_; }

  // The group's outputs as the scoreboard names them; FP32 fields split into sign / exponent /
  // mantissa.
  HarnessOutput output(const std::string& banner) const {
    HarnessOutput out{banner, {}, bench_->out_words()};
    for (const verif::PortField& f : bench_->outputs()) {
      const std::string p = f.name == "out" ? "" : f.name + ".";
      if (f.what == "FP32") {
        out.layout.push_back({p + "sign", f.lsb + 31, f.lsb + 31});
        out.layout.push_back({p + "exponent", f.lsb + 30, f.lsb + 23});
        out.layout.push_back({p + "mantissa", f.lsb + 22, f.lsb});
      } else {
        out.layout.push_back({f.name, f.lsb + f.width - 1, f.lsb});
      }
    }
    return out;
  }

  // With BusPorts the model's `in` and `out` must hold exactly the bench's words (a unit numbered
  // wrongly in cosim/CMakeLists.txt would not).
  template <class M>
  void check_ports(const M& m) const {
    if constexpr (std::is_base_of<BusPorts, Ports>::value) {
      int bits = 0;
      for (const verif::PortField& f : bench_->inputs()) bits = std::max(bits, f.lsb + f.width);
      if (port_words(m.in) != static_cast<size_t>((bits + 31) / 32) ||
          port_words(m.out) != static_cast<size_t>(bench_->out_words()))
        throw std::runtime_error("the model's in / out ports are not the bench's words (cosim_top's UNIT?)");
    } else {
      (void)m;
    }
  }

  template <class M>
  void hooks(DriverHooks<M>& h) {
    const size_t nout = static_cast<size_t>(bench_->out_words());
    verif::Bench* b = bench_.get();
    h.golden = [b](const Vector& v, uint32_t* out) { b->golden(v, out); };
    h.get_outputs = [nout](const M& m, uint32_t* out) { Ports::get(m, out, nout); };
    h.set_idle_inputs = [](M& m, SplitMix64& r) { Ports::idle(m, r); };
    h.set_reset_inputs = [](M& m) {
      SplitMix64 r(0);
      Ports::idle(m, r);
    };
    h.set_inputs = [](M& m, const Vector& v) { Ports::set(m, v.w.data()); };
    h.handshake = [b] { return b->handshake(); };
    if (b->sequential()) {
      // A sequence: its transactions are consecutive equal slices of the vector's words.
      h.steps = [b](const Vector& v) { return b->steps(v); };
      h.set_inputs_step = [b](M& m, const Vector& v, int step) {
        Ports::set(m, v.w.data() + static_cast<size_t>(step) * (v.w.size() / static_cast<size_t>(b->steps(v))));
      };
    }
  }

 private:
  std::unique_ptr<verif::Bench> bench_;
};

// Runs the vector stream of one group of `Model` through `Driver`; false if an exception ended it
// (printed).
template <class Model, template <class> class Driver, class Harness>
bool run_group(Session& s, Harness& h, int group, int latency, const StreamKnobs& k) {
  try {
    verif::Bench& b = h.bench();
    s.describe = [&b](const Vector& v) { return b.describe(v); };
    DriverHooks<Model> hooks;
    h.hooks(hooks);
    Driver<Model> drv(s, hooks, b.out_words(), latency);
    drv.group = group;
    if constexpr (std::is_same<Driver<Model>, StreamDriver<Model>>::value) {
      drv.p_idle = k.p_idle;
      drv.p_stall = k.p_stall;
      drv.junk_cycles = k.junk_cycles;
    }
    s.rerun_with_waves = [&](const Vector& v, const std::string& path) {
      b.around_rerun(true);
      const bool again = drv.run_one_with_waves(v, path);
      b.around_rerun(false);
      return again;
    };
    VectorStream vs(s, b.corners(), [&b](SplitMix64& r, Vector& v) { b.random_into(r, v); });
    const std::string wave_path = run_wave_path(s.opt(), group);
    Sim<Model> sim(wave_path);
    h.check_ports(*sim.m);
    if (!wave_path.empty()) std::printf("waveform: %s\n", wave_path.c_str());
    drv.run(sim, vs);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cosim_%s: %s\n", s.opt().module.c_str(), e.what());
    return false;
  }
  return true;
}

// Runs the regression on `Model` (one of the harness's models): every group of its cosim top
// (or the one of --group / of the replay file).
template <class Ports, template <class> class Driver, class Model>
int run_model(const Options& o, const StreamKnobs& k, const HarnessSpec& spec) {
  ModelLayout layout;
  try {
    layout = read_layout<Model>();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cosim_%s: %s\n", spec.module, e.what());
    return kExitUsage;
  }
  if (o.group >= layout.groups) {
    std::fprintf(stderr, "cosim_%s: --group %d: the %s model has groups 0..%d\n", spec.module, o.group, o.model.c_str(),
                 layout.groups - 1);
    return kExitUsage;
  }
  const int g0 = o.group >= 0 ? o.group : 0, g1 = o.group >= 0 ? o.group : layout.groups - 1;
  const uint64_t level = o.level == Level::quick ? (o.model == "sweep" ? spec.sweep_count : spec.quick_count) : spec.long_count;
  std::unique_ptr<BenchHarness<Ports>> h;
  std::unique_ptr<Session> s;
  try {
    verif::Coverage scratch;  // a bench only to learn its source names (--source is checked against them)
    const std::vector<std::string> sources =
        verif::make_bench(spec.module, cfg_params(layout.inst, spec.params), verif::BenchContext{&scratch, "corner"},
                          "")->sources();
    s.reset(new Session(o, sources, {}, 0));
    h.reset(new BenchHarness<Ports>(*s, spec, layout.inst, o.npy.empty() ? stim::default_npy() : o.npy));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cosim_%s: %s\n", spec.module, e.what());
    return kExitUsage;
  }
  for (int g = g0; g <= g1 && !s->stop(); ++g) {
    const int stages = layout.group(g)[0].stages;
    h->bench().set_active(layout.first(g), static_cast<size_t>(layout.per_group));
    const std::string names = h->bench().active_names();
    const HarnessOutput out = h->output(std::string(spec.module) + ": Verilated " + o.model + " model, group " +
                                        std::to_string(g) + ": STAGES=" + std::to_string(stages) +
                                        (names.empty() ? "" : ", " + names));
    std::printf("%s\n", out.banner.c_str());
    s->set_group(g, out.banner);
    s->set_output(out.layout, out.words);
    s->set_count(o.count ? o.count : level);
    StreamKnobs kg = k;
    kg.junk_cycles = spec.junk_cycles;
    if (!run_group<Model, Driver>(*s, *h, g, stages, kg)) return kExitUsage;
  }
  return s->finish();
}

// The whole main() of a harness: the unit's models (NoModel where it has none) and its Ports.
template <template <class> class Driver, class Main, class Sweep, class Mutant = MutantModel, class Ports = BusPorts>
int harness_main(int argc, char** argv, const HarnessSpec& spec) {
  StreamKnobs k;
  const bool stream = std::is_same<Driver<Main>, StreamDriver<Main>>::value;
  Options o = parse_cli(argc, argv, spec.module, stream ? StreamKnobs::usage() : "",
                        [&](const std::string& f, const std::function<std::string()>& val) { return stream && k.parse(f, val); });
  if (!o.replay.empty()) {
    try {
      read_replay_target(o.replay, o.model, o.group);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "cosim_%s: %s\n", spec.module, e.what());
      return kExitUsage;
    }
  }
  if (o.model == "main") return run_model<Ports, Driver, Main>(o, k, spec);
  if (o.model == "sweep") {
    if constexpr (!std::is_same<Sweep, NoModel>::value) return run_model<Ports, Driver, Sweep>(o, k, spec);
  } else if constexpr (!std::is_same<Mutant, NoModel>::value) {
    return run_model<Ports, Driver, Mutant>(o, k, spec);
  }
  std::fprintf(stderr, "cosim_%s: no %s model is built for this unit (cosim/CMakeLists.txt)\n", spec.module, o.model.c_str());
  return kExitUsage;
}

}  // namespace hifsim::cosim
