// hifsim run: GEMMs (one, or every op of a trace) through the matrix-unit model of a config:
// cycles, utilization, stall breakdown, bytes per memory level, action counts and a checksum of
// the values (docs/tlm.md). Engine: the SystemC/TLM model (default when built) or the plain
// timing core (--engine analytic; the only one in -DHIFSIM_FAST_ONLY=ON builds). Both give the
// same numbers.

#include <chrono>
#include <iostream>
#include <memory>

#include "args.hpp"
#include "command.hpp"
#include "config/unit_config.hpp"
#include "eval/training_step.hpp"
#include "eval/unit_run.hpp"
#include "options/unit_request.hpp"
#include "perf/autotile.hpp"
#include "request_options.hpp"
#include "io/npy.hpp"
#include "util/error.hpp"
#include "util/files.hpp"
#include "util/manifest.hpp"
#include "util/text.hpp"
#include "train/recipe.hpp"
#if HIFSIM_HAVE_TLM
#include "tlm/run_tlm.hpp"
#endif

namespace {
using namespace hifsim;
using Clock = std::chrono::steady_clock;

// Progress on stderr at most every 2 s (long runs only).
void add_progress(perf::RunOptions& o) {
  auto last = std::make_shared<Clock::time_point>(Clock::now());
  auto current = std::make_shared<std::string>();
  const auto t0 = Clock::now();
  auto due = [last] {
    if (std::chrono::duration<double>(Clock::now() - *last).count() < 2.0) return false;
    *last = Clock::now();
    return true;
  };
  auto secs = [t0] { return fmt_g(std::chrono::duration<double>(Clock::now() - t0).count(), 3); };
  o.progress = [=](const std::string& s) {
    *current = s;
    if (due()) std::cerr << "hifsim run: " << s << " (" << secs() << " s)\n";
  };
  o.step_progress = [=](uint64_t done, uint64_t total) {
    if (due()) std::cerr << "hifsim run: " << *current << ": step " << done << " / " << total << " (" << secs() << " s)\n";
  };
}

cli::ArgParser declare_options() {
  cli::ArgParser p("hifsim run --config U.yaml (--gemm M,N,K [--a A.npy --b B.npy] | --trace T) [--timing-only] --out DIR",
                   "Runs GEMMs through the matrix-unit model of a unit config (docs/tlm.md) and reports cycles,\n"
                   "PE utilization, the stall breakdown (compute / memory / fill / drain), bytes per memory level,\n"
                   "action counts per component and a checksum of the FP32 results (equal to `hifsim gemm`).\n"
                   "Writes DIR/result.json, DIR/result.csv and DIR/manifest.json.");
  p.option("config", "U.yaml", "unit config (schema hifsim-unit/1, e.g. configs/units/hif4-32x32.yaml)", std::nullopt, true);
  p.option("set", "F=V[,F=V...]", "override config fields by dotted path, e.g. array.rows=16,array.cols=16");
  p.option("a", "A.npy", "--gemm operand A, float32 M x K (default: seeded normal values)");
  p.option("b", "B.npy", "--gemm operand B, float32 N x K (default: seeded normal values)");
  p.option("c-out", "C.npy", "--gemm with values: also write the result C (float32 M x N)");
  p.option("trace", "T", "a trace directory or trace.yaml (docs/traces.md); shape-only traces run timing-only");
  cli::declare(p, opt::workload_options());  // --gemm, --ops, --one-layer, --seed
  cli::declare(p, opt::run_options());       // --threads, --cost-sample, --cost-tables
  p.option("recipe", "R", "--trace of a training trace: time a training step under recipe R (configs/recipes/R.yaml or a file): "
                         "its GEMMs in the recipe's formats plus the operand passes (quantize, RHT, transpose); cycles, "
                         "stalls and energy per op kind and format in DIR/training_step.{json,csv} (docs/training.md)");
  p.flag("timing-only", "do not compute values (no checksum); shape-only traces always run this way");
  p.flag("simulate-all", "timing-only traces: simulate every batch x repeat instance instead of one per op "
                         "(instances start from an idle unit, so they are identical)");
#if HIFSIM_HAVE_TLM
  p.option("engine", "E", "tlm (SystemC TLM-2.0 model) | analytic (the same timing core without SystemC)", std::string("tlm"));
#else
  p.option("engine", "E", "analytic (this build has no SystemC: -DHIFSIM_FAST_ONLY=ON)", std::string("analytic"));
#endif
  p.option("out", "DIR", "output folder", std::nullopt, true);
  p.flag("quiet", "no progress or summary on stderr");
  // ---- cost model (docs/cost.md) ----
  p.flag("no-cost", "skip the cost section (area, energy, power, EDP) of the report");
  p.flag("schema", "print every unit-config field (Markdown table: path, type, default, range, meaning) and exit");
  p.epilog(
      "Examples:\n"
      "  hifsim run --config configs/units/hif4-32x32.yaml --gemm 512,512,1024 --out out/g\n"
      "  hifsim run --config configs/units/nvfp4-32x32.yaml --gemm 64,64,256 --a A.npy --b B.npy --out out/v\n"
      "  hifsim run --config configs/units/hif4-32x32.yaml --trace traces/shapes/llama3-8b-prefill2048 --out out/t\n"
      "  hifsim run --config configs/units/hif4-32x32.yaml --set array.dataflow=ws,memory.bytes_per_cycle=128 ...");
  return p;
}

// Every option checked and turned into the request, before anything is written.
eval::RunRequest read_request(const cli::ArgParser& p) {
  if (p.has("gemm") == p.has("trace")) throw Error("command line", "--gemm/--trace", "give exactly one of them");
  if (p.has("a") != p.has("b")) throw Error("command line", "--a/--b", "give both operands or neither");
  if (p.has("a") && !p.has("gemm")) throw Error("command line", "--a", "only with --gemm");
  if (p.has("c-out") && (!p.has("gemm") || p.is_set("timing-only")))
    throw Error("command line", "--c-out", "needs --gemm with values (not --timing-only)");
  eval::RunRequest r = opt::run_request(cli::read(p, opt::workload_options()), cli::read(p, opt::run_options()),
                                        p.has("trace") ? p.get("trace") : "");
  r.values = !p.is_set("timing-only");
  r.each_instance = p.is_set("simulate-all");
  r.keep_result = p.has("c-out");
  r.cost = !p.is_set("no-cost");
  if (p.has("a")) r.workload.a_file = p.get("a"), r.workload.b_file = p.get("b");
  return r;
}

eval::Engine engine_named(const std::string& engine) {
  return [engine](const cfg::UnitConfig& unit, const std::vector<perf::Job>& jobs, const perf::RunOptions& o) {
#if HIFSIM_HAVE_TLM
    if (engine == "tlm") return tlm_model::run_tlm(unit, jobs, o);
#endif
    return perf::run_plain(unit, jobs, o);
  };
}

// --recipe: the trace as a training step (eval/training_step.hpp); timing only.
int run_step_command(const cli::ArgParser& p, const std::vector<std::string>& argv, const cfg::UnitConfig& u,
                      const std::vector<std::string>& overrides, const eval::RunRequest& r, const std::string& engine, bool quiet) {
  if (!p.has("trace")) throw Error("command line", "--recipe", "needs --trace (a training trace)");
  if (p.is_set("simulate-all")) throw Error("command line", "--recipe", "not with --simulate-all");
  const std::string out = p.get("out");
  OutputSet outs(out + "/manifest.json");
  outs.expect(out + "/training_step.json");
  outs.expect(out + "/training_step.csv");
  eval::TrainingStepRequest q;
  q.trace = &*r.workload.trace;
  q.recipe = train::load_recipe(p.get("recipe"));
  q.config = p.get("config");
  q.overrides = overrides;
  q.one_layer = r.workload.one_layer;
  q.cost = r.cost;
  q.cost_options = r.cost_options;
  q.run = r.run;
  q.engine_name = engine;
  if (!quiet && !r.workload.trace->shape_only())
    std::cerr << "hifsim run: --recipe: timing only (the recipe's values: hifsim trace --recipe)\n";
  const eval::TrainingStep s = eval::run_training_step(u, q, engine_named(engine));
  outs.add(out + "/training_step.json", eval::training_step_json(u, s, r.workload.source()),
           "cycles, stalls and energy of the training step per op kind and per format");
  outs.add(out + "/training_step.csv", eval::training_step_csv(s), "one line per (format, kind), per kind and the TOTAL");
  Manifest m;
  m.command = "run";
  m.argv = argv;
  m.add_config(p.get("config"));
  m.add_input(r.workload.trace->manifest);
  m.add_input(q.recipe->path);
  m.extra.emplace_back("unit", u.name);
  m.extra.emplace_back("engine", engine);
  m.extra.emplace_back("recipe", q.recipe->name);
  m.extra.emplace_back("values", "false");
  outs.finish(m);
  std::cout << eval::training_step_text(s);
  return 0;
}

int run(const std::vector<std::string>& args, const std::vector<std::string>& argv) {
  cli::ArgParser p = declare_options();
  // --schema needs no other option: handle it before the required ones are checked.
  for (const auto& a : args)
    if (a == "--schema") {
      std::cout << cfg::schema_markdown(cfg::unit_schema());
      return 0;
    }
  if (!p.parse(args)) return 0;
  const bool quiet = p.is_set("quiet");
  const std::string engine = p.get("engine");
  if (engine != "analytic" && engine != "tlm") throw Error("command line", "--engine", "'" + engine + "' is not tlm or analytic");
#if !HIFSIM_HAVE_TLM
  if (engine == "tlm") throw Error("command line", "--engine", "tlm: this build has no SystemC model (HIFSIM_FAST_ONLY)");
#endif
  std::vector<std::string> overrides;
  if (p.has("set")) overrides = split_list(p.get("set"), ',');
  const cfg::UnitConfig u = cfg::load_unit_config(p.get("config"), overrides);
  eval::RunRequest r = read_request(p);
  const eval::Workload& w = r.workload;
  if (r.values && w.trace && w.trace->shape_only() && !quiet)
    std::cerr << "hifsim run: " << w.trace->manifest << " is shape-only: timing only\n";
  const std::string out = p.get("out");
  if (p.has("recipe")) return run_step_command(p, argv, u, overrides, r, engine, quiet);
  OutputSet outs(out + "/manifest.json");
  outs.expect(out + "/result.json");
  outs.expect(out + "/result.csv");
  if (r.keep_result) outs.expect(p.get("c-out"));
  if (!quiet) add_progress(r.run);
  if (!quiet) perf::set_tiling_progress([](const std::string& s) { std::cerr << s << "\n"; });

  const eval::RunOutcome res = eval::run_unit(u, r, engine_named(engine));
  if (!res.cost_unsupported.empty() && !quiet) std::cerr << "hifsim run: no cost section: " << res.cost_unsupported << "\n";

  outs.add(out + "/result.json", eval::run_result_json(u, r, res, p.get("config"), engine),
           "cycles, stalls, bytes, actions per GEMM and totals");
  outs.add(out + "/result.csv", eval::run_result_csv(u, res), "one line per GEMM and a TOTAL line");
  if (r.keep_result) {
    const std::vector<size_t> shape = {res.reports[0].M, res.reports[0].N};
    outs.add(p.get("c-out"), [shape, &res](const std::string& path) { io::write_npy(path, shape, res.C.data()); },
             "float32 result C");
  }
  Manifest m;
  m.command = "run";
  m.argv = argv;
  m.add_config(p.get("config"));
  if (w.trace) m.add_input(w.trace->manifest);
  if (!w.a_file.empty() && res.values) m.add_input(w.a_file), m.add_input(w.b_file);
  if (!w.trace && w.a_file.empty() && res.values) m.seed = w.seed;
  m.extra.emplace_back("unit", u.name);
  m.extra.emplace_back("engine", engine);
  m.extra.emplace_back("values", res.values ? "true" : "false");
  m.extra.emplace_back("checksum", res.checksum);
  outs.finish(m);
  if (!quiet) {
    std::cerr << "hifsim run: " << eval::run_summary(u, res, engine) << "\n";
    if (res.cost) std::cerr << "hifsim run: cost: " << cost::cost_summary(*res.cost) << "\n";
  }
  return 0;
}
}  // namespace

HIFSIM_COMMAND("run", "GEMMs or a trace through the matrix-unit model: cycles, stalls, bytes, actions, checksum", run);
