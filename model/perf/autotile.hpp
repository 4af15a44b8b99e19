// The automatic tiling (docs/tlm.md section "Tiling and schedule"): tile sizes and loop order for
// a GEMM on a unit. Fields of `tiling.*` that are set are kept; the others are searched:
//   1. candidates: K tiles Kp/d rounded up to W (d = 1, 2, ...), M and N tiles from a fixed set of
//      multiples of the array size and balanced splits, kept when they fit the buffer slots (so a
//      bigger buffer only adds candidates); the loop order of each by choose_order_nmk;
//   2. branch and bound: candidates in the order of a closed-form estimate, each simulated with the
//      timing engine (timing only) unless its lower bound (critical path, bus beats, outstanding
//      slots) cannot beat the best so far; a simulation stops once it falls behind.
// The result is the fastest candidate, exactly. Because the engine's timing only improves when the
// memory gets faster (more bandwidth, less latency, more outstanding transactions: every equation
// is a max of sums) and a bigger buffer only adds candidates, the automatic tiling never takes
// more cycles on a faster memory. tests/tlm/test_tiling_search.cpp checks that property on a grid
// and compares the result with a brute-force search over pinned tilings.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "config/unit_config.hpp"
#include "perf/tiling.hpp"

namespace hifsim::perf {

// Throws hifsim::Error naming the config field when a pinned tile cannot fit.
Tiling choose_tiling(const cfg::UnitConfig& u, uint64_t M, uint64_t N, uint64_t K);

// Progress of long tiling searches (a 65536^3 GEMM simulates candidates for minutes): when set,
// choose_tiling reports a line at most every few seconds (candidates simulated, the best so
// far), nothing for searches that end sooner. Process-wide; set it once before any work (the
// commands set it unless --quiet).
void set_tiling_progress(std::function<void(const std::string&)> report);

// The candidate tilings of step 1 (every one fits; pinned fields fixed).
std::vector<Tiling> tiling_candidates(const cfg::UnitConfig& u, uint64_t M, uint64_t N, uint64_t K);
// The closed-form estimate of step 2, in cycles, and a lower bound of the simulated cycles.
double estimate_cycles(const cfg::UnitConfig& u, const Tiling& t);
double lower_bound_cycles(const cfg::UnitConfig& u, const Tiling& t);
// Cycles of the GEMM with tiling t: the timing engine on a memory without data.
uint64_t simulate_cycles(const cfg::UnitConfig& u, const Tiling& t);
// ... abandoned (UINT64_MAX) as soon as a step ends later than `give_up_after`.
uint64_t simulate_cycles(const cfg::UnitConfig& u, const Tiling& t, uint64_t give_up_after);

}  // namespace hifsim::perf
