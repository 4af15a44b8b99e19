// hifsim cost: area, energy per GEMM / per MAC (compute, buffers, memory), power and EDP of a
// matrix-unit config on a GEMM or a trace (docs/cost.md). Action counts come from the timing
// core (the same numbers as `hifsim run`); switching activity from the bit-exact datapath units
// run on the operands (real tensors when given, else seeded normal values). Also:
//   --compare-units   the 64-length dot-unit comparison (HiF4, NVFP4, MXFP4, HiF8, BF16) vs the
//                     HiF4 paper's claims
//   --fit             the area fit of the synthesis CSV (coefficients and residuals)
//   --inventory       what is costed: a unit's components, widths, ranks and area (CSV)

#include <algorithm>
#include <cmath>
#include <iostream>
#include <optional>

#include "args.hpp"
#include "command.hpp"
#include "config/unit_config.hpp"
#include "cost/cost.hpp"
#include "eval/unit_cost.hpp"
#include "options/unit_request.hpp"
#include "perf/autotile.hpp"
#include "request_options.hpp"
#include "io/npy.hpp"
#include "util/error.hpp"
#include "util/files.hpp"
#include "util/install.hpp"
#include "util/manifest.hpp"
#include "util/text.hpp"

namespace {
using namespace hifsim;

// ---- --fit ----
int run_fit(const cli::ArgParser& p, const cost::CostTables& t) {
  const std::string csv = p.has("csv") ? p.get("csv") : t.synth_csv;
  const auto rows = cost::read_synth_csv(csv);
  const cost::FitResult f = cost::fit_area(rows, t.area.at("transistors_per_ge"), t.area.at("ff_ge"));
  std::cout << "# area fit of " << csv << " (" << f.points.size() << " probe rows), relative least squares per class\n";
  std::cout << "| class | probe | parameters | Yosys GE | model GE | error |\n|---|---|---|---|---|---|\n";
  for (const auto& x : f.points)
    std::cout << "| " << x.family << " | " << x.module << " | " << x.parameters << " | " << fmt_g(x.measured_ge, 6) << " | "
              << fmt_g(x.predicted_ge, 6) << " | " << fmt_g(100 * x.rel(), 3) << " % |\n";
  std::cout << "\nmax |error| " << fmt_g(100 * f.max_abs_rel, 3) << " %, rms " << fmt_g(100 * f.rms_rel, 3) << " %; per class:";
  for (const auto& [k, v] : f.family_max_abs_rel) std::cout << " " << k << " " << fmt_g(100 * v, 3) << "%";
  const cost::AreaCoeffs& c = f.coeffs;
  std::cout << "\n\n# fitted coefficients (configs/cost/area.yaml values):\n";
  const std::pair<const char*, double> kv[] = {
      {"mul_ab", c.mul_ab},   {"mul_lin", c.mul_lin},   {"mul_c", c.mul_c},     {"smul_sq", c.smul_sq}, {"smul_c", c.smul_c}, {"add_w", c.add_w},
      {"add_c", c.add_c},     {"tree_nw", c.tree_nw},   {"tree_nl", c.tree_nl}, {"tree_wo", c.tree_wo},   {"shift_sw", c.shift_sw},
      {"shift_s2", c.shift_s2}, {"norm_wl", c.norm_wl}, {"norm_w2", c.norm_w2}, {"mux_w", c.mux_w},       {"max_w", c.max_w},
      {"dec_e2m1", c.dec_e2m1}, {"dec_hif8", c.dec_hif8}, {"acc_c", c.acc_c},     {"acc_m", c.acc_m},       {"acc_rz", c.acc_rz}};
  for (const auto& [k, v] : kv) {
    std::cout << k << ": " << fmt_g(v, 5);
    const double stored = t.area.at(k);
    if (std::fabs(stored - v) > 1e-3 * std::max(1.0, std::fabs(v))) std::cout << "   (table has " << fmt_g(stored, 5) << ": update it)";
    std::cout << "\n";
  }
  return 0;
}

cli::ArgParser declare_options() {
  cli::ArgParser p(
      "hifsim cost --config U.yaml [--gemm M,N,K [--a A.npy --b B.npy] | --trace T] --out DIR\n"
      "       hifsim cost --compare-units [--trace T | --a A.npy --b B.npy] --out DIR\n"
      "       hifsim cost --fit [--csv FILE]\n"
      "       hifsim cost --inventory [--unit NAME [--set P=V,...]]",
      "Area (GE and mm^2, total and per component), energy per GEMM and per MAC split into compute /\n"
      "buffers / memory, power at the config's clock and the energy-delay product of a matrix-unit\n"
      "config (docs/cost.md). Energy = TLM action counts x per-action energies, where the datapath's\n"
      "per-operation energy comes from bit toggles measured by running the bit-exact units on the\n"
      "operands. Every coefficient comes from configs/cost/ (a missing one is an error).\n"
      "Writes DIR/cost.json, DIR/cost.csv and DIR/manifest.json (--compare-units: DIR/compare.md, .json).");
  p.option("config", "U.yaml", "unit config (schema hifsim-unit/1)");
  p.option("set", "F=V[,F=V...]", "override config fields by dotted path");
  p.option("a", "A.npy", "operand A (float32 M x K): activity from these values");
  p.option("b", "B.npy", "operand B (float32 N x K)");
  p.option("trace", "T", "trace directory or trace.yaml; captured tensors give the activity, shape-only traces seeded normal values");
  cli::declare(p, opt::workload_options());  // --gemm, --ops, --one-layer, --seed
  cli::declare(p, opt::cost_options());      // --sample, --node, --tables, --formats
  p.flag("compare-units", "the 64-length dot-unit comparison (HiF4, NVFP4, MXFP4, HiF8, BF16) with the HiF4 paper's claims");
  p.flag("fit", "print the area fit of the synthesis CSV (coefficients, residuals) and exit");
  p.flag("inventory", "print a unit's costed components, widths, register ranks and area as CSV and exit");
  p.option("unit", "NAME", "--inventory: the unit (hif4_dot64, nvfp4_dot64, ..., `hifsim units` lists them; default all);\n"
                           "--set then gives its RTL parameters, e.g. --set STAGES=3,W=40");
  p.option("csv", "FILE", "--fit: synthesis CSV (default: the tables' synth.csv)");
  p.option("out", "DIR", "output folder");
  p.flag("quiet", "no summary on stderr");
  p.epilog(
      "Examples:\n"
      "  hifsim cost --config configs/units/hif4-32x32.yaml --gemm 512,512,1024 --out out/c\n"
      "  hifsim cost --config configs/units/nvfp4-32x32.yaml --trace traces/smollm2-135m --out out/t\n"
      "  hifsim cost --compare-units --trace traces/smollm2-135m --out out/cmp\n"
      "  hifsim cost --fit\n"
      "  hifsim cost --inventory --unit hif8_dot --set N=16,W=24,STAGES=3");
  return p;
}

// The workload the options name: a trace, operand files, a GEMM shape, or none.
eval::Workload read_workload(const cli::ArgParser& p, const opt::WorkloadOptions& o) {
  if (p.has("a") != p.has("b")) throw Error("command line", "--a/--b", "give both operands or neither");
  eval::Workload w = opt::workload(o, p.has("trace") ? p.get("trace") : "");
  if (p.has("a") && !p.has("trace")) w.a_file = p.get("a"), w.b_file = p.get("b");
  return w;
}

int run(const std::vector<std::string>& args, const std::vector<std::string>& argv) {
  cli::ArgParser p = declare_options();
  if (!p.parse(args)) return 0;
  const bool quiet = p.is_set("quiet");
  if (!quiet) perf::set_tiling_progress([](const std::string& s) { std::cerr << s << "\n"; });
  const opt::CostOptions co = cli::read(p, opt::cost_options());
  const opt::WorkloadOptions wo = cli::read(p, opt::workload_options());
  const std::string dir = co.tables.empty() ? cost::default_tables_dir() : co.tables;
  const cost::CostTables t = cost::load_tables(dir, co.node);
  if (p.is_set("fit")) return run_fit(p, t);
  if (p.is_set("inventory")) {
    const auto params = cost::parse_unit_params(p.has("set") ? split_list(p.get("set"), ',') : std::vector<std::string>{});
    std::cout << cost::inventory_csv(cost::inventory_rows(t.coeffs, p.has("unit") ? p.get("unit") : "", params));
    return 0;
  }

  cost::ActivityOptions ao;
  ao.sample_dots = co.sample;
  ao.seed = wo.seed;
  if (!p.has("out")) throw Error("command line", "--out", "required");
  const std::string out = p.get("out");
  const bool compare = p.is_set("compare-units");
  if (!compare && !p.has("config")) throw Error("command line", "--config", "required (or --compare-units / --fit)");
  const std::vector<fmt::Format> formats = compare ? co.formats : std::vector<fmt::Format>{};
  std::optional<cfg::UnitConfig> u;
  if (!compare) u = cfg::load_unit_config(p.get("config"), p.has("set") ? split_list(p.get("set"), ',') : std::vector<std::string>{});
  eval::Workload w = read_workload(p, wo);

  OutputSet outs(out + "/manifest.json");
  const std::vector<std::string> files = compare ? std::vector<std::string>{"compare.md", "compare.json"}
                                                 : std::vector<std::string>{"cost.json", "cost.csv"};
  for (const std::string& f : files) outs.expect(out + "/" + f);
  Manifest m;
  m.command = "cost";
  m.argv = argv;
  m.seed = ao.seed;
  m.add_config(dir + "/area.yaml");
  m.add_config(dir + "/energy-" + co.node + ".yaml");
  m.add_config(t.sram.file);
  if (w.trace) m.add_input(w.trace->manifest);
  if (!w.a_file.empty()) m.add_input(w.a_file), m.add_input(w.b_file);
  if (compare) {
    const eval::DotUnitComparison c = eval::compare_dot_units(t, formats, w, data_dir(), ao);
    for (const auto& f : c.inputs) m.add_input(f);
    outs.add(out + "/compare.md", c.markdown, "dot-unit comparison table");
    outs.add(out + "/compare.json", c.json, "the same numbers");
    outs.finish(m);
    std::cout << c.markdown;
    return 0;
  }
  m.add_config(p.get("config"));
  const cost::CostReport r = eval::cost_on_workload(t, *u, w, ao);
  outs.add(out + "/cost.json", eval::cost_result_json(*u, p.get("config"), w, r), "area, energy, power, EDP");
  outs.add(out + "/cost.csv", cost::cost_csv(r), "one line per area and energy item");
  m.extra.emplace_back("unit", u->name);
  outs.finish(m);
  const std::string source = w.empty() ? "" : w.source();
  if (!quiet) std::cerr << "hifsim cost: " << u->name << (source.empty() ? "" : " on " + source) << "\n" << cost::cost_summary(r) << "\n";
  return 0;
}
}  // namespace

HIFSIM_COMMAND("cost", "area, energy per GEMM/MAC, power and EDP of a unit config; dot-unit comparison; area fit", run);
