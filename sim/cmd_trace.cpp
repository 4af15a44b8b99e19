// hifsim trace: every op of an LLM layer trace through the bit-exact GEMM engine, per format
// and correction, with accuracy against the trace's FP32 reference.
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "args.hpp"
#include "command.hpp"
#include "eval/accuracy_report.hpp"
#include "eval/workload.hpp"
#include "gemm_options.hpp"
#include "io/npy.hpp"
#include "train/recipe.hpp"
#include "util/text.hpp"
#include "util/error.hpp"
#include "util/json.hpp"
#include "util/files.hpp"
#include "util/manifest.hpp"

namespace {
using namespace hifsim;

int run(const std::vector<std::string>& args, const std::vector<std::string>& argv) {
  cli::ArgParser p("hifsim trace --trace traces/X --out DIR [--formats F,...] [--residual R,...] [--arc S] [options]",
                   "Run every op of a captured LLM layer trace (docs/traces.md) through the bit-exact GEMM engine\n"
                   "for each format and correction, and report SQNR, relative Frobenius error, cosine\n"
                   "similarity, max abs error and the underflow fraction (nonzero operand values that quantize\n"
                   "to zero) per op, per layer and for the whole trace, against the FP32 reference output.");
  p.option("trace", "T", "trace directory (or its trace.yaml)", std::nullopt, true);
  p.option("out", "DIR", "output folder (ops.csv, layers.csv, summary.csv, kinds.csv, accuracy.json, summary.md)",
           std::nullopt, true);
  p.option("formats", "F,...", "formats to compare (default hif4,nvfp4,mxfp4,hif8,bf16; none with --recipe)");
  p.option("recipe", "R,...",
           "also run every op under these training recipes (configs/recipes/<R>.yaml or a path): each op's GEMM\n"
           "under the rule of its kind and layer, as hifsim train runs it; --seed keys SR and RHT");
  p.option("residual", "R,...", "corrections to run: none, dense, 2:4, top50 (comma list)", std::string("none"));
  p.option("arc", "S", "also run ARCQuant with S channels (a multiple of the format's group) or auto");
  p.option("config", "C.yaml", "not taken: cycles and energy per op are `hifsim run --trace` / `hifsim cost --trace`");
  p.option("ops", "LIST", "only these ops, by op, kind or name (e.g. q_proj,down_proj or wgrad); default all");
  cli::add_gemm_options(p);
  p.flag("quiet", "no progress lines");
  if (!p.parse(args)) return 0;

  eval::AccuracyOptions o;
  const bool recipes = p.has("recipe");
  if (p.has("formats") || !recipes)
    o.formats = cli::parse_tensor_formats(p.has("formats") ? p.get("formats") : "hif4,nvfp4,mxfp4,hif8,bf16");
  o.corrections.clear();
  for (const std::string& r : split_list(p.get("residual"))) o.corrections.push_back(eval::Correction::parse(r));
  if (p.has("arc")) o.corrections.push_back(eval::Correction::parse("arc:" + p.get("arc")));
  o.base = cli::read_gemm_options(p, o.formats.empty() ? *fmt::parse_format("bf16") : o.formats.front());
  if (o.base.rht.on())  // the trace engine quantizes operands itself; a recipe's RHT applies per op
    throw Error("command line", "--rht",
                "applies to hifsim gemm and the training GEMMs; in trace the RHT comes per op from --recipe");
  if (recipes) {
    for (const std::string& r : split_list(p.get("recipe"))) o.recipes.push_back(train::load_recipe(r));
    if (o.recipes.empty()) throw Error("command line", "--recipe", "no recipe given");
    o.recipe_seed = o.base.quant.seed;
  }
  if (p.has("config"))
    throw Error("command line", "--config",
                "trace reports accuracy only; for cycles and energy of a unit config on this trace run `hifsim run --config " +
                    p.get("config") + " --trace " + p.get("trace") + " --out DIR` or `hifsim cost` with the same options");
  if (!p.is_set("quiet")) o.progress = [](const std::string& s) { std::cerr << s << "\n"; };

  io::Trace t = io::read_trace(p.get("trace"));
  if (p.has("ops") && eval::keep_ops_of_kind(t, split_list(p.get("ops"))) == 0)
    throw Error("--ops", p.get("ops"), "no op of the trace matches");
  const std::string dir = p.get("out");
  OutputSet outs(dir + "/manifest.json");
  for (const auto& [path, text] : eval::accuracy_outputs({}, dir, "")) outs.expect(path);
  outs.expect(dir + "/kinds.csv");
  const std::vector<eval::OpAccuracy> rows = eval::evaluate_trace(t, o);

  const eval::AccuracyFiles files = eval::accuracy_tables(
      rows, "Trace `" + t.manifest + "` (" + t.model_name + ", " + std::to_string(t.ops.size()) + " ops), accumulator " +
                o.base.acc.name() + ". Errors against the trace's FP32 reference outputs; underflow = nonzero activation "
                "values that quantize to zero.");
  Manifest m;
  m.command = "trace";
  m.argv = argv;
  m.seed = o.base.quant.seed;
  m.add_input(t.manifest);
  for (const train::Recipe& r : o.recipes) m.add_config(r.path);
  for (auto& [path, text] : eval::accuracy_outputs(files, dir, "")) outs.add(path, text, "accuracy results");
  outs.add(dir + "/kinds.csv", files.kinds_csv, "accuracy per op kind (fprop, dgrad, wgrad, attn_fwd, attn_bwd)");
  outs.finish(m);
  if (!p.is_set("quiet")) std::cout << files.markdown;
  return 0;
}
}  // namespace

HIFSIM_COMMAND("trace", "accuracy of every op of an LLM layer trace per format and correction", run);
