#include "eval/sweep_point.hpp"

#include "util/error.hpp"
#include "util/json.hpp"

namespace hifsim::eval {

Workload sweep_workload(const sweep::SweepSpec& s) {
  Workload w;
  if (!s.workload_trace.empty()) {
    w.trace = io::read_trace(s.workload_trace);
  } else {
    w.M = s.workload_gemm[0];
    w.N = s.workload_gemm[1];
    w.K = s.workload_gemm[2];
  }
  return w;
}

namespace {
// Where the sweep file gives `path`: "set.P", "grid.P" or "zip[i].P".
std::string sweep_key(const sweep::SweepSpec& s, const std::string& path) {
  for (const auto& [p, v] : s.grid)
    if (p == path) return "grid." + path;
  for (size_t i = 0; i < s.zips.size(); ++i)
    for (const auto& [p, v] : s.zips[i])
      if (p == path) return "zip[" + std::to_string(i) + "]." + path;
  return "set." + path;
}
}  // namespace

void check_sweep_points(const sweep::SweepSpec& s, const std::vector<sweep::Point>& points) {
  for (const auto& pt : points) {
    try {
      cfg::load_unit_config(s.base, pt.overrides);
    } catch (const Error& e) {
      // The config reader names the override as a --set the user never typed: name the sweep
      // file's key and value instead (the base config stays in the reason).
      const std::string msg = e.what();
      for (const std::string& o : pt.overrides) {
        const size_t eq = o.find('=');
        const std::string path = o.substr(0, eq), value = o.substr(eq + 1);
        const size_t at = msg.find(": " + path + ": ");
        if (at == std::string::npos) continue;
        throw Error(s.file, sweep_key(s, path) + " = " + value,
                    msg.substr(at + path.size() + 4) + " (base config " + s.base + ", point " + std::to_string(pt.index) + ")");
      }
      throw Error(s.file, "point " + std::to_string(pt.index), msg);
    }
  }
}

std::string sweep_point_json(const UnitEval& e, const std::optional<AccuracyFigures>& accuracy) {
  const cfg::UnitConfig& u = e.unit;
  JsonWriter j;
  j.begin_object()
      .kv("status", "ok")
      .kv("unit", u.name)
      .kv("format", u.format_name())
      .kv("peak_macs_per_cycle", u.peak_macs_per_cycle())
      .kv("cycles", e.totals.cycles.total)
      .kv("utilization", e.utilization)
      .kv("macs", e.totals.macs);
  if (e.cost) {
    const cost::CostReport& c = *e.cost;
    j.kv("energy_pj_per_mac", c.total_pj / e.totals.macs)
        .kv("compute_pj_per_mac", c.compute_pj / e.totals.macs)
        .kv("buffers_pj_per_mac", c.buffers_pj / e.totals.macs)
        .kv("memory_pj_per_mac", c.memory_pj / e.totals.macs)
        .kv("area_mm2", c.total_mm2)
        .kv("power_w", c.power_w)
        .kv("edp_js", c.edp_js)
        .kv("seconds_simulated", c.seconds);
  } else {
    j.kv("cost_unsupported", e.cost_unsupported);  // named in the results, never guessed
  }
  if (accuracy) {
    const AccuracyFigures& a = *accuracy;
    // Invalid accuracy: the figures are null (an empty cell in results.csv, never a score).
    j.kv("sqnr_db", a.sqnr_db).kv("cosine", a.cosine).kv("rel_frobenius", a.rel_frobenius).kv("underflow", a.underflow);
    j.kv("accuracy_valid", a.valid).kv("nonfinite_outputs", a.nonfinite_outputs).kv("nonfinite_reference", a.nonfinite_reference);
  }
  j.end_object();
  return j.str() + "\n";
}

SweepPointEvaluator::SweepPointEvaluator(const sweep::SweepSpec& s, const UnitEvalOptions& o)
    : spec_(s), workload_(sweep_workload(s)), options_(o) {
  if (!s.accuracy_trace.empty()) accuracy_ = std::make_unique<AccuracyMemo>(s.accuracy_trace, s.accuracy_ops, s.file);
}

std::string SweepPointEvaluator::operator()(const sweep::Point& p) {
  const cfg::UnitConfig u = cfg::load_unit_config(spec_.base, p.overrides);
  const UnitEval e = evaluate_unit(u, workload_, options_);
  std::optional<AccuracyFigures> a;
  if (accuracy_) a = accuracy_->get(u);
  return sweep_point_json(e, a);
}

}  // namespace hifsim::eval
