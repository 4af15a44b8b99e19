// `hifsim cost` as model calls (docs/cost.md): a unit config's area, energy, power and EDP on
// a workload, and the 64-length dot-unit comparison on a workload's operands, with the files
// they are written as (schemas hifsim-cost-run/1 and hifsim-cost-compare/1). The action counts
// come from the timing core (the same as `hifsim run`); the switching activity from every op of
// the workload, in trace order: its captured tensors, else seeded normal values.
#pragma once
#include <string>
#include <vector>

#include "cost/cost.hpp"
#include "eval/workload.hpp"
#include "formats/format.hpp"

namespace hifsim::eval {

// The committed operands the comparison uses when no workload is given (its rows against
// themselves), relative to the source tree.
inline constexpr const char* kDefaultSample = "traces/sample/activations.npy";

// Where the activity operands of a workload come from, as the cost report states it.
std::string activity_source(const Workload& w);

// Area only for an empty workload; else area, energy, power and EDP of the workload's run.
// A GEMM given by operand files takes its shape from them.
cost::CostReport cost_on_workload(const cost::CostTables& t, const cfg::UnitConfig& u, Workload& w,
                                  const cost::ActivityOptions& o);
// cost.json: unit, config (as given), the workload and the cost report.
std::string cost_result_json(const cfg::UnitConfig& u, const std::string& config, const Workload& w,
                             const cost::CostReport& r);

struct DotUnitComparison {
  std::vector<cost::UnitCompareRow> rows;
  std::string data;                  // the operands measured
  std::vector<std::string> inputs;   // files read beyond the workload's own (the default sample)
  std::string markdown, json;        // compare.md and compare.json (hifsim-cost-compare/1)
};
// The comparison of `formats` on the workload's operands (the default sample under `source_dir`
// when the workload is empty).
DotUnitComparison compare_dot_units(const cost::CostTables& t, const std::vector<fmt::Format>& formats, Workload& w,
                                    const std::string& source_dir, const cost::ActivityOptions& o);

}  // namespace hifsim::eval
