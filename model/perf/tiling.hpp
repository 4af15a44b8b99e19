// Buffer-level tiling of a GEMM C = A * B^T (A: M x K, B: N x K) on a matrix unit: the tile
// extents, the step sequence and the exact operand traffic of a tiling (docs/tlm.md section
// "Tiling and schedule"). The automatic choice of a tiling is in autotile.hpp; the PE-array
// timing of a step in array_timing.hpp.
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

inline uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

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

// The tiling with output tiles of mt x nt and K tiles of kt (kt a multiple of W; each extent is
// clipped to its dimension). `nmk` is the loop order. No buffer check: see check_tiling_fits.
Tiling make_tiling(const cfg::UnitConfig& u, uint64_t M, uint64_t N, uint64_t K, uint64_t mt, uint64_t nt, uint64_t kt,
                   bool nmk);
// Whether the tiles fit their buffer slots (A with its residual rows, B, the FP32 output tile).
bool tiling_fits(const cfg::UnitConfig& u, const Tiling& t);
// Throws hifsim::Error naming tiling.m / tiling.n when a tile does not fit.
void check_tiling_fits(const cfg::UnitConfig& u, const Tiling& t);

// Bytes of one A row of `k` elements in memory (the quantizer's input precision, or the packed
// records with the residual rows next to them) and in buffer A.
uint64_t a_mem_row_bytes(const cfg::UnitConfig& u, uint64_t k);

// How often the whole A (resp. B) operand is loaded under the schedule's least-recently-used slot
// replacement (schedule.hpp), exactly: a tile stays resident while no more distinct tiles than
// slots are used between its uses. Derivation in docs/tlm.md section 3; tests compare it with the
// loads of perf::build_schedule.
struct OperandLoads {
  uint64_t a_panels = 0, b_panels = 0;  // multiples of (all rows x the whole K)
};
OperandLoads operand_loads(const cfg::UnitConfig& u, const Tiling& t, bool nmk);
// Operand bytes read from memory under loop order `nmk` (A with residual rows, B; no stores).
uint64_t operand_traffic(const cfg::UnitConfig& u, const Tiling& t, bool nmk);
// The loop order of tiling.order: auto: the order that reads fewer operand bytes (ties: mnk).
// The RTL sequencer (rtl/array) makes the same comparison.
bool choose_order_nmk(const cfg::UnitConfig& u, const Tiling& t);

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

}  // namespace hifsim::perf
