// hifsim compare: the format comparison report (the main job). Per format: accuracy of every op
// of a real LLM layer trace through the bit-exact GEMM engine (with and without the residual
// correction), timing of the trace on an equal-peak matrix unit (the timing core of the TLM
// model), area and energy (the cost model, switching activity measured on the trace's tensors),
// model-level perplexity, then plots and a self-contained HTML report.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "args.hpp"
#include "command.hpp"
#include "cost/cost.hpp"
#include "eval/accuracy_report.hpp"
#include "eval/unit_eval.hpp"
#include "files_and_children.hpp"
#include "gemm_options.hpp"
#include "io/npy.hpp"
#include "util/files.hpp"
#include "util/error.hpp"
#include "util/text.hpp"
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
using Clock = std::chrono::steady_clock;

// A path given on the command line, else the same path under the source tree (so the defaults
// work from any working directory).
std::string locate(const std::string& p) {
  if (path_exists(p) || p.empty() || p[0] == '/') return p;
  const std::string s = std::string(HIFSIM_SOURCE_DIR) + "/" + p;
  return path_exists(s) ? s : p;
}

int run(const std::vector<std::string>& args, const std::vector<std::string>& argv) {
  cli::ArgParser p("hifsim compare [--trace T] [--formats F,...] [--configs DIR] [--out DIR] [options]",
                   "The format comparison report: accuracy (bit-exact GEMM on the trace's tensors, with and\n"
                   "without the residual correction), timing (matrix-unit model), area and energy (cost model),\n"
                   "model-level perplexity; writes report.md, a self-contained report.html, the plots (PNG/SVG)\n"
                   "and the data (CSV/JSON). With no arguments it runs on the shipped SmolLM2 trace.");
  p.option("trace", "T", "captured trace (tensors from scripts/capture/ensure_traces.sh)", std::string("traces/smollm2-135m"));
  p.option("formats", "F,...", "formats to compare", std::string("hif4,nvfp4,mxfp4,hif8,bf16"));
  p.option("configs", "DIR", "unit configs, one <format>-32x32.yaml per format (equal peak throughput)",
           std::string("configs/units"));
  p.option("residual", "R,...", "corrections compared with the plain formats (none, dense, 2:4, top50)",
           std::string("none,2:4"));
  p.option("out", "DIR", "output folder (default reports/<trace name>)");
  p.option("ppl-tokens", "N", "tokens of the perplexity evaluation (0 = skip it)", std::string("128"));
  p.option("cost-sample", "N", "dot operations whose switching activity is measured per unit", std::string("1024"));
  p.option("threads", "N", "worker threads, 0 = all cores (results do not depend on it)", std::string("0"));
  p.flag("no-plots", "write the data only (no Python rendering)");
  p.flag("quiet", "no progress lines");
  if (!p.parse(args)) return 0;
  const bool quiet = p.is_set("quiet");
  auto say = [&](const std::string& s) {
    if (!quiet) std::cerr << "[compare] " << s << "\n";
  };
  const auto t0 = Clock::now();
  const unsigned threads = static_cast<unsigned>(p.get_int("threads", 0, 1024));

  const std::string trace_path = locate(p.get("trace"));
  io::Trace trace = io::read_trace(trace_path);
  if (trace.shape_only())
    throw Error(trace.manifest, "kind", "shape-only trace: the comparison needs tensors (captured traces)");
  for (const auto& op : trace.ops)
    if (op.a && !path_exists(trace.dir + "/" + op.a->file))
      throw Error(trace.manifest, op.name + ".a", "tensor file " + op.a->file +
                                                      " is missing: run `bash scripts/capture/ensure_traces.sh` first");
  std::vector<fmt::Format> formats;
  for (const std::string& f : split_list(p.get("formats"))) {
    const auto fm = fmt::parse_format(f);
    if (!fm || !fmt::format_info(*fm).tensor)
      throw Error("--formats", f, "unknown tensor format; choose from " + fmt::tensor_format_names());
    formats.push_back(*fm);
  }
  if (formats.empty()) throw Error("--formats", p.get("formats"), "no format given");
  std::vector<eval::Correction> corrections;
  for (const std::string& r : split_list(p.get("residual"))) corrections.push_back(eval::Correction::parse(r));
  if (corrections.empty()) corrections.push_back(eval::Correction::parse("none"));
  std::string name = trace.dir;
  while (!name.empty() && name.back() == '/') name.pop_back();
  name = name.substr(name.rfind('/') + 1);
  const std::string out = p.has("out") ? p.get("out") : "reports/" + name;
  const std::string data = out + "/data";
  // Unit configs exist for every format before anything runs.
  std::vector<std::string> configs;
  for (fmt::Format f : formats) {
    const std::string c = locate(p.get("configs") + "/" + fmt::format_info(f).name + "-32x32.yaml");
    if (!path_exists(c)) throw Error("--configs", c, "no unit config for " + std::string(fmt::format_info(f).name));
    configs.push_back(c);
  }
  make_dirs(data);
  Manifest m;
  m.command = "compare";
  m.argv = argv;
  m.add_input(trace.manifest);
  m.extra.emplace_back("trace", trace.manifest);

  // ---- 1. accuracy ----
  say("accuracy: " + std::to_string(trace.ops.size()) + " ops x " + std::to_string(formats.size()) + " formats x " +
      std::to_string(corrections.size()) + " corrections through the bit-exact GEMM engine");
  eval::AccuracyOptions ao;
  ao.formats = formats;
  ao.corrections = corrections;
  ao.base.threads = threads;
  ao.base.quant.threads = threads;
  size_t done = 0;
  const size_t total = trace.ops.size() * formats.size() * corrections.size();
  if (!quiet)
    ao.progress = [&](const std::string&) {
      ++done;
      if (done % std::max<size_t>(1, total / 10) == 0 || done == total)
        std::cerr << "[compare]   " << done << "/" << total << " op runs ("
                  << fmt_g(std::chrono::duration<double>(Clock::now() - t0).count(), 3) << " s)\n";
    };
  const std::vector<eval::OpAccuracy> acc = eval::evaluate_trace(trace, ao);
  const eval::AccuracyFiles af = eval::accuracy_tables(
      acc, "Trace `" + trace.manifest + "` (" + trace.model_name + "), accumulator fp32, errors against the FP32 reference.");
  for (const std::string& f : eval::write_accuracy(af, data, "accuracy_")) m.outputs.emplace_back(f, "accuracy");

  // ---- 2. timing, area, energy per unit (plain and with each correction's residual path) ----
  std::ostringstream units, area;
  units << "format,correction,config,peak_macs_per_cycle,cycles,utilization,macs,energy_pj_per_mac,"
           "compute_pj_per_mac,buffers_pj_per_mac,memory_pj_per_mac,area_mm2,logic_mge,dot_unit_ge,power_w,edp_js\n";
  eval::Workload w;
  w.trace = trace;
  eval::UnitEvalOptions uo;
  uo.threads = threads;
  uo.activity_sample = static_cast<size_t>(p.get_int("cost-sample", 16, 10000000));
  std::vector<std::string> area_cols;
  std::vector<std::pair<std::string, std::vector<double>>> area_rows;
  for (size_t i = 0; i < formats.size(); ++i) {
    const std::string fname = fmt::format_info(formats[i]).name;
    m.add_config(configs[i]);
    for (const auto& c : corrections) {
      if (c.arc != -2) continue;  // ARCQuant is a longer K, not a unit option
      std::vector<std::string> ov;
      if (c.residual.kind != dp::ResidualKind::none)
        ov = {"residual.enabled=true", std::string("residual.kind=") + dp::residual_name(c.residual.kind)};
      const cfg::UnitConfig u = cfg::load_unit_config(configs[i], ov);
      const eval::UnitEval e = eval::evaluate_unit(u, w, uo);
      if (!e.cost) throw Error(configs[i], "cost", "the cost model does not cover this unit: " + e.cost_unsupported);
      const cost::CostReport& cr = *e.cost;
      const double macs = e.totals.macs;
      units << fname << "," << c.name << "," << configs[i] << "," << u.peak_macs_per_cycle() << "," << e.totals.cycles.total
            << "," << fmt_g(e.utilization, 6) << "," << fmt_g(macs, 12) << "," << fmt_g(cr.total_pj / macs, 6) << "," << fmt_g(cr.compute_pj / macs, 6)
            << "," << fmt_g(cr.buffers_pj / macs, 6) << "," << fmt_g(cr.memory_pj / macs, 6) << "," << fmt_g(cr.total_mm2, 6) << ","
            << fmt_g(cr.logic_ge / 1e6, 6) << "," << fmt_g(cr.dot_unit_ge, 6) << "," << fmt_g(cr.power_w, 6) << "," << fmt_g(cr.edp_js, 6) << "\n";
      say("unit " + fname + " (" + c.name + "): " + std::to_string(e.totals.cycles.total) + " cycles, utilization " +
          fmt_g(100 * e.utilization, 4) + " %, " + fmt_g(cr.total_pj / macs, 4) + " pJ/MAC, " + fmt_g(cr.total_mm2, 4) + " mm2");
      if (c.residual.kind == dp::ResidualKind::none) {
        std::vector<double> vals;
        for (const auto& a : cr.area) {
          if (area_rows.empty()) area_cols.push_back(a.name);
          vals.push_back(a.mm2);
        }
        area_rows.emplace_back(fname, vals);
      }
    }
  }
  io::write_file_atomic(data + "/units.csv", units.str());
  std::ostringstream ab;
  ab << "format";
  for (const auto& c : area_cols) ab << "," << c;
  ab << "\n";
  for (const auto& [f, vals] : area_rows) {
    ab << f;
    for (double v : vals) ab << "," << fmt_g(v, 6);
    ab << "\n";
  }
  io::write_file_atomic(data + "/area_breakdown.csv", ab.str());
  m.outputs.emplace_back(data + "/units.csv", "timing, energy, area per unit");
  m.outputs.emplace_back(data + "/area_breakdown.csv", "area by component (mm2)");

  // The 64-length dot-unit comparison against the HiF4 paper's claims, on the trace's tensors.
  {
    const cost::CostTables ct = cost::load_tables(cost::default_tables_dir());
    std::vector<cost::OperandSet> sets;
    std::vector<std::vector<float>> keep;
    for (const auto& op : trace.ops)
      if (!op.attention() && sets.size() < 4) sets.push_back(eval::trace_operand_set(trace, op, 1, keep));
    cost::ActivityOptions co;
    co.sample_dots = uo.activity_sample;
    const auto rows = cost::compare_units(ct, formats, sets, co);
    io::write_file_atomic(data + "/dot_units.md", cost::compare_markdown(rows, trace.manifest));
    m.outputs.emplace_back(data + "/dot_units.md", "64-length dot-unit comparison");
  }

  // ---- 3. model-level perplexity (Python, through libhifsim_c) ----
  const long ppl_tokens = p.get_int("ppl-tokens", 0, 100000);
  std::string ppl_model;
  if (trace.model_name.find("SmolLM2") != std::string::npos) ppl_model = "smollm2";
  if (ppl_tokens > 0 && !ppl_model.empty()) {
    say("perplexity: " + trace.model_name + ", " + std::to_string(ppl_tokens) + " tokens, every linear layer fake-quantized");
    std::string fl;
    for (fmt::Format f : formats) fl += (fl.empty() ? "" : ",") + std::string(fmt::format_info(f).name);
    std::string rl;
    for (const auto& c : corrections)
      if (c.arc == -2) rl += (rl.empty() ? "" : ",") + std::string(dp::residual_name(c.residual.kind));
    cli::run_child({HIFSIM_PYTHON, std::string(HIFSIM_SOURCE_DIR) + "/scripts/eval_perplexity.py", "--model", ppl_model,
               "--tokens", std::to_string(ppl_tokens), "--formats", fl, "--residuals", rl, "--out", data, "--quiet"},
              {"HIFSIM_LIB=" + cli::self_dir() + "/../lib/libhifsim_c.so"}, "perplexity");
    m.outputs.emplace_back(data + "/perplexity.json", "model-level perplexity");
  } else if (ppl_tokens > 0) {
    say("perplexity: skipped (no tokenizer for " + trace.model_name + ")");
  }

  m.extra.emplace_back("seconds", fmt_g(std::chrono::duration<double>(Clock::now() - t0).count(), 4));
  m.write(out + "/manifest.json");

  // ---- 4. report ----
  if (!p.is_set("no-plots")) {
    say("rendering plots and the report");
    std::vector<std::string> cmd = {HIFSIM_PYTHON, std::string(HIFSIM_SOURCE_DIR) + "/scripts/report/render_report.py", out,
                                    "--title", "Format comparison: " + trace.model_name};
    if (quiet) cmd.push_back("--quiet");
    cli::run_child(cmd, {}, "report");
  }
  say("done in " + fmt_g(std::chrono::duration<double>(Clock::now() - t0).count(), 4) + " s: " + out + "/report.html");
  return 0;
}
}  // namespace

HIFSIM_COMMAND("compare", "the format comparison report on a real LLM layer trace (the main job)", run);
