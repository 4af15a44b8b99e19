#include "eval/unit_run.hpp"

#include <chrono>

#include "util/json.hpp"
#include "util/manifest.hpp"
#include "util/text.hpp"

namespace hifsim::eval {
namespace {

// The cost section of a run: activity from the jobs' own values, else seeded normal values
// shaped like every job.
void add_cost(const cfg::UnitConfig& u, const RunRequest& r, const std::vector<perf::Job>& jobs, RunOutcome& o) {
  o.cost_unsupported = cost_unsupported(u);
  if (!o.cost_unsupported.empty()) return;
  OperandStore keep;
  const ActivitySampling sampling{jobs.size(), true, r.cost_options.seed};
  const std::vector<cost::OperandSet> sets = activity_sets(jobs, nullptr, sampling, keep);
  o.cost = run_cost(u, sets, o.totals, r.cost_options);
  if (!o.values) o.cost->activity.source = "seeded normal values (timing-only run)";
}

void write_bytes(JsonWriter& w, const perf::Totals& tot) {
  auto read_write = [&](const char* name, const std::string& prefix) {
    w.key(name).begin_object().kv("read", tot.actions.get(prefix + ".read_bytes")).kv("write", tot.actions.get(prefix + ".write_bytes")).end_object();
  };
  w.key("bytes").begin_object();
  read_write("memory", "memory");
  read_write("buffer_a", "buffer_a");
  read_write("buffer_b", "buffer_b");
  w.key("buffer_acc").begin_object()
      .kv("read", tot.actions.get("buffer_acc.reads") * 4)
      .kv("write", tot.actions.get("buffer_acc.writes") * 4)
      .end_object();
  w.end_object();
}

void write_totals(JsonWriter& w, const cfg::UnitConfig& u, const RunOutcome& o) {
  const perf::Totals& tot = o.totals;
  w.key("totals").begin_object()
      .kv("gemms", tot.gemms)
      .kv("macs", tot.macs)
      .kv("cycles", tot.cycles.total)
      .kv("seconds", static_cast<double>(tot.cycles.total) / (u.clock_ghz * 1e9))
      .kv("utilization", utilization(u, tot));
  w.key("stalls").begin_object()
      .kv("compute", tot.cycles.compute)
      .kv("memory", tot.cycles.memory_stall)
      .kv("fill", tot.cycles.fill)
      .kv("drain", tot.cycles.drain)
      .kv("residual", tot.cycles.residual)
      .kv("bank_stall", tot.cycles.bank_stall)
      .end_object();
  write_bytes(w, tot);
  w.key("actions").begin_object();
  for (const auto& [k, v] : tot.actions.items()) w.kv(k, v);
  w.end_object();
  if (o.values) w.kv("checksum", o.checksum);
  else w.key("checksum").null();
  w.end_object();
}

double cycles_per_second(const RunOutcome& o) {
  return o.wall_seconds > 0 ? static_cast<double>(o.simulated_cycles) / o.wall_seconds : 0.0;
}

}  // namespace

bool computes_values(const RunRequest& r) { return r.values && !(r.workload.trace && r.workload.trace->shape_only()); }

RunOutcome run_unit(const cfg::UnitConfig& u, RunRequest& r, const Engine& engine) {
  RunOutcome o;
  o.values = computes_values(r);
  OperandStore keep;
  std::vector<perf::Job> jobs = o.values ? value_jobs(r.workload, keep) : timing_jobs(r.workload, r.each_instance);
  if (r.keep_result && o.values && !r.workload.trace) jobs.front().keep_result = true;
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<perf::JobResult> res = engine(u, jobs, r.run);
  o.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::string sums;
  for (auto& x : res) {
    o.reports.push_back(x.report);
    sums += x.report.checksum;
    o.simulated_cycles += x.report.cycles.total;
  }
  o.totals = perf::totals(o.reports);
  if (o.values) o.checksum = fnv1a64_hex(sums);
  if (jobs.front().keep_result) o.C = std::move(res.front().C);
  if (r.cost) add_cost(u, r, jobs, o);
  return o;
}

std::string run_result_json(const cfg::UnitConfig& u, const RunRequest& r, const RunOutcome& o, const std::string& config,
                            const std::string& engine) {
  JsonWriter w;
  w.begin_object()
      .kv("schema", "hifsim-run/1")
      .kv("unit", u.name)
      .kv("config", config)
      .kv("format", u.format_name())
      .kv("dataflow", cfg::dataflow_name(u.dataflow))
      .kv("engine", engine)
      .kv("sim_mode", u.mode == cfg::SimMode::at ? "at" : "lt")
      .kv("source", r.workload.source())
      .kv("values", o.values)
      .kv("peak_macs_per_cycle", u.peak_macs_per_cycle())
      .kv("clock_ghz", u.clock_ghz);
  w.key("config_fields").begin_object();
  for (const auto& [k, v] : u.fields) w.kv(k, v);
  w.end_object();
  write_totals(w, u, o);
  w.key("gemms").begin_array();
  for (const auto& rep : o.reports) perf::write_report_json(w, rep, u.clock_ghz);
  w.end_array();
  w.key("run").begin_object()
      .kv("wall_seconds", o.wall_seconds)
      .kv("simulated_cycles", o.simulated_cycles)
      .kv("simulated_cycles_per_second", cycles_per_second(o))
      .end_object();
  if (o.cost) {  // cost model (docs/cost.md)
    w.key("cost");
    cost::write_cost_json(w, *o.cost);
  } else if (!o.cost_unsupported.empty()) {
    w.key("cost").begin_object().kv("unsupported", o.cost_unsupported).end_object();
  }
  w.end_object();
  return w.str() + "\n";
}

std::string run_result_csv(const cfg::UnitConfig& u, const RunOutcome& o) {
  std::string csv = perf::reports_csv(o.reports);
  perf::RunReport t;
  t.name = "TOTAL";
  t.instances = o.totals.gemms;
  t.simulated = o.reports.size();
  t.cycles = o.totals.cycles;
  t.actions = o.totals.actions;
  t.peak_macs_per_cycle = u.peak_macs_per_cycle();
  t.macs = static_cast<uint64_t>(o.totals.macs);
  t.checksum = o.checksum;
  t.tiling.order = "-";
  const std::string line = perf::reports_csv({t});
  return csv + line.substr(line.find('\n') + 1);
}

std::string run_summary(const cfg::UnitConfig& u, const RunOutcome& o, const std::string& engine) {
  const perf::Totals& tot = o.totals;
  return u.name + " (" + engine + "), " + std::to_string(tot.gemms) + " GEMM(s), " + std::to_string(tot.cycles.total) +
         " cycles, utilization " + fmt_g(100.0 * utilization(u, tot), 4) + " %, stalls: memory " +
         std::to_string(tot.cycles.memory_stall) + " fill " + std::to_string(tot.cycles.fill) + " drain " +
         std::to_string(tot.cycles.drain) + (o.values ? ", checksum " + o.checksum : std::string(", timing only")) + "; " +
         fmt_g(o.wall_seconds, 3) + " s wall, " + fmt_g(cycles_per_second(o), 3) + " simulated cycles/s";
}

}  // namespace hifsim::eval
