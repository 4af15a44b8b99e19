// The PE array's timing of one step (docs/tlm.md section "Timing equations"): when the array
// issues the step's operands, given when its data are in the buffers and what the array did
// before (the drain of the previous pass, the weights of the previous fold). The RTL calibration
// top (rtl/array) implements the same microarchitecture; the equations are checked against it.
//
// Output-stationary: a pass issues kb blocks, one every f cycles (f = buffer-bank read cycles per
// block). Its R x C results go to the accumulator buffer through a drain stage of drain_width
// values per cycle: D = ceil(R*C / drain_width) cycles after its last issue, overlapped with the
// next pass (shadow registers). A pass's last issue is therefore at least D cycles after the
// previous pass's last issue (else its results would overwrite a shadow still draining). D = 0:
// write-through.
//
// Weight-stationary: a fold loads R rows of weights into the PE weight registers (Lw = R x
// ceil(C / banks_B) cycles) and streams the step's ml rows of A (S = ml x ceil(R / banks_A)
// cycles). With double-buffered weights the next fold's weights load into the shadow registers
// from the start of the current fold, as soon as the B tile is in the buffer; without, after the
// current fold's stream. Folds stream back to back: consecutive fold starts are max(S, Lw) (or
// S + Lw) apart; a step ends S cycles after its last fold starts.
#pragma once
#include <cstdint>

#include "config/unit_config.hpp"
#include "perf/tiling.hpp"

namespace hifsim::perf {

// What the array did last: carried from step to step (starts empty).
struct ArrayHistory {
  bool any = false;
  uint64_t last_issue = 0;       // OS: cycle of the previous pass's last issue
  uint64_t last_fold_start = 0;  // WS: stream start of the previous fold
};

struct StepTime {
  uint64_t data = 0;   // max(previous end, operands and accumulator slot ready): from here on the array works
  uint64_t end = 0;    // one past the last issue cycle
  uint64_t bank = 0;   // part of end - data caused by too few buffer banks
};

// `e_prev`: end of the previous step (or the command start); `ready`: A tile and accumulator slot
// ready; `b_ready`: B tile ready. Updates `h`.
StepTime time_step(const cfg::UnitConfig& u, const Tiling& t, const Step& s, uint64_t e_prev, uint64_t ready,
                   uint64_t b_ready, ArrayHistory& h);

// Issue cycles of a step in steady state (the previous pass / fold of the same shape just ran):
// OS passes x max(kb f, D); WS folds x max(S, Lw) (double-buffered weights) or folds x (S + Lw).
// The tiling search's estimate uses it.
uint64_t steady_step_cycles(const cfg::UnitConfig& u, const Tiling& t, const Step& s);

// The fewest issue cycles a step can take, whatever ran before it (OS: its first pass not held
// by a drain; WS: its first weights already loaded). The tiling search's lower bound uses it.
uint64_t min_step_cycles(const cfg::UnitConfig& u, const Tiling& t, const Step& s);

// Cycles from the end of the last issue of an output tile (e) to the cycle its last value is in
// the accumulator buffer: OS P - 1 + D (+ R + C - 2 systolic skew); WS P + R - 2 (+ C - 1).
uint64_t output_tail(const cfg::UnitConfig& u);
// Drain cycles of one pass (OS): D = ceil(R*C / drain_width), 0 for write-through.
uint64_t pass_drain_cycles(const cfg::UnitConfig& u);

}  // namespace hifsim::perf
