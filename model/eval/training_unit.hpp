// The training-unit comparison of the format comparison report (`hifsim compare` on a training
// trace; docs/training.md "The training unit in the report"): per format, one training step of the
// trace under the format's own recipe (configs/recipes/<format>.yaml) on the format's unit
// (run_training_step, analytic timing), and that unit's area and the step's energy split by the
// hardware that spends them -- dot units, quantizers (round-to-nearest and stochastic), the Hadamard
// unit of the RHT, the transpose buffer, the array's SRAM buffers and DRAM traffic. The blocks'
// areas come from the same catalog lookup as their energies (cost/training_blocks.hpp: the node's
// synthesised row, else the unit's hardware description, else a proxy, marked).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "eval/training_step.hpp"

namespace hifsim::eval {

struct TrainingUnitRequest {
  const io::Trace* trace = nullptr;
  std::vector<fmt::Format> formats;
  std::vector<std::string> configs;  // the unit config of each format (same order)
  std::string node;                  // the cost tables' node; empty: sky130 when the tables have it, else 45nm
  UnitEvalOptions cost_options;      // cost_tables, activity sample and seed
};

// The report's blocks, in report order: dot_units quantizer_rn quantizer_sr rht transpose_buffer sram dram.
const std::vector<std::string>& training_unit_blocks();

struct TrainingUnitBlock {
  std::string block;           // training_unit_blocks()
  bool used = false;           // the step uses it (an unused block has no area and no energy)
  uint64_t instances = 0;      // catalog-unit instances the unit's throughput needs (0: not a catalog block)
  double area_mm2 = 0;
  double energy_pj = 0;        // per step
  bool area_proxy = false;     // a proxy estimate (no hardware in the unit catalog)
  bool energy_proxy = false;   // some of the energy is a proxy estimate (the step's passes in any format)
  std::string area_source, energy_source;
};

struct TrainingUnitRow {
  std::string format, recipe, config;
  uint64_t step_cycles = 0;
  std::vector<TrainingUnitBlock> blocks;  // training_unit_blocks() order
  double area_mm2 = 0, energy_pj = 0;     // sums of the blocks
  std::string skipped;                    // why the format has no row ("" = it has one)
};

struct TrainingUnitTable {
  std::string node, trace;
  std::vector<TrainingUnitRow> rows;
  std::vector<std::string> notes;
};

TrainingUnitTable compare_training_units(const TrainingUnitRequest& r);

// schema hifsim-training-unit/1: what the report renders (every figure with its source).
std::string training_unit_json(const TrainingUnitTable& t);
// One line per (format, block): node,format,recipe,block,used,instances,area_mm2,energy_uj,area_proxy,energy_proxy.
std::string training_unit_csv(const TrainingUnitTable& t);

}  // namespace hifsim::eval
