// hifsim sweep: a design sweep over unit config fields (docs/sweeps.md). Each point is
// evaluated by eval::SweepPointEvaluator (timing, cost and the memoized accuracy of the point's
// arithmetic); this command parses the options, runs, shards or emits the points and merges.
#include <unistd.h>

#include <functional>
#include <iostream>

#include "args.hpp"
#include "command.hpp"
#include "eval/sweep_point.hpp"
#include "files_and_children.hpp"
#include "sweep/merge.hpp"
#include "sweep/run_points.hpp"
#include "sweep/slurm.hpp"
#include "sweep/sweep.hpp"
#include "util/error.hpp"
#include "util/files.hpp"
#include "util/install.hpp"
#include "util/manifest.hpp"


namespace {
using namespace hifsim;

Manifest sweep_manifest(const sweep::SweepSpec& s, const std::vector<std::string>& argv) {
  Manifest m;
  m.command = "sweep";
  m.argv = argv;
  m.add_config(s.file);
  m.add_config(s.base);
  return m;
}

std::string absolute(const std::string& f) {
  if (!f.empty() && f[0] == '/') return f;
  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd)) throw Error(f, "", "cannot resolve the working folder");
  return std::string(cwd) + "/" + f;
}

// --emit-slurm: the three Slurm files and the log folder, nothing submitted.
int emit_slurm(const cli::ArgParser& p, const sweep::SweepSpec& s, size_t points, long long cost_sample,
               const std::vector<std::string>& argv) {
  sweep::SlurmOptions so;
  so.tasks = static_cast<size_t>(p.get_int("emit-slurm", 1, 100000));
  so.throttle = static_cast<size_t>(p.get_int("throttle", 0, 100000));
  so.cpus_per_task = static_cast<unsigned>(p.get_int("cpus-per-task", 1, 1024));
  // Absolute paths: a job starts in whatever folder it was submitted from, on another node.
  so.hifsim = cli::self_exe();
  so.sweep_file = absolute(s.file);
  so.out_dir = absolute(p.get("out"));
  so.eval_args = {"--cost-sample", std::to_string(cost_sample)};
  const sweep::SlurmFiles f = sweep::slurm_files(s, so);  // refuses a folder no #SBATCH line can hold
  const std::string& dir = so.out_dir;
  OutputSet outs(dir + "/manifest-slurm.json");
  for (const char* name : {"/sweep.slurm", "/merge.slurm", "/submit.sh"}) outs.expect(dir + name);
  check_output_dir(dir + "/logs");
  outs.add(dir + "/sweep.slurm", f.array_script, "the job array, one shard per task");
  outs.add(dir + "/merge.slurm", f.merge_script, "the merge job");
  outs.add(dir + "/submit.sh", f.submit_script, "submits the array and the merge after it");
  outs.write();
  make_dirs(dir + "/logs");  // also made by submit.sh: Slurm opens a log before the job starts
  outs.finish(sweep_manifest(s, argv));
  std::cout << "wrote " << dir << "/sweep.slurm (" << so.tasks << " tasks, " << points << " points), merge.slurm and submit.sh\n"
            << "submit: bash " << sweep::shell_quote(dir + "/submit.sh") << "   (the array, then the merge after it)\n"
            << "merge:  " << sweep::shell_quote(so.hifsim) << " sweep --sweep " << sweep::shell_quote(so.sweep_file)
            << " --out " << sweep::shell_quote(dir) << " --cost-sample " << cost_sample << " --merge-only\n";
  return 0;
}

