#include "eval/unit_cost.hpp"

#include <limits>

#include "util/json.hpp"

namespace hifsim::eval {
namespace {

// Every op feeds the activity, in trace order (the cost command measures the whole workload).
const ActivitySampling kEveryOp{std::numeric_limits<size_t>::max(), false, 1};

// The activity operands of a workload: a GEMM's operand files, else the timing jobs' captured
// tensors or seeded values. `jobs` are the timing jobs.
std::vector<cost::OperandSet> workload_sets(Workload& w, const std::vector<perf::Job>& jobs, uint64_t seed,
                                            OperandStore& keep) {
  ActivitySampling s = kEveryOp;
  s.seed = seed;
  if (!w.trace && !w.a_file.empty()) return activity_sets(value_jobs(w, keep), nullptr, s, keep);
  return activity_sets(jobs, w.trace ? &*w.trace : nullptr, s, keep);
}

std::string compare_json(const cost::CostTables& t, const DotUnitComparison& c) {
  JsonWriter w;
  w.begin_object().kv("schema", "hifsim-cost-compare/1").kv("data", c.data).kv("node", t.node);
  w.key("units").begin_array();
  for (const auto& r : c.rows)
    w.begin_object()
        .kv("format", r.format)
        .kv("config", r.config)
        .kv("model_ge", r.total_ge)
        .kv("rtl_ge", r.measured_ge)
        .kv("baseline_ge", r.baseline_ge)
        .kv("incremental_ge", r.incremental_ge)
        .kv("accumulator_ge", r.acc_ge)
        .kv("dot_pj", r.dot_pj)
        .kv("incremental_pj", r.incremental_pj)
        .kv("acc_pj", r.acc_pj)
        .kv("product_toggle_rate", r.alpha_products)
        .kv("dots", r.dots)
        .end_object();
  w.end_array();
  w.key("paper").begin_object().kv("incremental_area_hif4_over_nvfp4", 1.0 / 3.0).kv("power_hif4_over_nvfp4", 0.9).end_object();
  w.end_object();
  return w.str() + "\n";
}

}  // namespace

std::string activity_source(const Workload& w) {
  if (w.trace)
    return w.trace->shape_only() ? "seeded normal values (shape-only trace " + w.trace->manifest + ")"
                                 : "tensors of " + w.trace->manifest;
  if (!w.a_file.empty()) return w.a_file + ", " + w.b_file;
  return "seeded normal values (seed " + std::to_string(w.seed) + ")";
}

cost::CostReport cost_on_workload(const cost::CostTables& t, const cfg::UnitConfig& u, Workload& w,
                                  const cost::ActivityOptions& o) {
  if (w.empty()) return cost::evaluate_area(t, u);
  OperandStore keep;
  std::vector<cost::OperandSet> sets;
  if (!w.trace && !w.a_file.empty()) sets = workload_sets(w, {}, o.seed, keep);  // sets the shape
  const std::vector<perf::Job> jobs = timing_jobs(w);
  if (sets.empty()) sets = workload_sets(w, jobs, o.seed, keep);
  std::vector<perf::RunReport> reps;
  for (const auto& x : perf::run_plain(u, jobs)) reps.push_back(x.report);
  const perf::Totals tot = perf::totals(reps);
  cost::ActivityOptions ao = o;
  ao.order = u.dataflow;
  cost::CostReport r = cost::evaluate(t, u, tot.actions, tot.cycles.total, tot.macs, static_cast<double>(tot.gemms),
                                      cost::activity_for(u, sets, ao));
  r.activity.source = activity_source(w);
  return r;
}

std::string cost_result_json(const cfg::UnitConfig& u, const std::string& config, const Workload& w,
                             const cost::CostReport& r) {
  JsonWriter j;
  j.begin_object().kv("schema", "hifsim-cost-run/1").kv("unit", u.name).kv("config", config);
  j.kv("source", w.empty() ? std::string() : w.source());
  j.key("cost");
  cost::write_cost_json(j, r);
  j.end_object();
  return j.str() + "\n";
}

DotUnitComparison compare_dot_units(const cost::CostTables& t, const std::vector<fmt::Format>& formats, Workload& w,
                                    const std::string& source_dir, const cost::ActivityOptions& o) {
  DotUnitComparison c;
  OperandStore keep;
  std::vector<cost::OperandSet> sets;
  if (w.empty()) {
    const std::string path = source_dir + "/" + kDefaultSample;
    io::NpyArray A = read_matrix(path, "A");
    c.inputs.push_back(path);
    keep.push_back(A.f32);
    cost::OperandSet s;
    s.name = kDefaultSample;
    s.M = s.N = A.shape[0], s.K = A.shape[1];
    s.A = s.B = keep.back().data();
    sets.push_back(s);
    c.data = std::string(kDefaultSample) + " (" + std::to_string(A.shape[0]) + " x " + std::to_string(A.shape[1]) +
             ") against itself";
  } else {
    const bool files = !w.trace && !w.a_file.empty();
    sets = files ? workload_sets(w, {}, o.seed, keep) : workload_sets(w, timing_jobs(w), o.seed, keep);
    c.data = activity_source(w);
  }
  c.rows = cost::compare_units(t, formats, sets, o);
  c.markdown = cost::compare_markdown(c.rows, c.data + ", " + std::to_string(c.rows.front().dots) +
                                                  " dot operations per unit, seed " + std::to_string(o.seed));
  c.json = compare_json(t, c);
  return c;
}

}  // namespace hifsim::eval
