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
#include "io/trace.hpp"
#include "perf/runner.hpp"

namespace hifsim::eval {

struct Workload {
  std::optional<io::Trace> trace;  // every op, timing only (instances = batch x repeat)
  uint64_t M = 0, N = 0, K = 0;    // a single GEMM when there is no trace
  std::string name() const;
};

struct UnitEvalOptions {
  unsigned threads = 0;
  bool cost = true;
  std::string cost_tables;          // empty: cost::default_tables_dir()
  size_t activity_sample = 2048;    // dot operations whose toggles are counted
  uint64_t seed = 1;
  size_t activity_ops = 6;          // at most this many trace ops feed the activity (largest first)
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

// The timing-only jobs of a workload (one per trace op, instances = batch x repeat).
std::vector<perf::Job> timing_jobs(const Workload& w);

// One op's captured A and B (batch 0) as an activity operand set; `keep` owns the loaded data.
cost::OperandSet trace_operand_set(const io::Trace& t, const io::TraceOp& op, double weight,
                                   std::vector<std::vector<float>>& keep);

// The operands whose switching activity feeds the energy model, in this order of preference:
// the jobs' own values (jobs with A and B), else the captured trace's tensors (the largest ops
// first, at most o.activity_ops), else seeded normal values shaped like the jobs. `keep` owns
// any data the sets point to.
std::vector<cost::OperandSet> activity_sets(const std::vector<perf::Job>& jobs, const io::Trace* trace,
                                            const UnitEvalOptions& o, std::vector<std::vector<float>>& keep);
// Area, energy, power and EDP of a run from its totals and the activity measured on `sets`.
cost::CostReport run_cost(const cfg::UnitConfig& u, const std::vector<cost::OperandSet>& sets, const perf::Totals& t,
                          const UnitEvalOptions& o);
UnitEval evaluate_unit(const cfg::UnitConfig& u, const Workload& w, const UnitEvalOptions& o);

}  // namespace hifsim::eval