int run(const std::vector<std::string>& args, const std::vector<std::string>& argv) {
  cli::ArgParser p("hifsim sweep --sweep S.yaml --out DIR [--jobs N] [--shard i/N] [--emit-slurm N] [--merge-only]",
                   "Evaluate every point of a design sweep (docs/sweeps.md): cycles, utilization, area, energy,\n"
                   "power and (with an accuracy trace) SQNR per point. Finished points are skipped, so a rerun\n"
                   "resumes an interrupted sweep; results are merged into DIR/results.csv with a Pareto plot.");
  p.option("sweep", "S.yaml", "sweep file (schema hifsim-sweep/1)", std::nullopt, true);
  p.option("out", "DIR", "output folder (records/, results.csv, pareto.png)", std::nullopt, true);
  p.option("jobs", "N", "points evaluated in parallel, 0 = all cores", std::string("0"));
  p.option("shard", "i/N", "run only shard i of N (every N-th point from i); a shard does not merge");
  p.option("emit-slurm", "N", "write DIR/sweep.slurm (a Slurm job array of N shards), DIR/merge.slurm and DIR/submit.sh, and exit");
  p.option("throttle", "K", "with --emit-slurm: at most K array tasks run at once (#SBATCH --array=...%K)", std::string("0"));
  p.option("cpus-per-task", "C", "with --emit-slurm: CPUs per array task, each evaluating C points at once", std::string("1"));
  p.flag("merge-only", "only merge finished points into results.csv (and plot)");
  p.flag("dry-run", "list the points (id and overrides) and exit");
  p.option("max-points", "N", "stop after N new points (0 = no limit; used to test resuming)", std::string("0"));
  p.option("cost-sample", "N", "dot operations whose switching activity is measured per point", std::string("256"));
  p.flag("no-plots", "no Pareto plot and no Parquet copy: no Python at all");
  p.flag("quiet", "no progress bar");
  if (!p.parse(args)) return 0;
  // Options of the Slurm files only: given without --emit-slurm they would be silently ignored.
  for (const auto& [name, def] : {std::pair<const char*, const char*>{"throttle", "0"}, {"cpus-per-task", "1"}})
    if (!p.has("emit-slurm") && p.get(name) != def)
      throw Error("command line", std::string("--") + name, "applies only with --emit-slurm (it sets the Slurm files' job array)");
  sweep::SweepSpec s = sweep::load_sweep(p.get("sweep"));
  const long long cost_sample = p.get_int("cost-sample", 16, 1000000);
  // The sample size changes energies: a non-default one is part of every point id.
  if (cost_sample != 256) s.evaluation = "cost-sample=" + std::to_string(cost_sample);
  const std::vector<sweep::Point> all = sweep::expand(s);
  const std::string out = p.get("out");
  // The points this run evaluates (all, or one shard's): each one's config is checked before
  // anything runs, so a bad axis value fails at once. Only these: at 10^5 points checking all of
  // them costs ~35 s, which every array task and the merge would pay again.
  std::vector<sweep::Point> shard_points;
  sweep::RunOptions ro;
  if (p.has("shard")) {
    const auto [i, n] = sweep::parse_shard(p.get("shard"));
    shard_points = sweep::shard(all, i, n);
    ro.tag = "shard-" + std::to_string(i) + "-of-" + std::to_string(n);
  }
  const std::vector<sweep::Point>& pts = p.has("shard") ? shard_points : all;
  if (!p.is_set("merge-only")) eval::check_sweep_points(s, pts);
  if (p.is_set("dry-run")) {
    for (const auto& pt : all) {
      std::cout << pt.id;
      for (const auto& o : pt.overrides) std::cout << " " << o;
      std::cout << "\n";
    }
    return 0;
  }
  if (p.has("emit-slurm")) return emit_slurm(p, s, all.size(), cost_sample, argv);
  // Python parts this run will need, found before the work (not after hours of it).
  if (!p.is_set("no-plots")) python_module("report.pareto", {}, "pareto plot");

  // A shard writes its records and its own manifest; a full run or --merge-only merges, plots
  // and writes manifest.json last. Every output is checked before the work.
  const bool merging = !p.has("shard");
  OutputSet outs(out + (merging ? "/manifest.json" : "/manifest-" + ro.tag + ".json"));
  if (merging) {
    outs.expect(out + "/results.csv");
    outs.expect(out + "/missing.txt");
    check_folder_entries(out);  // the Python plot and Parquet scripts write there
  }
  if (!p.is_set("merge-only")) {
    eval::UnitEvalOptions uo;
    uo.threads = 1;  // points run in parallel: one thread each
    uo.activity_sample = static_cast<size_t>(cost_sample);
    ro.jobs = static_cast<unsigned>(p.get_int("jobs", 0, 1024));
    ro.quiet = p.is_set("quiet");
    ro.max_points = static_cast<size_t>(p.get_int("max-points", 0, 1LL << 40));
    eval::SweepPointEvaluator evaluate(s, uo);
    sweep::run_points(pts, out, std::ref(evaluate), ro);
  }
  Manifest m = sweep_manifest(s, argv);
  if (!merging) {
    // The other shards may still be writing: the merge runs after them (--merge-only).
    const auto done = sweep::finished_ids(out);
    size_t left = 0;
    for (const auto& pt : pts) left += !done.count(pt.id);
    m.extra.emplace_back("shard", p.get("shard"));
    m.extra.emplace_back("finished", std::to_string(pts.size() - left) + " of " + std::to_string(pts.size()));
    outs.write();
    outs.finish(m);
    if (!p.is_set("quiet"))
      std::cerr << "[sweep] " << ro.tag << ": " << (pts.size() - left) << "/" << pts.size() << " points finished\n";
    return left == 0 ? 0 : 1;
  }
  const sweep::MergedTable t = sweep::merge_table(s, all, out);
  outs.add(out + "/results.csv", t.csv, std::to_string(t.rows) + " of " + std::to_string(all.size()) + " points");
  outs.add(out + "/missing.txt", t.missing, "ids of the points without a result");
  outs.write();
  if (!p.is_set("quiet")) std::cerr << "[sweep] " << t.rows << "/" << all.size() << " points in " << out << "/results.csv\n";
  // Parquet copy of the merged CSV when pyarrow is installed (optional; the script says so if not).
  if (t.rows > 0 && !p.is_set("no-plots")) {
    const PythonCommand parquet = python_module("report.results_parquet", {out + "/results.csv"}, "parquet copy");
    cli::run_child(parquet.argv, parquet.env, "parquet copy");
    if (path_exists(out + "/results.parquet")) outs.add_external(out + "/results.parquet", "results.csv as Parquet");
  }
  if (!p.is_set("no-plots") && t.rows > 0) {
    const PythonCommand pareto = python_module("report.pareto", {out + "/results.csv", "--out", out + "/pareto"}, "pareto plot");
    cli::run_child(pareto.argv, pareto.env, "pareto plot");
    for (const char* f : {"/pareto.png", "/pareto.svg", "/pareto.csv"}) outs.add_external(out + f, "Pareto front");
  }
  outs.finish(m);
  return t.rows == all.size() ? 0 : 1;
}
}  // namespace

HIFSIM_COMMAND("sweep", "design sweep over unit config fields: resumable, parallel, shardable, Slurm", run);
