// The static schedule of one GEMM on a unit: the steps (tiling.hpp) and the DMA job list in
// queue order, with the dependencies between them (docs/tlm.md "Schedule"). The timing engine
// executes it with time stamps; the RTL calibration top (rtl/array) executes the same list as its
// instruction stream, so both run the same program and only the hardware timing can differ.
//
// Operand buffers: `slots` slots (2 when double-buffered), least recently used replacement. A
// tile already in a slot is not loaded again. A load may start when the last step that used the
// tile it replaces has finished issuing (its "trigger"); loads whose slot is free at the start
// have trigger -1.
// DMA queue order: the loads with trigger -1 (ordered by the step that needs them, A before B);
// then, for every step i in order, the loads triggered by its end (same order) and, if step i
// finishes an output tile, that tile's store.
#pragma once
#include <cstdint>
#include <vector>

#include "config/unit_config.hpp"
#include "perf/tiling.hpp"

namespace hifsim::perf {

struct DmaJob {
  enum Kind : uint8_t { load_a, load_b, store };
  Kind kind = load_a;
  int64_t trigger = -1;  // loads: step whose end frees the slot (-1: free at start); stores: last step of the output
  uint64_t step = 0;     // loads: the first step that needs the tile; stores: the output's last step
  uint32_t slot = 0;     // operand slot (loads), accumulator slot (stores)
  uint64_t out = 0;      // stores: output tile index
};

struct Schedule {
  Tiling t;
  std::vector<DmaJob> jobs;          // in DMA queue order
  std::vector<uint32_t> a_job, b_job;  // per step: index of the job that brought its A / B tile
  std::vector<uint32_t> store_job;   // per output tile: index of its store
};

// The schedule of a given tiling, and of the automatic / configured tiling (autotile.hpp).
Schedule build_schedule(const cfg::UnitConfig& u, const Tiling& t);
Schedule build_schedule(const cfg::UnitConfig& u, uint64_t M, uint64_t N, uint64_t K);

}  // namespace hifsim::perf
