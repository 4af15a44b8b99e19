// A training step as a workload of the matrix unit (`hifsim run --trace T --recipe R`,
// docs/training.md "Training-step timing"): every GEMM of a training trace (fprop, dgrad, wgrad,
// attention forward and backward) through the timing core in the format the recipe gives it, and
// before each GEMM the passes that prepare its two operands -- quantization along the GEMM's own K
// (round-to-nearest or stochastic), the random Hadamard transform where the recipe applies it, and
// the transposed operands read through the transpose buffer (perf/operand_pass.hpp). Cycles,
// stalls and energy per op kind, per format and per step; the per-kind cycles add up to the step.
//
// Passes and GEMMs run one after the other (no overlap: the step's cycles are an upper bound for a
// unit that quantizes the next GEMM's operands while the array computes). Each GEMM quantizes
// both of its operands itself (no sharing of X between q/k/v), except the dgrad weight under
// NVFP4 16x16 weight blocks, whose fprop quantization is its transpose's (no pass).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "cost/training_blocks.hpp"
#include "eval/unit_run.hpp"
#include "io/trace.hpp"
#include "train/recipe.hpp"

namespace hifsim::eval {

struct TrainingStepRequest {
  const io::Trace* trace = nullptr;
  std::optional<train::Recipe> recipe;   // unset: every op in the unit's format, round-to-nearest
  std::string config;                    // the unit config's path and overrides: the same unit is
  std::vector<std::string> overrides;    // loaded with pe.format=F for the ops of another format
  bool one_layer = false;                // each op's repeat counted once
  bool cost = true;
  UnitEvalOptions cost_options;
  perf::RunOptions run;
  std::string engine_name = "analytic";  // what `engine` is (recorded per format)
  std::string cost_node = "45nm";        // the cost tables' node (cost::load_tables)
};

// The op kinds of a step, in report order: the trace's five GEMM kinds, then the passes.
const std::vector<std::string>& step_kinds();  // fprop dgrad wgrad attn_fwd attn_bwd quantize rht transpose

struct KindLine {
  std::string kind;
  uint64_t count = 0;        // GEMMs (instances) or operand passes of this kind
  perf::Cycles cycles;
  double macs = 0;
  double energy_pj = 0;
};

// The step's energy by the hardware that spends it (pJ; the report's training-unit comparison);
// adds up to the energy of the kinds.
struct EnergySplit {
  double dot_units = 0;         // the GEMMs' compute: PE dot units, accumulators, PE registers
  double quantize_rn = 0;       // round-to-nearest quantizers of the passes (and the unit's on-line quantizer)
  double quantize_sr = 0;       // stochastic-rounding quantizers of the passes
  double rht = 0;               // the Hadamard unit
  double transpose_buffer = 0;  // the transpose buffer
  double sram = 0;              // the array's operand and accumulator buffers
  double dram = 0;              // memory traffic of the GEMMs and the passes
  double total() const;
  void add(const EnergySplit& o);
};

// Every part of the split once, in report order, with its JSON name (energy_by_block_pj).
struct EnergySplitPart {
  const char* json;
  double EnergySplit::*pj;
};
const std::vector<EnergySplitPart>& energy_split_parts();

struct FormatLine {
  std::string format;        // the format the GEMMs run in ("bf16 (fp32 ops)" when FP32 GEMMs are timed on BF16)
  std::string engine;        // what timed the GEMMs: tlm | analytic
  std::string config;        // the unit config the format's GEMMs and passes ran on
  std::string timing;        // perf::timing_calibration of the format's unit: rtl-calibrated | model
  std::vector<KindLine> kinds;  // step_kinds() order
  KindLine total;
  std::string cost_unsupported;
  std::string activity;      // what the GEMM energy's switching activity was measured on ("" without cost)
  EnergySplit split;
};

struct TrainingStep {
  std::string recipe;        // "(none)" without a recipe
  bool cost = false;         // energies computed (else every energy_pj is 0)
  std::vector<FormatLine> formats;
  std::vector<KindLine> kinds;  // summed over the formats
  KindLine total;
  EnergySplit split;            // summed over the formats
  std::vector<cost::BlockEnergy> blocks;  // the block energies used (per format and block)
  std::vector<std::string> notes;
  double wall_seconds = 0;
};

// The parameters of a unit's training blocks (format, dot width, sr_bits, transpose tile) for an
// RHT of size `rht` (0: 16) and high-precision elements of `in_bytes`.
cost::BlockParams training_block_params(const cfg::UnitConfig& u, int rht, uint64_t in_bytes);

TrainingStep run_training_step(const cfg::UnitConfig& u, const TrainingStepRequest& r, const Engine& engine);

std::string training_step_json(const cfg::UnitConfig& u, const TrainingStep& s, const std::string& source);
// One line per (format, kind), per kind (format "all") and a TOTAL line.
std::string training_step_csv(const TrainingStep& s);
// The terminal table: cycles, stalls and energy per kind and per format.
std::string training_step_text(const TrainingStep& s);

}  // namespace hifsim::eval
