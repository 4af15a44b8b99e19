#include "eval/unit_eval.hpp"

#include <algorithm>
#include <chrono>

#include "util/error.hpp"

namespace hifsim::eval {

std::string Workload::name() const {
  if (trace) return trace->manifest;
  return "gemm " + std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K);
}

std::vector<perf::Job> timing_jobs(const Workload& w) {
  std::vector<perf::Job> jobs;
  if (!w.trace) {
    perf::Job j;
    j.M = w.M;
    j.N = w.N;
    j.K = w.K;
    jobs.push_back(j);
    return jobs;
  }
  for (const io::TraceOp& op : w.trace->ops) {
    perf::Job j;
    j.name = op.name;
    j.M = op.M;
    j.N = op.N;
    j.K = op.K;
    j.instances = op.batch * op.repeat;
    jobs.push_back(j);
  }
  if (jobs.empty()) throw Error(w.trace->manifest, "ops", "nothing to run");
  return jobs;
}

cost::OperandSet trace_operand_set(const io::Trace& t, const io::TraceOp& op, double weight,
                                   std::vector<std::vector<float>>& keep) {
  io::Operand a = io::load_operand(t, op, "a", 0), b = io::load_operand(t, op, "b", 0);
  cost::OperandSet s;
  s.name = op.name;
  s.M = a.rows, s.N = b.rows, s.K = a.cols;
  s.weight = weight;
  keep.push_back(std::move(a.data));
  keep.push_back(std::move(b.data));
  s.A = keep[keep.size() - 2].data(), s.B = keep.back().data();
  return s;
}

std::vector<cost::OperandSet> activity_sets(const std::vector<perf::Job>& jobs, const io::Trace* trace,
                                            const UnitEvalOptions& o, std::vector<std::vector<float>>& keep) {
  std::vector<cost::OperandSet> sets;
  for (const perf::Job& j : jobs) {
    if (!j.A || !j.B) continue;
    cost::OperandSet s;
    s.name = j.name;
    s.M = j.M, s.N = j.N, s.K = j.K;
    s.A = j.A, s.B = j.B;
    s.weight = static_cast<double>(j.M) * static_cast<double>(j.N) * static_cast<double>(j.K) * j.instances;
    sets.push_back(s);
  }
  if (!sets.empty()) return sets;
  if (trace && !trace->shape_only()) {
    std::vector<const io::TraceOp*> ops;
    for (const auto& op : trace->ops) ops.push_back(&op);
    std::stable_sort(ops.begin(), ops.end(), [](const io::TraceOp* a, const io::TraceOp* b) {
      return a->macs_per_step() > b->macs_per_step();
    });
    if (ops.size() > o.activity_ops) ops.resize(o.activity_ops);
    for (const io::TraceOp* op : ops) sets.push_back(trace_operand_set(*trace, *op, op->macs_per_step(), keep));
    return sets;
  }
  uint64_t stream = 0;
  for (const perf::Job& j : jobs) {
    cost::OperandSet s;
    s.name = j.name + " (seeded normal values)";
    s.M = std::min<uint64_t>(j.M, 64), s.N = std::min<uint64_t>(j.N, 64), s.K = j.K;
    s.weight = static_cast<double>(j.M) * static_cast<double>(j.N) * static_cast<double>(j.K) * j.instances;
    keep.push_back(cost::random_operands(s.M, j.K, o.seed, 2 * stream));
    keep.push_back(cost::random_operands(s.N, j.K, o.seed, 2 * stream + 1));
    s.A = keep[keep.size() - 2].data(), s.B = keep.back().data();
    sets.push_back(s);
    if (++stream >= o.activity_ops) break;
  }
  return sets;
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
  bool seeded = false;
  for (const auto& s : sets) seeded |= s.name.find("(seeded normal values)") != std::string::npos;
  r.activity.source = seeded ? "seeded normal values (no operand data)" : "operand values";
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
  const double peak = static_cast<double>(u.peak_macs_per_cycle());
  if (r.totals.cycles.total) r.utilization = r.totals.macs / (static_cast<double>(r.totals.cycles.total) * peak);
  if (o.cost) {
    try {
      (void)cost::unit_spec(u);
    } catch (const Error& e) {
      r.cost_unsupported = e.what();
    }
  }
  if (o.cost && r.cost_unsupported.empty()) {
    std::vector<std::vector<float>> keep;
    const std::vector<cost::OperandSet> sets = activity_sets(jobs, w.trace ? &*w.trace : nullptr, o, keep);
    r.cost = run_cost(u, sets, r.totals, o);
  }
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace hifsim::eval
