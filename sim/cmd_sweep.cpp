// hifsim sweep: a design sweep over unit config fields (docs/sweeps.md). Each point is
// evaluated by eval::SweepPointEvaluator (timing, cost and the memoized accuracy of the point's
// arithmetic); this command parses the options, runs, shards or emits the points and merges.
#include <sys/stat.h>

#include <functional>
#include <iostream>

#include "args.hpp"
#include "command.hpp"
#include "eval/sweep_point.hpp"
#include "files_and_children.hpp"
#include "io/npy.hpp"
#include "sweep/sweep.hpp"
#include "util/error.hpp"
#include "util/manifest.hpp"

#ifndef HIFSIM_SOURCE_DIR
#define HIFSIM_SOURCE_DIR "."
#endif
#ifndef HIFSIM_PYTHON
#define HIFSIM_PYTHON "python3"
#endif

namespace {
using namespace hifsim;

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
  eval::check_sweep_points(s, all);
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
    eval::UnitEvalOptions uo;
    uo.threads = 1;  // points run in parallel: one thread each
    uo.activity_sample = static_cast<size_t>(p.get_int("cost-sample", 16, 1000000));
    sweep::RunOptions ro;
    ro.jobs = static_cast<unsigned>(p.get_int("jobs", 0, 1024));
    ro.quiet = p.is_set("quiet");
    ro.max_points = static_cast<size_t>(p.get_int("max-points", 0, 1LL << 40));
    eval::SweepPointEvaluator evaluate(s, uo);
    sweep::run_points(pts, out, std::ref(evaluate), ro);
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
