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
//   optional: void around_rerun(bool entering)           see harness_main
// harness_main() is a harness's whole main(): the command line, the banner, the Session and the
// Harness construction around run_harness(). Below it, helpers the harnesses share: the
// shaped / tensor value blocks, coverage bins of FP32 results and IEEE special cases, and
// pieces of describe().
//
// Header-only: include it from a harness that links the Verilated --cc model library.
#pragma once
#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cosim.hpp"
#include "datapath/aligned_dot.hpp"
#include "datapath/element.hpp"
#include "datapath/exact.hpp"
#include "formats/bits.hpp"
#include "stimulus.hpp"
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

// ---- main() ----

// A unit's outputs as harness_main prints and checks them.
struct HarnessOutput {
  std::string banner;         // the first line printed (without the newline)
  std::vector<Field> layout;  // the output fields, for "first differing field"
  int words = 0;              // output words per transaction
};

// One FP32 result per prefix: word i has the fields <prefixes[i]>sign / exponent / mantissa.
inline HarnessOutput fp32_output(const std::string& banner, const std::vector<std::string>& prefixes) {
  HarnessOutput out{banner, {}, static_cast<int>(prefixes.size())};
  for (size_t i = 0; i < prefixes.size(); ++i) add_fp32_fields(out.layout, prefixes[i], static_cast<int>(i));
  return out;
}

// " <name 0> <name 1> ...": the parameter sets (anything with name()) for a banner.
template <class Variant>
std::string variant_names(const std::vector<Variant>& vars) {
  std::string s;
  for (const Variant& v : vars) s += " " + v.name();
  return s;
}

// One FP32 result per parameter set: the banner followed by the set names; fields
// v<i>(<name>).sign / exponent / mantissa.
template <class Variant>
HarnessOutput fp32_variant_output(const std::string& banner, const std::vector<Variant>& vars) {
  std::vector<std::string> prefixes;
  for (size_t i = 0; i < vars.size(); ++i) prefixes.push_back("v" + std::to_string(i) + "(" + vars[i].name() + ").");
  return fp32_output(banner + variant_names(vars), prefixes);
}

// The codes a cosim top with parameter sets side by side drives on its constant cfg port:
// `count(model)` sets, set i's code at bits [bits * i, bits * (i + 1)). Read from a model
// evaluated once (before the regression's own model is built).
template <class Model, class Count>
std::vector<uint32_t> read_cfg_codes(int bits, Count count) {
  Sim<Model> sim;
  sim.m->eval();
  const size_t n = count(*sim.m);
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  std::vector<uint32_t> codes;
  for (size_t i = 0; i < n; ++i)
    codes.push_back(static_cast<uint32_t>((static_cast<uint64_t>(sim.m->cfg) >> (bits * i)) & mask));
  return codes;
}

// Whether a Harness has around_rerun(bool).
template <class H, class = void>
struct HasAroundRerun : std::false_type {};
template <class H>
struct HasAroundRerun<H, std::void_t<decltype(std::declval<H&>().around_rerun(true))>> : std::true_type {};

// The main() of a valid/ready harness, cosim_<module>:
//   - parses the common options (parse_cli) and --p-idle / --p-stall (StreamKnobs);
//   - calls output() and prints its banner (a harness that reads its parameter sets from the
//     model does that in output(), so --help and option errors never build a model);
//   - opens the Session (`sources`, output()'s layout and words; with no --count, quick_count or
//     long_count vectors for --level quick / long);
//   - constructs Harness(session, args..., npy), npy = --npy or stim::default_npy(); an exception
//     there (e.g. an unreadable tensor) prints "cosim_<module>: <what>" and returns kExitUsage;
//   - runs it (run_harness); a Harness with around_rerun(bool entering) has it called before /
//     after the waveform re-run of a failing vector (for a golden model with state across vectors).
// `args` are references: output() may still fill them (they are read after it returns).
template <class Model, class Harness, class Output, class... Args>
int harness_main(int argc, char** argv, const char* module, const std::vector<std::string>& sources,
                 uint64_t quick_count, uint64_t long_count, Output output, const Args&... args) {
  StreamKnobs k;
  const Options o = parse_cli(argc, argv, module, StreamKnobs::usage(),
                              [&](const std::string& f, const std::function<std::string()>& val) { return k.parse(f, val); });
  const HarnessOutput out = output();
  std::printf("%s\n", out.banner.c_str());
  Session s(o, sources, out.layout, out.words);
  s.set_count(o.count ? o.count : (o.level == Level::quick ? quick_count : long_count));
  std::unique_ptr<Harness> h;
  try {
    h.reset(new Harness(s, args..., o.npy.empty() ? stim::default_npy() : o.npy));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cosim_%s: %s\n", module, e.what());
    return kExitUsage;
  }
  std::function<void(bool)> around_rerun;
  if constexpr (HasAroundRerun<Harness>::value) around_rerun = [&h](bool entering) { h->around_rerun(entering); };
  return run_harness<Model>(s, *h, out.words, k, around_rerun);
}

