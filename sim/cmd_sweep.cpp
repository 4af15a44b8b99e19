// hifsim sweep: a design sweep over unit config fields (docs/sweeps.md). Each point: timing on
// the workload (the TLM model's timing core), area/energy/power (cost model) and, when the sweep
// names an accuracy trace, the accuracy of the point's arithmetic (format, accumulator,
// alignment, residual) on real tensors -- memoized, since most axes do not change values.
#include <sys/stat.h>

#include <future>
#include <optional>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>

#include "args.hpp"
#include "command.hpp"
#include "eval/trace_accuracy.hpp"
#include "eval/unit_eval.hpp"
#include "files_and_children.hpp"
#include "io/npy.hpp"
#include "sweep/sweep.hpp"
#include "util/error.hpp"
#include "util/json.hpp"
#include "util/manifest.hpp"

#ifndef HIFSIM_SOURCE_DIR
#define HIFSIM_SOURCE_DIR "."
#endif
#ifndef HIFSIM_PYTHON
#define HIFSIM_PYTHON "python3"
#endif

namespace {
using namespace hifsim;

struct AccuracyResult {
  double sqnr_db = 0, cosine = 0, rel_frobenius = 0, underflow = 0;
};

// The accuracy of one arithmetic configuration on the sweep's accuracy ops, computed once.
class AccuracyMemo {
 public:
  AccuracyMemo(const sweep::SweepSpec& s) {
    if (s.accuracy_trace.empty()) return;
    trace_ = io::read_trace(s.accuracy_trace);
    if (trace_->shape_only())
      throw Error(s.file, "accuracy.trace", "'" + s.accuracy_trace + "' is shape-only: accuracy needs tensors");
    if (!s.accuracy_ops.empty()) {
      std::vector<io::TraceOp> ops;
      for (const auto& op : trace_->ops)
        for (const auto& k : s.accuracy_ops)
          if (op.op == k || op.name == k) ops.push_back(op);
      if (ops.empty()) throw Error(s.file, "accuracy.ops", "no op of the accuracy trace matches");
      trace_->ops = ops;
    }
  }
  bool enabled() const { return trace_.has_value(); }
  AccuracyResult get(const cfg::UnitConfig& u) {
    const dp::GemmSpec gs = u.gemm_spec(1);
    eval::Correction c = eval::Correction::parse("none");
    if (u.residual) {
      c = eval::Correction::parse(dp::residual_name(u.residual_spec.kind));
      c.residual.mode = u.residual_spec.mode;
    }
    const dp::AlignSpec a = dp::effective_align(gs);
    const std::string key = u.format_name() + "|" + gs.acc.name() + "|" + std::to_string(a.width) + "|" +
                            std::to_string(static_cast<int>(a.policy)) + "|" + std::to_string(gs.hif8_lanes) + "|" +
                            c.name + "|" + std::to_string(static_cast<int>(c.residual.mode));
    // The first thread to ask for a key computes it; the others wait for the same future.
    std::shared_future<AccuracyResult> f;
    std::optional<std::promise<AccuracyResult>> mine;
    {
      std::lock_guard<std::mutex> lk(mu_);
      auto it = memo_.find(key);
      if (it == memo_.end()) {
        mine.emplace();
        f = mine->get_future().share();
        memo_[key] = f;
      } else {
        f = it->second;
      }
    }
    if (mine) {
      try {
        eval::AccuracyOptions o;
        o.formats = {u.format};
        o.corrections = {c};
        o.base = gs;
        eval::ErrorSums sums;
        double under = 0;
        const auto rows = eval::evaluate_trace(*trace_, o);
        for (const auto& r : rows) {
          sums.add(r.sums);
          under += r.underflow_a;
        }
        const auto e = sums.metrics();
        mine->set_value({e.sqnr_db, e.cosine, e.rel_frobenius, rows.empty() ? 0 : under / rows.size()});
      } catch (...) {
        mine->set_exception(std::current_exception());
      }
    }
    return f.get();
  }

