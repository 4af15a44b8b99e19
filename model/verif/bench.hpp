// A unit's bench (docs/cosim.md): the generator and the checker of the berkeley-testfloat-3
// pattern, without the subject. The generator makes the directed corner vectors and seeded random
// vectors from weighted stimulus sources; the checker runs the bit-exact C++ model
// (model/datapath) on a vector, gives the expected output words and counts the coverage bins the
// vector hits. Two subjects use the same benches:
//   - cosim/<unit>/main.cpp drives the unit's Verilated RTL with them (handshake, scoreboard,
//     waveforms, replay files);
//   - verif::conformance_vectors (hifsim vectors) writes them as $readmemh files for another RTL
//     team's unit.
//
// Every bench describes one transaction's input ports (PortField: bit slices of the transaction's
// 32-bit words) and output ports, for the README of the conformance vectors and the mismatch
// report of the cosim. A bench holds the parameter sets it checks ("variants"); set_active() picks
// the ones whose outputs golden() computes, in order.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "util/rng.hpp"
#include "verif/coverage.hpp"
#include "verif/vector.hpp"

namespace hifsim::verif {

// How a bench is run: the coverage it counts into and, if not empty, the one random stimulus
// source to draw from (the directed corners are a source too: "corner").
struct BenchContext {
  Coverage* cov = nullptr;
  std::string only_source;
};

// Bits [lsb, lsb + width) of a transaction's little-endian words: one port (or one field of it).
struct PortField {
  std::string name;
  int lsb = 0, width = 0;
  std::string what;  // one line for the README
};

// RTL parameters of one instance of a unit, by their RTL names: {{"W", 64}, {"STICKY", 1}}.
using Params = std::vector<std::pair<std::string, int>>;

// The declared handshake of a unit whose in_ready / out_valid are not those of a chain of
// STAGES register ranks (the cosim's default, cosim/common/pipe_timing.hpp): a cycle model the
// scoreboard compares the RTL's handshake with at every cycle (transpose_buffer: its tiles).
class Handshake {
 public:
  virtual ~Handshake() = default;
  // The combinational outputs of the current cycle.
  virtual bool in_ready(bool out_ready) const = 0;
  virtual bool out_valid(bool in_valid) const = 0;
  // The rising edge with the cycle's in_valid and out_ready.
  virtual void edge(bool in_valid, bool out_ready) = 0;
  virtual int occupancy() const = 0;      // transactions accepted and not yet delivered
  virtual std::string what() const = 0;   // the timing, for a mismatch message
  // rst_n is asserted now (the state goes back to the reset state; bins of what the reset dropped).
  virtual void reset() = 0;
};

class Bench {
 public:
  virtual ~Bench() = default;
  virtual const std::vector<std::string>& sources() const = 0;  // sources()[0] is "corner"
  virtual std::vector<Vector> corners() = 0;
  virtual Vector random(SplitMix64& r) = 0;
  // random() into `v`, whose word storage a bench may reuse (the stream driver's slots: no
  // allocation per vector); the same vector as random(r).
  virtual void random_into(SplitMix64& r, Vector& v) { v = random(r); }
  // The expected output words of every transaction of `v` (steps(v) x out_words(), step s at
  // s * out_words()), counting coverage.
  virtual void golden(const Vector& v, uint32_t* out) = 0;
  virtual std::string describe(const Vector& v) const = 0;
  // Transactions in a vector (a sequence whose results depend on the earlier ones: fp32_acc,
  // sparse_residual_add); the first makes the sequence independent of the vectors before it.
  virtual int steps(const Vector&) const { return 1; }
  virtual bool sequential() const { return false; }  // vectors are sequences (steps() may exceed 1)
  // The words of transaction `step` (laid out as inputs() says).
  virtual std::vector<uint32_t> transaction(const Vector& v, int step) const;
  // The input and output ports of one transaction of the active parameter sets.
  virtual std::vector<PortField> inputs() const = 0;
  virtual std::vector<PortField> outputs() const = 0;
  int out_words() const;
  // What one transaction of the unit is, its latency and handshake (README).
  virtual std::string protocol() const = 0;
  // The parameter sets [first, first + n) of the bench's list are checked now (outputs in order),
  // from reset; names of the active sets for messages ("" for a unit without parameters).
  virtual void set_active(size_t first, size_t n) = 0;
  virtual std::string active_names() const { return ""; }
  // Before / after a vector is re-run alone from reset (the cosim waveform of a failing vector),
  // for a bench whose expected values depend on state left by earlier vectors.
  virtual void around_rerun(bool /*entering*/) {}
  // The unit's handshake from reset, for the active parameter sets; null: STAGES register ranks.
  virtual std::unique_ptr<Handshake> handshake() const { return nullptr; }
};

// ---- shared pieces of the benches ----

// The common state of a bench: its context, its source names and the active parameter sets.
class BenchBase : public Bench {
 public:
  const std::vector<std::string>& sources() const override { return sources_; }
  void set_active(size_t first, size_t n) override {
    first_ = first;
    n_ = n;
  }

