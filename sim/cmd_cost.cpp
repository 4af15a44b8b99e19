// hifsim cost: area, energy per GEMM / per MAC (compute, buffers, memory), power and EDP of a
// matrix-unit config on a GEMM or a trace (docs/cost.md). Action counts come from the timing
// core (the same numbers as `hifsim run`); switching activity from the bit-exact datapath units
// run on the operands (real tensors when given, else seeded normal values). Also:
//   --compare-units   the 64-length dot-unit comparison (HiF4, NVFP4, MXFP4, HiF8, BF16) vs the
//                     HiF4 paper's claims
//   --fit             the area fit of the synthesis CSV (coefficients and residuals)

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>

#include "args.hpp"
#include "command.hpp"
#include "config/unit_config.hpp"
#include "cost/cost.hpp"
#include "eval/unit_eval.hpp"
#include "files_and_children.hpp"
#include "io/npy.hpp"
#include "io/trace.hpp"
#include "perf/runner.hpp"
#include "util/error.hpp"
#include "util/text.hpp"
#include "util/json.hpp"
#include "util/manifest.hpp"

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

int run(const std::vector<std::string>& args, const std::vector<std::string>& argv) {
  cli::ArgParser p(
      "hifsim cost --config U.yaml [--gemm M,N,K [--a A.npy --b B.npy] | --trace T] --out DIR\n"
      "       hifsim cost --compare-units [--trace T | --a A.npy --b B.npy] --out DIR\n"
      "       hifsim cost --fit [--csv FILE]",
      "Area (GE and mm^2, total and per component), energy per GEMM and per MAC split into compute /\n"
      "buffers / memory, power at the config's clock and the energy-delay product of a matrix-unit\n"
      "config (docs/cost.md). Energy = TLM action counts x per-action energies, where the datapath's\n"
      "per-operation energy comes from bit toggles measured by running the bit-exact units on the\n"
      "operands. Every coefficient comes from configs/cost/ (a missing one is an error).\n"
      "Writes DIR/cost.json, DIR/cost.csv and DIR/manifest.json (--compare-units: DIR/compare.md, .json).");
  p.option("config", "U.yaml", "unit config (schema hifsim-unit/1)");
  p.option("set", "F=V[,F=V...]", "override config fields by dotted path");
  p.option("gemm", "M,N,K", "one GEMM C = A*B^T (A M x K, B N x K)");
  p.option("a", "A.npy", "operand A (float32 M x K): activity from these values");
  p.option("b", "B.npy", "operand B (float32 N x K)");
  p.option("trace", "T", "trace directory or trace.yaml; captured tensors give the activity, shape-only traces seeded normal values");
  p.option("ops", "NAMES", "trace: only these op names (comma-separated)");
  p.flag("one-layer", "trace: one decoder layer (ignore each op's repeat)");
  p.option("sample", "N", "dot operations whose activity is measured (split over the ops by MACs)", std::string("4096"));
  p.option("seed", "S", "seed of the sampled outputs and of random operands", std::string("1"));
  p.option("tables", "DIR", "coefficient tables (default: configs/cost of the source tree, or $HIFSIM_COST_TABLES)");
  p.option("node", "NODE", "technology node of the energy/SRAM tables (energy-NODE.yaml)", std::string("45nm"));
  p.flag("compare-units", "the 64-length dot-unit comparison (HiF4, NVFP4, MXFP4, HiF8, BF16) with the HiF4 paper's claims");
  p.option("formats", "F,...", "--compare-units: formats", std::string("hif4,nvfp4,mxfp4,hif8,bf16"));
  p.flag("fit", "print the area fit of the synthesis CSV (coefficients, residuals) and exit");
  p.option("csv", "FILE", "--fit: synthesis CSV (default: the tables' synth.csv)");
  p.option("out", "DIR", "output folder");
  p.flag("quiet", "no summary on stderr");
  p.epilog(
      "Examples:\n"
      "  hifsim cost --config configs/units/hif4-32x32.yaml --gemm 512,512,1024 --out out/c\n"
      "  hifsim cost --config configs/units/nvfp4-32x32.yaml --trace traces/smollm2-135m --out out/t\n"
      "  hifsim cost --compare-units --trace traces/smollm2-135m --out out/cmp\n"
      "  hifsim cost --fit");
  if (!p.parse(args)) return 0;
  const bool quiet = p.is_set("quiet");
  const std::string dir = p.has("tables") ? p.get("tables") : cost::default_tables_dir();
  const cost::CostTables t = cost::load_tables(dir, p.get("node"));
  if (p.is_set("fit")) return run_fit(p, t);

  cost::ActivityOptions ao;
  ao.sample_dots = static_cast<size_t>(p.get_int("sample", 16, 100000000));
  ao.seed = p.get_u64("seed");
  if (!p.has("out")) throw Error("command line", "--out", "required");
  const std::string out = p.get("out");
  if (p.has("a") != p.has("b")) throw Error("command line", "--a/--b", "give both operands or neither");

  Manifest m;
  m.command = "cost";
  m.argv = argv;
  m.seed = ao.seed;
  m.add_config(dir + "/area.yaml");
  m.add_config(dir + "/energy-" + p.get("node") + ".yaml");
  m.add_config(dir + "/sram.yaml");

  // Operands: kept alive here; OperandSets point into them.
  std::vector<std::vector<float>> keep;
  std::vector<cost::OperandSet> sets;
  std::string data_source;
  std::vector<perf::Job> jobs;
  std::string source;
  auto add_set = [&](const std::string& name, std::vector<float> a, std::vector<float> b, uint64_t M, uint64_t N, uint64_t K,
                     double weight) {
    keep.push_back(std::move(a));
    keep.push_back(std::move(b));
    cost::OperandSet s;
    s.name = name;
    s.A = keep[keep.size() - 2].data();
    s.B = keep.back().data();
    s.M = M, s.N = N, s.K = K, s.weight = weight;
    sets.push_back(s);
  };
  const uint64_t seed = ao.seed;
  // Random operands: at most 64 rows each (the activity samples dot operations, not whole GEMMs).
  auto random_set = [&](const std::string& name, uint64_t M, uint64_t N, uint64_t K, double weight, uint64_t stream) {
    const uint64_t m = std::min<uint64_t>(M, 64), n = std::min<uint64_t>(N, 64);
    add_set(name + " (seeded normal values)", cost::random_operands(m, K, seed, 2 * stream), cost::random_operands(n, K, seed, 2 * stream + 1),
            m, n, K, weight);
  };

  if (p.has("trace")) {
    const io::Trace tr = io::read_trace(p.get("trace"));
    m.add_input(tr.manifest);
    source = "trace " + tr.manifest;
    std::vector<std::string> only;
    if (p.has("ops")) only = split_list(p.get("ops"), ',');
    for (const std::string& o : only) {
      bool found = false;
      for (const auto& op : tr.ops) found |= op.name == o;
      if (!found) throw Error(tr.manifest, "ops", "no op named '" + o + "' (--ops)");
    }
    uint64_t stream = 0;
    for (const io::TraceOp& op : tr.ops) {
      if (!only.empty() && std::find(only.begin(), only.end(), op.name) == only.end()) continue;
      const uint64_t reps = p.is_set("one-layer") ? 1 : op.repeat;
      perf::Job j;
      j.name = op.name;
      j.M = op.M, j.N = op.N, j.K = op.K;
      j.instances = op.batch * reps;
      jobs.push_back(j);
      const double w = static_cast<double>(op.M) * op.N * op.K * static_cast<double>(j.instances);
      if (!tr.shape_only() && op.a && op.b) {
        sets.push_back(eval::trace_operand_set(tr, op, w, keep));
      } else {
        random_set(op.name, op.M, op.N, op.K, w, stream);
      }
      ++stream;
    }
    if (jobs.empty()) throw Error(tr.manifest, "ops", "nothing to run");
    data_source = tr.shape_only() ? "seeded normal values (shape-only trace " + tr.manifest + ")" : "tensors of " + tr.manifest;
  } else if (p.has("a")) {
    io::NpyArray A = cli::read_matrix(p.get("a"), "A"), B = cli::read_matrix(p.get("b"), "B");
    if (A.shape[1] != B.shape[1]) throw Error(p.get("b"), "shape", "K differs from A's");
    m.add_input(p.get("a"));
    m.add_input(p.get("b"));
    perf::Job j;
    j.M = A.shape[0], j.N = B.shape[0], j.K = A.shape[1];
    if (p.has("gemm")) {
      const auto d = split_list(p.get("gemm"), ',');
      if (d.size() != 3 || std::stoull(d[0]) != j.M || std::stoull(d[1]) != j.N || std::stoull(d[2]) != j.K)
        throw Error("command line", "--gemm", "does not match the shapes of --a / --b");
    }
    jobs.push_back(j);
    source = "gemm " + std::to_string(j.M) + "," + std::to_string(j.N) + "," + std::to_string(j.K);
    add_set(p.get("a") + " x " + p.get("b"), std::move(A.f32), std::move(B.f32), j.M, j.N, j.K, 1);
    data_source = p.get("a") + ", " + p.get("b");
  } else if (p.has("gemm")) {
    const auto d = split_list(p.get("gemm"), ',');
    if (d.size() != 3) throw Error("command line", "--gemm", "expected M,N,K");
    uint64_t dims[3];
    for (int i = 0; i < 3; ++i) {
      char* e = nullptr;
      const unsigned long long v = std::strtoull(d[static_cast<size_t>(i)].c_str(), &e, 10);
      if (*e || v == 0 || v > (1ull << 31)) throw Error("command line", "--gemm", "M, N, K must be integers in [1, 2^31]");
      dims[i] = v;
    }
    perf::Job j;
    j.M = dims[0], j.N = dims[1], j.K = dims[2];
    jobs.push_back(j);
    source = "gemm " + p.get("gemm");
    random_set("gemm", j.M, j.N, j.K, 1, 0);
    data_source = "seeded normal values (seed " + std::to_string(seed) + ")";
  }

  cli::make_dir(out);
  if (p.is_set("compare-units")) {
    if (sets.empty()) {
      // Default data: the committed sample activation against itself (64 x 1024).
      const std::string sample = std::string(HIFSIM_SOURCE_DIR) + "/traces/sample/activations.npy";
      io::NpyArray A = cli::read_matrix(sample, "A");
      m.add_input(sample);
      std::vector<float> b = A.f32;
      add_set("traces/sample/activations.npy", std::move(A.f32), std::move(b), A.shape[0], A.shape[0], A.shape[1], 1);
      data_source = "traces/sample/activations.npy (64 x 1024) against itself";
    }
    std::vector<fmt::Format> fs;
    for (const auto& n : split_list(p.get("formats"), ',')) {
      const auto f = fmt::parse_format(n);
      if (!f || !fmt::format_info(*f).tensor) throw Error("--formats", n, "unknown tensor format");
      fs.push_back(*f);
    }
    const auto rows = cost::compare_units(t, fs, sets, ao);
    const std::string md = cost::compare_markdown(rows, data_source + ", " + std::to_string(rows.front().dots) +
                                                            " dot operations per unit, seed " + std::to_string(seed));
    io::write_file_atomic(out + "/compare.md", md);
    JsonWriter w;
    w.begin_object().kv("schema", "hifsim-cost-compare/1").kv("data", data_source).kv("node", t.node);
    w.key("units").begin_array();
    for (const auto& r : rows)
      w.begin_object()
          .kv("format", r.format)
          .kv("config", r.config)
          .kv("model_ge", r.total_ge)
          .kv("rtl_ge", r.measured_ge)
          .kv("baseline_ge", r.baseline_ge)
          .kv("incremental_ge", r.incremental_ge)
          .kv("accumulator_ge", r.acc_ge)
          .kv("dot_pj", r.dot_pj)
          .kv("incremental_pj", r.incremental_pj)
          .kv("acc_pj", r.acc_pj)
          .kv("product_toggle_rate", r.alpha_products)
          .kv("dots", r.dots)
          .end_object();
    w.end_array();
    w.key("paper").begin_object().kv("incremental_area_hif4_over_nvfp4", 1.0 / 3.0).kv("power_hif4_over_nvfp4", 0.9).end_object();
    w.end_object();
    io::write_file_atomic(out + "/compare.json", w.str() + "\n");
    m.outputs.emplace_back(out + "/compare.md", "dot-unit comparison table");
    m.outputs.emplace_back(out + "/compare.json", "the same numbers");
    m.write(out + "/manifest.json");
    std::cout << md;
    return 0;
  }

  if (!p.has("config")) throw Error("command line", "--config", "required (or --compare-units / --fit)");
  std::vector<std::string> overrides;
  if (p.has("set")) overrides = split_list(p.get("set"), ',');
  const cfg::UnitConfig u = cfg::load_unit_config(p.get("config"), overrides);
  m.add_config(p.get("config"));
  ao.order = u.dataflow;

  cost::CostReport r;
  if (jobs.empty()) {
    r = cost::evaluate_area(t, u);
  } else {
    const std::vector<perf::JobResult> res = perf::run_plain(u, jobs);
    std::vector<perf::RunReport> reps;
    for (const auto& x : res) reps.push_back(x.report);
    const perf::Totals tot = perf::totals(reps);
    const cost::Activity act = cost::activity_for(u, sets, ao);
    r = cost::evaluate(t, u, tot.actions, tot.cycles.total, tot.macs, static_cast<double>(tot.gemms), act);
    r.activity.source = data_source;
  }
  JsonWriter w;
  w.begin_object().kv("schema", "hifsim-cost-run/1").kv("unit", u.name).kv("config", p.get("config")).kv("source", source);
  w.key("cost");
  cost::write_cost_json(w, r);
  w.end_object();
  io::write_file_atomic(out + "/cost.json", w.str() + "\n");
  io::write_file_atomic(out + "/cost.csv", cost::cost_csv(r));
  m.outputs.emplace_back(out + "/cost.json", "area, energy, power, EDP");
  m.outputs.emplace_back(out + "/cost.csv", "one line per area and energy item");
  m.extra.emplace_back("unit", u.name);
  m.write(out + "/manifest.json");
  if (!quiet) std::cerr << "hifsim cost: " << u.name << (source.empty() ? "" : " on " + source) << "\n" << cost::cost_summary(r) << "\n";
  return 0;
}
}  // namespace

HIFSIM_COMMAND("cost", "area, energy per GEMM/MAC, power and EDP of a unit config; dot-unit comparison; area fit", run);
