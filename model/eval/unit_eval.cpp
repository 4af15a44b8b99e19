#include "eval/unit_eval.hpp"

#include <algorithm>
#include <chrono>

#include "util/error.hpp"

namespace hifsim::eval {

double utilization(const cfg::UnitConfig& u, const perf::Totals& t) {
  if (!t.cycles.total) return 0.0;
  return t.macs / (static_cast<double>(t.cycles.total) * static_cast<double>(u.peak_macs_per_cycle()));
}

std::string cost_unsupported(const cfg::UnitConfig& u) {
  try {
    (void)cost::unit_spec(u);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

cost::CostReport run_cost(const cfg::UnitConfig& u, const std::vector<cost::OperandSet>& sets, const perf::Totals& t,
                          const UnitEvalOptions& o) {
  const cost::CostTables ct = cost::load_tables(o.cost_tables.empty() ? cost::default_tables_dir() : o.cost_tables);
  cost::ActivityOptions ao;
  ao.sample_dots = o.activity_sample;
  ao.seed = o.seed;
  ao.order = u.dataflow;
  const cost::Activity act = cost::activity_for(u, sets, ao);
  cost::CostReport r = cost::evaluate(ct, u, t.actions, t.cycles.total, t.macs, static_cast<double>(t.gemms), act);
  r.activity.source = seeded_sets(sets) ? "seeded normal values (no operand data)" : "operand values";
  return r;
}

UnitEval evaluate_unit(const cfg::UnitConfig& u, const Workload& w, const UnitEvalOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  UnitEval r;
  r.unit = u;
  const std::vector<perf::Job> jobs = timing_jobs(w);
  perf::RunOptions ro;
  ro.threads = o.threads;
  for (const auto& jr : perf::run_plain(u, jobs, ro)) r.reports.push_back(jr.report);
  r.totals = perf::totals(r.reports);
  r.utilization = utilization(u, r.totals);
  if (o.cost) r.cost_unsupported = cost_unsupported(u);
  if (o.cost && r.cost_unsupported.empty()) {
    OperandStore keep;
    const ActivitySampling sampling{o.activity_ops, true, o.seed};
    const std::vector<cost::OperandSet> sets =
        activity_sets(jobs, w.trace ? &*w.trace : nullptr, sampling, keep, o.operands);
    r.cost = run_cost(u, sets, r.totals, o);
  }
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace hifsim::eval