// ---- ports ----

// The packed operand ports a[0..n) and b[0..n) (32-bit words) from words 0..n-1 and n..2n-1 of
// the vector.
template <class Model>
void set_ab_words(Model& m, const Vector& v, int n) {
  for (int i = 0; i < n; ++i) {
    m.a[i] = v.w[static_cast<size_t>(i)];
    m.b[i] = v.w[static_cast<size_t>(n + i)];
  }
}

// Random words on a[0..n) and b[0..n) (idle inputs), drawn a[i], b[i], a[i + 1], ...
template <class Model>
void set_ab_random(Model& m, SplitMix64& r, int n) {
  for (int i = 0; i < n; ++i) {
    m.a[i] = r.next32();
    m.b[i] = r.next32();
  }
}

// ---- stimulus ----

// The value blocks of the shaped and tensor sources: stim::shaped_block, or blocks of the .npy
// tensor. The tensor is read (in the constructor; it throws if it cannot be) only when the
// tensor source can be drawn: no --source, or --source tensor.
class ValueBlocks {
 public:
  ValueBlocks(const Session& s, const std::string& npy) {
    if (s.opt().only_source.empty() || s.opt().only_source == "tensor") tensor_.reset(new stim::NpyBlocks(npy));
  }
  // n values: a shaped block if `shaped`, else a tensor block.
  void fill(SplitMix64& r, bool shaped, float* x, int n) const {
    if (shaped) stim::shaped_block(r, x, n);
    else tensor_->block(r, x, n);
  }

 private:
  std::unique_ptr<stim::NpyBlocks> tensor_;
};

// ---- coverage ----

// The result and rounding bins of one FP32 output, from its exact value
// (stim::classify_fp32_round), declared in this order with a prefix:
//   result.zero, result.zero_cancellation, result.positive, result.negative,
//   [range] result.subnormal, result.overflow_inf, result.underflow_to_zero,
//           result.underflow_to_neg_zero,
//   round.exact, [rounding] round.inexact, round.tie_to_even_down, round.tie_to_even_up,
//           round.carry_into_exponent.
// Leave out `range` for results that never leave the normal range, `rounding` for sums that
// always fit 24 bits; a bin not declared (-1) is never hit.
struct Fp32ResultBins {
  int zero = -1, cancel = -1, pos = -1, neg = -1, sub = -1, ovf = -1, uz = -1, unz = -1;
  int exact = -1, inexact = -1, tie_down = -1, tie_up = -1, carry = -1;

  void declare(Coverage& c, const std::string& prefix, bool range = true, bool rounding = true) {
    zero = c.declare(prefix + "result.zero");
    cancel = c.declare(prefix + "result.zero_cancellation");
    pos = c.declare(prefix + "result.positive");
    neg = c.declare(prefix + "result.negative");
    if (range) {
      sub = c.declare(prefix + "result.subnormal");
      ovf = c.declare(prefix + "result.overflow_inf");
      uz = c.declare(prefix + "result.underflow_to_zero");
      unz = c.declare(prefix + "result.underflow_to_neg_zero");
    }
    exact = c.declare(prefix + "round.exact");
    if (rounding) {
      inexact = c.declare(prefix + "round.inexact");
      tie_down = c.declare(prefix + "round.tie_to_even_down");
      tie_up = c.declare(prefix + "round.tie_to_even_up");
      carry = c.declare(prefix + "round.carry_into_exponent");
    }
  }

  // Counts a finite exact result `v`; a zero is a cancellation if `nonzero_terms` (some term of
  // the sum was nonzero).
  void count(Coverage& c, const dp::ExactValue& v, bool nonzero_terms) const {
    auto hit = [&c](int id) {
      if (id >= 0) c.hit(id);
    };
    const stim::RoundClass rc = stim::classify_fp32_round(v);
    if (rc.zero) {
      hit(zero);
      if (nonzero_terms) hit(cancel);
      return;
    }
    hit(v.neg ? neg : pos);
    hit(rc.exact ? exact : inexact);
    if (rc.tie) hit(rc.up ? tie_up : tie_down);
    if (rc.carry) hit(carry);
    if (rc.subnormal && !rc.to_zero) hit(sub);
    if (rc.overflow) hit(ovf);
    if (rc.to_zero) hit(v.neg ? unz : uz);
  }
};

