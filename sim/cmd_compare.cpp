// hifsim compare: the format comparison report (the main job). Per format: accuracy of every op
// of a real LLM layer trace through the bit-exact GEMM engine (with and without the residual
// correction), timing of the trace on an equal-peak matrix unit (the timing core of the TLM
// model), area and energy (the cost model, switching activity measured on the trace's tensors),
// model-level perplexity, then plots and a self-contained HTML report.

#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>

#include "args.hpp"
#include "command.hpp"
#include "eval/format_compare.hpp"
#include "eval/training_unit.hpp"
#include "files_and_children.hpp"
#include "gemm_options.hpp"
#include "io/npy.hpp"
#include "train/recipe.hpp"
#include "train/train_run.hpp"
#include "util/error.hpp"
#include "util/files.hpp"
#include "util/install.hpp"
#include "util/manifest.hpp"
#include "util/text.hpp"


namespace {
using namespace hifsim;
using Clock = std::chrono::steady_clock;

cli::ArgParser declare_options() {
  cli::ArgParser p("hifsim compare [--trace T] [--formats F,...] [--configs DIR] [--out DIR] [options]",
                   "The format comparison report: accuracy (bit-exact GEMM on the trace's tensors, with and\n"
                   "without the residual correction), timing (matrix-unit model), area and energy (cost model),\n"
                   "model-level perplexity; writes report.md, a self-contained report.html, the plots (PNG/SVG)\n"
                   "and the data (CSV/JSON). With no arguments it runs on the shipped SmolLM2 trace.");
  p.option("trace", "T", "captured trace (tensors from scripts/capture/ensure_traces.sh); default: SmolLM2, all 30 layers",
           std::string("traces/smollm2-135m-all"));
  p.option("formats", "F,...", "formats to compare", std::string("hif4,nvfp4,mxfp4,hif8,bf16"));
  p.option("configs", "DIR", "unit configs, one <format>-32x32.yaml per format (equal peak throughput)",
           std::string("configs/units"));
  p.option("residual", "R,...", "corrections compared with the plain formats (none, dense, 2:4, top50)",
           std::string("none,2:4"));
  p.option("out", "DIR", "output folder (default reports/<trace name>)");
  p.option("ppl-tokens", "N", "tokens of the perplexity evaluation (0 = skip it)", std::string("128"));
  p.option("ppl-gemm", "G", "perplexity's linear layers: fake (quantized operands), bit-exact (the GEMM engine), both",
           std::string("both"));
  p.option("mismatch-tokens", "N",
           "tokens of the rollout/training mismatch (python -m hifsim.mismatch on SmolLM2, every format but bf16;\n"
           "0 = skip, the default: minutes per format, docs/training.md)", std::string("0"));
  p.option("cost-sample", "N", "dot operations whose switching activity is measured per unit", std::string("1024"));
  p.option("threads", "N", "worker threads, 0 = all cores (results do not depend on it)", std::string("0"));
  p.option("hif4-convention", "C", "hif4 quantizer reference: official | ascend-a6 (docs/formats.md 3.1)",
           std::string("official"));
  p.option("recipe", "R,...",
           "training recipes whose per-kind rules also run every op (configs/recipes/<R>.yaml; accuracy rows\n"
           "recipe:<R>; meant for a training trace such as traces/stories260k-train)");
  p.option("seed", "S", "seed of the recipes' stochastic rounding and RHT (--recipe) and of the training runs", std::string("0"));
  p.option("train-steps", "N",
           "also train stories260K N steps per --train-recipes (hifsim train, the report's training section;\n"
           "0 = skip; skipped with a note when stories260K.bin is not found)", std::string("100"));
  p.option("train-recipes", "R,...", "recipes of the training section", std::string("fp32,bf16,nvfp4,mxfp4,hif4,hif8"));
  p.option("training-unit", "WHEN",
           "the training-unit comparison: area and energy per training step of each format under its own recipe\n"
           "(configs/recipes/<format>.yaml) on its unit, split into dot units, quantizers (RN, SR), RHT, transpose\n"
           "buffer, SRAM and DRAM (docs/training.md): auto = when the trace is a training trace, on, off",
           std::string("auto"));
  p.option("training-unit-node", "NODE",
           "cost node of the training-unit comparison: sky130 (the synthesised blocks' own rows), 45nm, or auto\n"
           "(sky130 when the cost tables have it, else 45nm)", std::string("auto"));
  p.flag("no-plots", "write the data only (no Python rendering)");
  p.flag("quiet", "no progress lines");
  return p;
}

// Model-level perplexity (Python: the hifsim package's bit-exact quantizers and GEMM engine) into
// `data`; only SmolLM2 has a tokenizer here.
bool has_tokenizer(const io::Trace& t) { return t.model_name.find("SmolLM2") != std::string::npos; }

void run_perplexity(const eval::CompareRequest& r, long tokens, const std::string& gemm, const std::string& data) {
  std::string fl, rl;
  for (fmt::Format f : r.formats) fl += (fl.empty() ? "" : ",") + std::string(fmt::format_info(f).name);
  for (const auto& c : r.corrections)
    if (c.arc == -2) rl += (rl.empty() ? "" : ",") + std::string(dp::residual_name(c.residual.kind));
  const PythonCommand ppl = python_module(
      "perplexity", {"--model", "smollm2", "--text", locate_data("traces/text/pride_and_prejudice_ch1.txt"), "--tokens",
                     std::to_string(tokens), "--formats", fl, "--residuals", rl, "--gemm", gemm,
                     "--jobs", std::to_string(r.threads), "--hif4-convention",
                     fmt::hif4_convention_name(r.hif4_convention), "--out", data, "--quiet"},
      "perplexity");
  cli::run_child(ppl.argv, ppl.env, "perplexity");
}

// The rollout/training mismatch (docs/training.md) into `data`: SmolLM2 decoded token by token
// against its full-sequence forward, per format (bf16 is the baseline), the formats side by side.
// --threads is the command's core budget (0 = all cores); the mismatch spends it as formats measured
// in parallel, one process each (its --jobs, same 0 convention; results do not depend on it).
void run_mismatch(const eval::CompareRequest& r, long tokens, const std::string& data) {
  std::string fl;
  for (fmt::Format f : r.formats)
    if (f != fmt::Format::bf16) fl += (fl.empty() ? "" : ",") + std::string(fmt::format_info(f).name);
  const PythonCommand mm = python_module(
      "mismatch", {"--model", "smollm2", "--text", locate_data("traces/text/pride_and_prejudice_ch1.txt"), "--tokens",
                   std::to_string(tokens), "--formats", fl, "--jobs", std::to_string(r.threads), "--hif4-convention",
                   fmt::hif4_convention_name(r.hif4_convention), "--out", data, "--quiet"},
      "mismatch");
  cli::run_child(mm.argv, mm.env, "mismatch");
}

// The report's training section (docs/training.md "Loss gaps"): `hifsim train` of stories260K per
// recipe, same seed and batches, into data/training/<recipe>/{loss.csv,loss.svg}; the renderer
// draws the loss curves and the loss-gap table from them. No runs when N = 0 or the checkpoint is
// missing (the report then lists the section as not run).
struct TrainingSection {
  std::vector<train::TrainRequest> runs;
  std::vector<std::string> dirs;
};

TrainingSection plan_training(const cli::ArgParser& p, const std::string& data, unsigned threads) {
  TrainingSection t;
  const long steps = p.get_int("train-steps", 0, 1000000);
  if (steps == 0) return t;
  const std::string ckpt = train::checkpoint_path("stories260k");
  if (!path_exists(ckpt)) return t;
  for (const std::string& name : split_list(p.get("train-recipes"))) {
    train::TrainRequest r;
    r.checkpoint = ckpt;
    r.text = locate_data("traces/text/pride_and_prejudice_ch1.txt");
    r.recipe = train::load_recipe(name);
    train::check_trainable(r.recipe);
    r.steps = static_cast<int>(steps);
    r.seed = p.get_u64("seed");
    r.threads = threads;
    t.runs.push_back(std::move(r));
    t.dirs.push_back(data + "/training/" + t.runs.back().recipe.name);
  }
  return t;
}

// The training-unit comparison runs on a training trace (one with backward GEMMs) unless told.
bool wants_training_unit(const cli::ArgParser& p, const io::Trace& t) {
  const std::string w = p.get("training-unit");
  if (w == "on") return true;
  if (w == "off") return false;
  if (w != "auto") throw Error("command line", "--training-unit", "expected auto, on or off, got '" + w + "'");
  return std::any_of(t.ops.begin(), t.ops.end(), [](const io::TraceOp& op) { return op.kind == "dgrad" || op.kind == "wgrad"; });
}

int run(const std::vector<std::string>& args, const std::vector<std::string>& argv) {
  cli::ArgParser p = declare_options();
  if (!p.parse(args)) return 0;
  const bool quiet = p.is_set("quiet");
  auto say = [&](const std::string& s) {
    if (!quiet) std::cerr << "[compare] " << s << "\n";
  };
  const auto t0 = Clock::now();
  eval::CompareRequest r;
  r.threads = static_cast<unsigned>(p.get_int("threads", 0, 1024));
  r.activity_sample = static_cast<size_t>(p.get_int("cost-sample", 16, 10000000));
  if (p.get("hif4-convention") == "ascend-a6") r.hif4_convention = fmt::Hif4Convention::ascend_a6;
  else if (p.get("hif4-convention") != "official")
    throw Error("command line", "--hif4-convention", "'" + p.get("hif4-convention") + "' is not official or ascend-a6");
  const long ppl_tokens = p.get_int("ppl-tokens", 0, 100000);
  const long mismatch_tokens = p.get_int("mismatch-tokens", 0, 100000);
  const std::string ppl_gemm = p.get("ppl-gemm");
  if (ppl_gemm != "fake" && ppl_gemm != "bit-exact" && ppl_gemm != "both")
    throw Error("command line", "--ppl-gemm", "expected fake, bit-exact or both, got '" + ppl_gemm + "'");
  r.trace = io::read_trace(locate_data(p.get("trace")));
  r.formats = cli::parse_tensor_formats(p.get("formats"));
  for (const std::string& c : split_list(p.get("residual"))) r.corrections.push_back(eval::Correction::parse(c));
  if (r.corrections.empty()) r.corrections.push_back(eval::Correction::parse("none"));
  if (p.has("recipe"))
    for (const std::string& rc : split_list(p.get("recipe"))) r.recipes.push_back(train::load_recipe(rc));
  r.recipe_seed = p.get_u64("seed");
  r.configs = eval::compare_configs(r.trace, r.formats, p.get("configs"), locate_data);
  std::string name = r.trace.dir;
  while (!name.empty() && name.back() == '/') name.pop_back();
  name = name.substr(name.rfind('/') + 1);
  const std::string out = p.has("out") ? p.get("out") : "reports/" + name;
  const std::string data = out + "/data";
  OutputSet outs(out + "/manifest.json");
  for (const std::string& dir : {out, data, out + "/plots"}) check_folder_entries(dir);
  for (const auto& [path, text] : eval::accuracy_outputs({}, data, "accuracy_")) outs.expect(path);
  for (const char* f : {"units.csv", "area_breakdown.csv", "dot_units.md", "error_vs_k.csv"}) outs.expect(data + "/" + f);
  const TrainingSection training = plan_training(p, data, r.threads);
  const bool training_unit = wants_training_unit(p, r.trace);
  const std::string tu_node = p.get("training-unit-node");
  if (tu_node != "sky130" && tu_node != "45nm" && tu_node != "auto")
    throw Error("command line", "--training-unit-node", "expected sky130, 45nm or auto, got '" + tu_node + "'");
  if (training_unit)
    for (const char* f : {"training_unit.json", "training_unit.csv"}) outs.expect(data + "/" + f);
  for (const std::string& d : training.dirs)
    for (const char* f : {"/loss.csv", "/loss.svg"}) outs.expect(d + f);
  if (!quiet) {
    r.say = say;
    const size_t total = r.trace.ops.size() * (r.formats.size() * r.corrections.size() + r.recipes.size());
    auto done = std::make_shared<size_t>(0);
    r.op_done = [done, total, t0](const std::string&) {
      ++*done;
      if (*done % std::max<size_t>(1, total / 10) == 0 || *done == total)
        std::cerr << "[compare]   " << *done << "/" << total << " op runs ("
                  << fmt_g(std::chrono::duration<double>(Clock::now() - t0).count(), 3) << " s)\n";
    };
  }
  const eval::CompareOutcome res = eval::compare_formats(r);

  for (auto& [path, text] : eval::accuracy_outputs(res.accuracy, data, "accuracy_")) outs.add(path, text, "accuracy");
  outs.add(data + "/units.csv", res.units_csv, "timing, energy, area per unit");
  outs.add(data + "/area_breakdown.csv", res.area_breakdown_csv, "area by component (mm2)");
  outs.add(data + "/dot_units.md", res.dot_units_md, "64-length dot-unit comparison");
  outs.add(data + "/error_vs_k.csv", res.error_vs_k_csv, "GEMM error versus K per accumulator");
  if (training_unit) {
    say("training unit: a training step per format under its own recipe");
    eval::TrainingUnitRequest tu;
    tu.trace = &r.trace;
    tu.formats = r.formats;
    tu.configs = r.configs;
    tu.node = tu_node == "auto" ? "" : tu_node;
    tu.cost_options.activity_sample = r.activity_sample;
    tu.cost_options.threads = r.threads;
    const eval::TrainingUnitTable t = eval::compare_training_units(tu);
    say("training unit: " + t.node + " cost tables");
    outs.add(data + "/training_unit.json", eval::training_unit_json(t), "training unit: area and energy per step by block");
    outs.add(data + "/training_unit.csv", eval::training_unit_csv(t), "training unit: one line per format and block");
  }
  if (training.runs.empty() && p.get("train-steps") != "0")
    say("training: skipped (" + train::checkpoint_path("stories260k") + " not found; set HIFSIM_DATA)");
  for (size_t i = 0; i < training.runs.size(); ++i) {
    const train::TrainRequest& tr = training.runs[i];
    say("training: stories260K, recipe " + tr.recipe.name + ", " + std::to_string(tr.steps) + " steps");
    const train::TrainOutcome res = train::run_training(tr);
    outs.add(training.dirs[i] + "/loss.csv", res.csv, "training loss per step (" + tr.recipe.name + ")");
    outs.add(training.dirs[i] + "/loss.svg", res.svg, "training loss curve (" + tr.recipe.name + ")");
  }
  outs.write();
  if (ppl_tokens > 0 && has_tokenizer(r.trace)) {
    say("perplexity: " + r.trace.model_name + ", " + std::to_string(ppl_tokens) + " tokens, every linear layer " +
        (ppl_gemm == "fake"        ? "fake-quantized"
         : ppl_gemm == "bit-exact" ? "through the bit-exact GEMM engine"
                                   : "fake-quantized, then through the bit-exact GEMM engine"));
    run_perplexity(r, ppl_tokens, ppl_gemm, data);
    outs.add_external(data + "/perplexity.json", "model-level perplexity");
  } else if (ppl_tokens > 0) {
    say("perplexity: skipped (no tokenizer for " + r.trace.model_name + ")");
  }
  const bool beside_bf16 =  // bf16 is every row's baseline: a format beside it is needed
      std::any_of(r.formats.begin(), r.formats.end(), [](fmt::Format f) { return f != fmt::Format::bf16; });
  if (mismatch_tokens > 0 && !beside_bf16) {
    say("rollout/training mismatch: skipped (no format but bf16)");
  } else if (mismatch_tokens > 0 && has_tokenizer(r.trace)) {
    say("rollout/training mismatch: " + r.trace.model_name + ", " + std::to_string(mismatch_tokens) + " tokens");
    run_mismatch(r, mismatch_tokens, data);
    outs.add_external(data + "/mismatch.json", "rollout/training mismatch per format");
    outs.add_external(data + "/mismatch.md", "rollout/training mismatch table");
  } else if (mismatch_tokens > 0) {
    say("rollout/training mismatch: skipped (no tokenizer for " + r.trace.model_name + ")");
  }
  Manifest m;
  m.command = "compare";
  m.argv = argv;
  m.add_input(r.trace.manifest);
  m.extra.emplace_back("trace", r.trace.manifest);
  for (const auto& c : r.configs) m.add_config(c);
  for (const auto& rc : r.recipes) m.add_config(rc.path);
  for (const auto& tr : training.runs) m.add_config(tr.recipe.path);
  if (!training.runs.empty()) {
    m.add_input(training.runs.front().checkpoint);
    m.extra.emplace_back("train_steps", std::to_string(training.runs.front().steps));
  }
  m.extra.emplace_back("seconds", fmt_g(std::chrono::duration<double>(Clock::now() - t0).count(), 4));
  if (!p.is_set("no-plots")) {
    outs.write_manifest(m);  // the report's provenance; removed again if the rendering fails
    say("rendering plots and the report");
    std::vector<std::string> args = {out, "--title", "Format comparison: " + r.trace.model_name};
    if (quiet) args.push_back("--quiet");
    const PythonCommand render = python_module("report.render_report", args, "report");
    cli::run_child(render.argv, render.env, "report");
    outs.add_external(out + "/report.html", "self-contained report");
    outs.add_external(out + "/report.md", "the report as Markdown");
  }
  outs.finish(m);
  say("done in " + fmt_g(std::chrono::duration<double>(Clock::now() - t0).count(), 4) + " s: " + out + "/report.html");
  return 0;
}
}  // namespace

HIFSIM_COMMAND("compare", "the format comparison report on a real LLM layer trace (the main job)", run);