 private:
  std::optional<io::Trace> trace_;
  std::mutex mu_;
  std::map<std::string, std::shared_future<AccuracyResult>> memo_;
};

int run(const std::vector<std::string>& args, const std::vector<std::string>& argv) {
  cli::ArgParser p("hifsim sweep --sweep S.yaml --out DIR [--jobs N] [--shard i/N] [--emit-slurm N] [--merge-only]",
                   "Evaluate every point of a design sweep (docs/sweeps.md): cycles, utilization, area, energy,\n"
                   "power and (with an accuracy trace) SQNR per point. Finished points are skipped, so a rerun\n"
                   "resumes an interrupted sweep; results are merged into DIR/results.csv with a Pareto plot.");
  p.option("sweep", "S.yaml", "sweep file (schema hifsim-sweep/1)", std::nullopt, true);
  p.option("out", "DIR", "output folder (points/, results.csv, pareto.png)", std::nullopt, true);
  p.option("jobs", "N", "points evaluated in parallel, 0 = all cores", std::string("0"));
  p.option("shard", "i/N", "run only shard i of N (every N-th point from i)");
  p.option("emit-slurm", "N", "write DIR/sweep.slurm, a Slurm job array of N shards, and exit");
  p.flag("merge-only", "only merge finished points into results.csv (and plot)");
  p.flag("dry-run", "list the points (id and overrides) and exit");
  p.option("max-points", "N", "stop after N new points (0 = no limit; used to test resuming)", std::string("0"));
  p.option("cost-sample", "N", "dot operations whose switching activity is measured per point", std::string("256"));
  p.flag("no-plots", "no Pareto plot (no Python)");
  p.flag("quiet", "no progress bar");
  if (!p.parse(args)) return 0;
  const sweep::SweepSpec s = sweep::load_sweep(p.get("sweep"));
  const std::vector<sweep::Point> all = sweep::expand(s);
  const std::string out = p.get("out");
  // Every point's config is checked before anything runs: a bad axis value fails at once.
  for (const auto& pt : all) cfg::load_unit_config(s.base, pt.overrides);
  if (p.is_set("dry-run")) {
    for (const auto& pt : all) {
      std::cout << pt.id;
      for (const auto& o : pt.overrides) std::cout << " " << o;
      std::cout << "\n";
    }
    return 0;
  }
  if (p.has("emit-slurm")) {
    const long n = p.get_int("emit-slurm", 1, 100000);
    const std::string script = sweep::slurm_script(s, out, static_cast<size_t>(n), cli::self_exe());
    mkdir(out.c_str(), 0777);
    io::write_file_atomic(out + "/sweep.slurm", script);
    std::cout << "wrote " << out << "/sweep.slurm (" << n << " tasks, " << all.size() << " points)\n"
              << "submit: sbatch " << out << "/sweep.slurm\n"
              << "merge:  " << cli::self_exe() << " sweep --sweep " << s.file << " --out " << out << " --merge-only\n";
    return 0;
  }
  if (!p.is_set("merge-only")) {
    std::vector<sweep::Point> pts = all;
    if (p.has("shard")) {
      const auto [i, n] = sweep::parse_shard(p.get("shard"));
      pts = sweep::shard(all, i, n);
    }
    eval::Workload w;
    if (!s.workload_trace.empty()) w.trace = io::read_trace(s.workload_trace);
    else {
      w.M = s.workload_gemm[0];
      w.N = s.workload_gemm[1];
      w.K = s.workload_gemm[2];
    }
    AccuracyMemo memo(s);
    eval::UnitEvalOptions uo;
    uo.threads = 1;  // points run in parallel: one thread each
    uo.activity_sample = static_cast<size_t>(p.get_int("cost-sample", 16, 1000000));
    sweep::RunOptions ro;
    ro.jobs = static_cast<unsigned>(p.get_int("jobs", 0, 1024));
    ro.quiet = p.is_set("quiet");
    ro.max_points = static_cast<size_t>(p.get_int("max-points", 0, 1LL << 40));
    sweep::run_points(pts, out, [&](const sweep::Point& pt) {
      const cfg::UnitConfig u = cfg::load_unit_config(s.base, pt.overrides);
      const eval::UnitEval e = eval::evaluate_unit(u, w, uo);
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
      if (memo.enabled()) {
        const AccuracyResult a = memo.get(u);
        j.kv("sqnr_db", a.sqnr_db).kv("cosine", a.cosine).kv("rel_frobenius", a.rel_frobenius).kv("underflow", a.underflow);
      }
      j.end_object();
      return j.str() + "\n";
    }, ro);
  }
  const size_t rows = sweep::merge_results(s, all, out);
  Manifest m;
  m.command = "sweep";
  m.argv = argv;
  m.add_config(s.file);
  m.add_config(s.base);
  m.outputs.emplace_back(out + "/results.csv", std::to_string(rows) + " of " + std::to_string(all.size()) + " points");
  m.write(out + "/manifest.json");
  if (!p.is_set("quiet")) std::cerr << "[sweep] " << rows << "/" << all.size() << " points in " << out << "/results.csv\n";
  // Parquet copy of the merged CSV when pyarrow is installed (optional; the script says so if not).
  if (rows > 0)
    cli::run_child({HIFSIM_PYTHON, std::string(HIFSIM_SOURCE_DIR) + "/scripts/report/results_parquet.py", out + "/results.csv"},
                   {}, "parquet copy");
  if (!p.is_set("no-plots") && rows > 0)
    cli::run_child({HIFSIM_PYTHON, std::string(HIFSIM_SOURCE_DIR) + "/scripts/report/pareto.py", out + "/results.csv",
                    "--out", out + "/pareto"},
                   {}, "pareto plot");
  return rows == all.size() || p.has("shard") ? 0 : 1;
}
}  // namespace

HIFSIM_COMMAND("sweep", "design sweep over unit config fields: resumable, parallel, shardable, Slurm", run);