// The IEEE special cases among the element pairs of a dot product: a NaN element, Inf x 0, and
// Inf products of either sign.
struct ElemSpecials {
  bool nan = false, inf_zero = false, pinf = false, ninf = false;
  void add(const dp::Elem& x, const dp::Elem& y) {
    if (x.kind == dp::Elem::nan || y.kind == dp::Elem::nan) nan = true;
    else if (x.kind == dp::Elem::inf || y.kind == dp::Elem::inf) {
      if ((x.kind == dp::Elem::num && !x.sig) || (y.kind == dp::Elem::num && !y.sig)) inf_zero = true;
      else ((x.neg != y.neg) ? ninf : pinf) = true;
    }
  }
};

// One bin per special case; count() hits the one that decides the result (a NaN element, else
// Inf x 0, else +Inf + -Inf, else +Inf, else -Inf). A bin left at -1 is never hit.
struct SpecialBins {
  int nan = -1, inf_zero = -1, inf_inf = -1, pos_inf = -1, neg_inf = -1;

  // special.nan_element, special.inf_times_zero, special.pinf_plus_ninf, special.pos_inf, special.neg_inf.
  void declare(Coverage& c) {
    nan = c.declare("special.nan_element");
    inf_zero = c.declare("special.inf_times_zero");
    inf_inf = c.declare("special.pinf_plus_ninf");
    pos_inf = c.declare("special.pos_inf");
    neg_inf = c.declare("special.neg_inf");
  }

  void count(Coverage& c, const ElemSpecials& e) const {
    int id = -1;
    if (e.nan) id = nan;
    else if (e.inf_zero) id = inf_zero;
    else if (e.pinf && e.ninf) id = inf_inf;
    else if (e.pinf) id = pos_inf;
    else if (e.ninf) id = neg_inf;
    if (id >= 0) c.hit(id);
  }
};

// The element bins of an E2M1 dot product (sign bit 3): prod.sign.{pp,pn,np,nn} of the nonzero
// products p[k] = A[k] x B[k], and elem.neg_zero_code (an element code 8, -0).
struct E2m1ElemBins {
  int psign = -1, negzero = -1;

  void declare(Coverage& c) {
    psign = c.declare_group("prod.sign.", {"pp", "pn", "np", "nn"});
    negzero = c.declare("elem.neg_zero_code");
  }

  void count(Coverage& c, const uint8_t* ca, const uint8_t* cb, const int16_t* p, int n) const {
    for (int k = 0; k < n; ++k) {
      if (p[k]) c.hit(psign + 2 * ((ca[k] >> 3) & 1) + ((cb[k] >> 3) & 1));
      if (ca[k] == 8 || cb[k] == 8) c.hit(negzero);
    }
  }
};

// ---- describe() ----

// " xx xx ...": n codes in hex, `digits` digits each, each after a space.
template <class T>
std::string hex_codes(const T* c, int n, int digits) {
  std::string s;
  char buf[16];
  for (int k = 0; k < n; ++k) {
    std::snprintf(buf, sizeof buf, " %0*x", digits, static_cast<unsigned>(c[k]));
    s += buf;
  }
  return s;
}

// n 4-bit codes, one hex digit each, code 0 first.
inline std::string hex_nibbles(const uint8_t* c, int n) {
  std::string s;
  for (int k = 0; k < n; ++k) s += "0123456789abcdef"[c[k] & 0xF];
  return s;
}

// The model line of one parameter set of an aligned-dot unit (hifsim::dp::AlignedDotStages):
// "model <name>: Emax=.. L=.. exact .. -> 0x........ (value)\n".
inline std::string aligned_model_line(const std::string& name, const dp::AlignedDotStages& st, const dp::ExactValue& exact) {
  char line[256];
  std::snprintf(line, sizeof line, "model %s: Emax=%d L=%d exact %s -> 0x%08x (%a)\n", name.c_str(), st.emax, st.lsb,
                exact.str().c_str(), st.out_bits, static_cast<double>(fmt::bits_f32(st.out_bits)));
  return line;
}

}  // namespace hifsim::cosim
