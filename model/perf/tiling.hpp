// Buffer-level tiling of a GEMM C = A * B^T (A: M x K, B: N x K) on a matrix unit, and the
// closed-form cost of one step (docs/tlm.md sections "Dataflows" and "Timing equations").
//
// A step is one K tile of one output tile: A rows [m0, m0+ml) x K [k0, k0+kl) and B rows
// [n0, n0+nl) x the same K range, accumulated into the output tile (m0.., n0..). K is always the
// innermost loop, so every output's partial sum continues in increasing K. With a shared-path
// residual, each output tile gets a second phase of K steps whose A tiles come from the residual
// operand (the "residual steps").
#pragma once
#include <cstdint>
#include <string>

#include "config/unit_config.hpp"

namespace hifsim::perf {

struct Tiling {
  uint64_t M = 0, N = 0, K = 0;
  uint64_t Kp = 0;               // K rounded up to the dot width W
  uint64_t W = 0;                // dot width
  uint64_t mt = 0, nt = 0, kt = 0;
  uint64_t tm = 0, tn = 0, tk = 0;
  bool nmk = false;              // outer loop over N tiles
  bool residual_shared = false;  // a residual phase of tk steps per output tile
  bool residual_dedicated = false;
  uint64_t ksteps() const { return tk * (residual_shared ? 2 : 1); }
  uint64_t outputs() const { return tm * tn; }
  uint64_t steps() const { return outputs() * ksteps(); }
  std::string order() const { return nmk ? "nmk" : "mnk"; }
};

// Chooses the tile sizes (auto fields: minimise the estimated max(compute, traffic / bandwidth),
// see docs/tlm.md) and checks explicit ones against the buffers. Throws hifsim::Error naming the
// config field when a tile cannot fit.
Tiling choose_tiling(const cfg::UnitConfig& u, uint64_t M, uint64_t N, uint64_t K);

struct Step {
  uint64_t index = 0;
  uint64_t out = 0;              // output tile index (in loop order)
  uint64_t mo = 0, no = 0, ko = 0;
  bool res = false;              // shared-path residual step
  bool first = false, last = false;  // first / last step of its output tile
  uint64_t m0 = 0, ml = 0, n0 = 0, nl = 0, k0 = 0, kl = 0;
  // Tile identities for buffer residency (equal ids = same bytes). An A tile carries the main
  // and (when the residual is enabled) the residual rows of the same range, so the residual
  // steps of the shared path reuse the A tile of their main step when it is still resident.
  uint64_t a_id() const { return mo * 0x100000000ull + ko; }
  uint64_t b_id() const { return no * 0x100000000ull + ko; }
};

Step step_at(const Tiling& t, uint64_t i);

// PE-array issue cycles of one step. `restart`: the array was idle before this step (WS with
// double-buffered weights then exposes the first weight load). `bank_extra` receives the part
// caused by too few buffer banks.
uint64_t step_issue_cycles(const cfg::UnitConfig& u, const Tiling& t, const Step& s, bool restart,
                           uint64_t* bank_extra = nullptr);
// Cycles from the end of the last issue cycle of an output tile (e) to the cycle its last value is
// in the accumulator buffer: OS P - 1 + D (+ R + C - 2 systolic skew); WS P + R - 2 (+ C - 1).
uint64_t output_tail(const cfg::UnitConfig& u);
// Drain cycles of one pass (OS): D = ceil(R*C / drain_width), 0 for write-through.
uint64_t pass_drain_cycles(const cfg::UnitConfig& u);

inline uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

}  // namespace hifsim::perf
