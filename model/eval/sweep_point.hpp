// One design-sweep point (docs/sweeps.md): the point's unit config on the sweep's workload --
// timing and cost through evaluate_unit, and the memoized accuracy of its arithmetic when the
// sweep names an accuracy trace -- written as the point's result.json (schema below; the merge
// turns every field into a results.csv column). `hifsim sweep` and the Slurm shards call this.
//
//   {"status": "ok", "unit", "format", "peak_macs_per_cycle", "cycles", "utilization", "macs",
//    cost: "energy_pj_per_mac", "compute_pj_per_mac", "buffers_pj_per_mac", "memory_pj_per_mac",
//          "area_mm2", "power_w", "edp_js", "seconds_simulated"   (or "cost_unsupported": why)
//    accuracy: "sqnr_db", "cosine", "rel_frobenius", "underflow", "accuracy_valid",
//              "nonfinite_outputs", "nonfinite_reference"   (figures null when not valid)}
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "eval/accuracy_memo.hpp"
#include "eval/unit_eval.hpp"
#include "sweep/points.hpp"

namespace hifsim::eval {

// The workload a sweep file names: its trace (timing only) or its single GEMM.
Workload sweep_workload(const sweep::SweepSpec& s);

// Loads every point's unit config (the base with the point's overrides), so a bad axis value
// fails before anything runs or is written.
void check_sweep_points(const sweep::SweepSpec& s, const std::vector<sweep::Point>& points);

// The result.json text of one evaluated point (`accuracy` when the sweep measures it).
std::string sweep_point_json(const UnitEval& e, const std::optional<AccuracyFigures>& accuracy);

class SweepPointEvaluator {
 public:
  // `o` applies to every point (threads: points usually run in parallel, one thread each).
  SweepPointEvaluator(const sweep::SweepSpec& s, const UnitEvalOptions& o);
  // Thread-safe: the JSON of one point's result.
  std::string operator()(const sweep::Point& p);

 private:
  const sweep::SweepSpec& spec_;
  Workload workload_;
  UnitEvalOptions options_;
  std::unique_ptr<AccuracyMemo> accuracy_;  // null when the sweep has no accuracy trace
};

}  // namespace hifsim::eval