 protected:
  BenchBase(const BenchContext& ctx, std::vector<std::string> sources) : ctx_(ctx), sources_(std::move(sources)) {}
  Coverage& cov() const { return *ctx_.cov; }
  const BenchContext& ctx() const { return ctx_; }
  BenchContext ctx_;
  std::vector<std::string> sources_;
  size_t first_ = 0, n_ = 1;  // the active parameter sets (set_active)
};

// The random source of a vector: ctx.only_source if set (the corner source maps to `fallback`),
// otherwise a draw from `weights` (one per source, corner's weight 0; a brace list, which
// allocates nothing: it is drawn for every random vector).
int pick_source(SplitMix64& r, const BenchContext& ctx, const std::vector<std::string>& sources,
                std::initializer_list<int> weights, int fallback);

// The value blocks of the shaped and tensor sources: stim::shaped_block, or blocks of the .npy
// tensor. The tensor is read (in the constructor; it throws if it cannot be) only when the
// tensor source can be drawn: no only_source, or only_source "tensor".
class ValueBlocks {
 public:
  ValueBlocks(const BenchContext& ctx, const std::string& npy);
  ~ValueBlocks();
  // n values: a shaped block if `shaped`, else a tensor block.
  void fill(SplitMix64& r, bool shaped, float* x, int n) const;

 private:
  struct Tensor;
  std::unique_ptr<Tensor> tensor_;
};

// One FP32 output field per name: word i is <names[i]> (sign / exponent / mantissa in the README).
std::vector<PortField> fp32_fields(const std::vector<std::string>& names);

// " xx xx ...": n codes in hex, `digits` digits each, each after a space.
std::string hex_codes(const uint8_t* c, int n, int digits);
std::string hex_codes(const uint16_t* c, int n, int digits);
// n 4-bit codes, one hex digit each, code 0 first.
std::string hex_nibbles(const uint8_t* c, int n);

// ---- the two E2M1 code operands of the FP4 block-scaled dots (mxfp4_dot64, nvfp4_dot64) ----
// n codes of A and of B, each uniform over the 16 codes (drawn a[k], b[k], k = 0, 1, ...).
void random_e2m1_codes(SplitMix64& r, uint8_t* a, uint8_t* b, int n);
// Ports a and b: 64 E2M1 codes each, element k at [4k+3:4k], from bit 0 of the transaction.
std::vector<PortField> e2m1_code_ports();
// "<name>: <scales>  E2M1 codes k=0..63: <64 hex digits>\n": one operand of a mismatch report.
std::string e2m1_operand_line(const char* name, const std::string& scales, const uint8_t* codes);

// Checks the parameter sets of a unit whose only RTL parameter is STAGES (default `def`, 0..`max`).
void check_stages_only(const std::vector<Params>& sets, const std::string& unit, int def, int max);

// "<name first> <name first+1> ...": parameter sets [first, first + n) (Bench::active_names).
template <class Variant>
std::string active_variant_names(const std::vector<Variant>& vars, size_t first, size_t n) {
  std::string s;
  for (size_t i = first; i < first + n; ++i) s += (s.empty() ? "" : " ") + vars[i].name();
  return s;
}

// The FP32 output fields of parameter sets [first, first + n): `single` when one set is active,
// else "v<i>(<name>)" for each, in order.
template <class Variant>
std::vector<PortField> variant_fp32_outputs(const std::vector<Variant>& vars, size_t first, size_t n,
                                            const std::string& single) {
  std::vector<std::string> names;
  for (size_t i = first; i < first + n; ++i)
    names.push_back(n == 1 ? single : "v" + std::to_string(i - first) + "(" + vars[i].name() + ")");
  return fp32_fields(names);
}

// " <name 0> <name 1> ...": the parameter sets (anything with name()) for a banner.
template <class Variant>
std::string variant_names(const std::vector<Variant>& vars) {
  std::string s;
  for (const Variant& v : vars) s += " " + v.name();
  return s;
}

// The value of RTL parameter `name` in `p`, else `def`; throws hifsim::Error (naming --set NAME)
// if it is outside [lo, hi].
int param(const Params& p, const std::string& name, int def, int lo, int hi);
// "NAME=V[,NAME=V...]" (hifsim vectors --set); throws hifsim::Error naming --set and the item.
Params parse_params(const std::string& list);
// Throws hifsim::Error naming the first parameter of `p` that is not in `known`.
void check_params(const Params& p, const std::vector<std::string>& known, const std::string& unit);

}  // namespace hifsim::verif
