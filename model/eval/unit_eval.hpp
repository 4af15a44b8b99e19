// One matrix-unit design point on one workload: timing (the plain timing core, model/perf, which
// gives the TLM model's cycles) and cost (area, energy, power, EDP; model/cost) with switching
// activity measured on the workload's real tensors when the trace has them. Used by
// `hifsim compare` and `hifsim sweep`. Plain C++ (no SystemC).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "config/unit_config.hpp"
#include "cost/cost.hpp"
#include "eval/workload.hpp"
#include "perf/runner.hpp"

namespace hifsim::eval {

struct UnitEvalOptions {
  unsigned threads = 0;
  bool cost = true;
  std::string cost_tables;          // empty: cost::default_tables_dir()
  size_t activity_sample = 2048;    // dot operations whose toggles are counted
  uint64_t seed = 1;
  size_t activity_ops = 6;          // at most this many trace ops feed the activity (largest first)
  OperandCache* operands = nullptr; // optional: the trace's tensors, read once for every unit of a run
};

struct UnitEval {
  cfg::UnitConfig unit;
  std::vector<perf::RunReport> reports;
  perf::Totals totals;
  std::optional<cost::CostReport> cost;
  std::string cost_unsupported;     // why there is no cost (a config the cost model does not cover)
  double utilization = 0;           // macs / (cycles x peak MACs per cycle)
  double wall_seconds = 0;
};

// MACs / (cycles x the unit's peak MACs per cycle); 0 for no cycles.
double utilization(const cfg::UnitConfig& u, const perf::Totals& t);
// Why the cost model does not cover u ("" when it does): such a unit is reported, never guessed.
std::string cost_unsupported(const cfg::UnitConfig& u);
// Area, energy, power and EDP of a run from its totals and the activity measured on `sets`.
cost::CostReport run_cost(const cfg::UnitConfig& u, const std::vector<cost::OperandSet>& sets, const perf::Totals& t,
                          const UnitEvalOptions& o);
// Timing of the workload's timing-only jobs and, unless o.cost is false, its cost with the
// activity of at most o.activity_ops ops (the largest first).
UnitEval evaluate_unit(const cfg::UnitConfig& u, const Workload& w, const UnitEvalOptions& o);

}  // namespace hifsim::eval
