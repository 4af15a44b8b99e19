// hifsim run: GEMMs (one, or every op of a trace) through the matrix-unit model of a config:
// cycles, utilization, stall breakdown, bytes per memory level, action counts and a checksum of
// the values (docs/tlm.md). Engine: the SystemC/TLM model (default when built) or the plain
// timing core (--engine analytic; the only one in -DHIFSIM_FAST_ONLY=ON builds). Both give the
// same numbers.

#include <chrono>
#include <cmath>
#include <iostream>
#include <optional>
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
#include "util/rng.hpp"
#if HIFSIM_HAVE_TLM
#include "tlm/run_tlm.hpp"
#endif

namespace {
using namespace hifsim;
using Clock = std::chrono::steady_clock;

std::vector<float> random_matrix(uint64_t rows, uint64_t cols, uint64_t seed, uint64_t stream) {
  std::vector<float> x(rows * cols);
  SplitMix64 r(mix64(seed) ^ mix64(stream + 17));
  for (size_t i = 0; i < x.size(); i += 2) {
    // Box-Muller: standard normal values.
    const double u1 = std::max(r.uniform(), 1e-300), u2 = r.uniform();
    const double rad = std::sqrt(-2.0 * std::log(u1));
    x[i] = static_cast<float>(rad * std::cos(6.283185307179586 * u2));
    if (i + 1 < x.size()) x[i + 1] = static_cast<float>(rad * std::sin(6.283185307179586 * u2));
  }
  return x;
}

int run(const std::vector<std::string>& args, const std::vector<std::string>& argv) {
  cli::ArgParser p("hifsim run --config U.yaml (--gemm M,N,K [--a A.npy --b B.npy] | --trace T) [--timing-only] --out DIR",
                   "Runs GEMMs through the matrix-unit model of a unit config (docs/tlm.md) and reports cycles,\n"
                   "PE utilization, the stall breakdown (compute / memory / fill / drain), bytes per memory level,\n"
                   "action counts per component and a checksum of the FP32 results (equal to `hifsim gemm`).\n"
                   "Writes DIR/result.json, DIR/result.csv and DIR/manifest.json.");
  p.option("config", "U.yaml", "unit config (schema hifsim-unit/1, e.g. configs/units/hif4-32x32.yaml)", std::nullopt, true);
  p.option("set", "F=V[,F=V...]", "override config fields by dotted path, e.g. array.rows=16,array.cols=16");
  p.option("gemm", "M,N,K", "one GEMM C = A*B^T with A M x K, B N x K");
  p.option("a", "A.npy", "--gemm operand A, float32 M x K (default: seeded normal values)");
  p.option("b", "B.npy", "--gemm operand B, float32 N x K (default: seeded normal values)");
  p.option("seed", "S", "seed of the random operands", std::string("1"));
  p.option("c-out", "C.npy", "--gemm with values: also write the result C (float32 M x N)");
  p.option("trace", "T", "a trace directory or trace.yaml (docs/traces.md); shape-only traces run timing-only");
  p.option("ops", "NAMES", "trace: only these op names (comma-separated)");
  p.flag("timing-only", "do not compute values (no checksum); shape-only traces always run this way");
  p.flag("one-layer", "trace: one decoder layer (ignore each op's `repeat`, the number of layers containing it)");
  p.flag("simulate-all", "timing-only traces: simulate every batch x repeat instance instead of one per op "
                         "(instances start from an idle unit, so they are identical)");
#if HIFSIM_HAVE_TLM
  p.option("engine", "E", "tlm (SystemC TLM-2.0 model) | analytic (the same timing core without SystemC)", std::string("tlm"));
#else
  p.option("engine", "E", "analytic (this build has no SystemC: -DHIFSIM_FAST_ONLY=ON)", std::string("analytic"));
#endif
  p.option("threads", "N", "threads of the value engine (0 = all; results do not depend on it)", std::string("0"));
  p.option("out", "DIR", "output folder", std::nullopt, true);
  p.flag("quiet", "no progress or summary on stderr");
  // ---- cost model (docs/cost.md) ----
  p.flag("no-cost", "skip the cost section (area, energy, power, EDP) of the report");
  p.option("cost-tables", "DIR", "cost coefficient tables (default configs/cost, or $HIFSIM_COST_TABLES)");
  p.option("cost-sample", "N", "dot operations whose switching activity the cost model measures", std::string("2048"));
  p.flag("schema", "print every unit-config field (Markdown table: path, type, default, range, meaning) and exit");
  p.epilog(
      "Examples:\n"
      "  hifsim run --config configs/units/hif4-32x32.yaml --gemm 512,512,1024 --out out/g\n"
      "  hifsim run --config configs/units/nvfp4-32x32.yaml --gemm 64,64,256 --a A.npy --b B.npy --out out/v\n"
      "  hifsim run --config configs/units/hif4-32x32.yaml --trace traces/shapes/llama3-8b-prefill2048 --out out/t\n"
      "  hifsim run --config configs/units/hif4-32x32.yaml --set array.dataflow=ws,memory.bytes_per_cycle=128 ...");
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
  const unsigned threads = static_cast<unsigned>(p.get_int("threads", 0, 1024));
  if (p.has("gemm") == p.has("trace")) throw Error("command line", "--gemm/--trace", "give exactly one of them");
  if (p.has("a") != p.has("b")) throw Error("command line", "--a/--b", "give both operands or neither");
  if (p.has("a") && !p.has("gemm")) throw Error("command line", "--a", "only with --gemm");
  const bool timing_only_flag = p.is_set("timing-only");
  const std::string out = p.get("out");
  cli::make_dir(out);

  // ---- build the jobs ----
  std::vector<perf::Job> jobs;
  std::vector<std::vector<float>> keep;  // operand storage
  Manifest m;
  m.command = "run";
  m.argv = argv;
  m.add_config(p.get("config"));
  std::string source;
  bool values = !timing_only_flag;
  if (p.has("gemm")) {
    const auto d = split_list(p.get("gemm"), ',');
    if (d.size() != 3) throw Error("command line", "--gemm", "expected M,N,K");
    uint64_t dims[3];
    for (int i = 0; i < 3; ++i) {
      char* e = nullptr;
      const unsigned long long v = std::strtoull(d[static_cast<size_t>(i)].c_str(), &e, 10);
      if (*e || v == 0 || v > (1ull << 31)) throw Error("command line", "--gemm", "'" + p.get("gemm") + "': M, N, K must be integers in [1, 2^31]");
      dims[i] = v;
    }
    perf::Job j;
    j.name = "gemm";
    j.M = dims[0];
    j.N = dims[1];
    j.K = dims[2];
    j.values = values;
    if (values) {
      if (p.has("a")) {
        io::NpyArray A = cli::read_matrix(p.get("a"), "A"), B = cli::read_matrix(p.get("b"), "B");
        if (A.shape[0] != j.M || A.shape[1] != j.K)
          throw Error(p.get("a"), "shape", io::shape_str(A.shape) + " is not M x K = " + std::to_string(j.M) + " x " + std::to_string(j.K));
        if (B.shape[0] != j.N || B.shape[1] != j.K)
          throw Error(p.get("b"), "shape", io::shape_str(B.shape) + " is not N x K = " + std::to_string(j.N) + " x " + std::to_string(j.K));
        keep.push_back(std::move(A.f32));
        keep.push_back(std::move(B.f32));
        m.add_input(p.get("a"));
        m.add_input(p.get("b"));
      } else {
        const uint64_t seed = p.get_u64("seed");
        m.seed = seed;
        keep.push_back(random_matrix(j.M, j.K, seed, 0));
        keep.push_back(random_matrix(j.N, j.K, seed, 1));
      }
      j.A = keep[keep.size() - 2].data();
      j.B = keep.back().data();
    }
    j.keep_result = values && p.has("c-out");
    jobs.push_back(j);
    source = "gemm " + p.get("gemm");
  } else {
    const io::Trace t = io::read_trace(p.get("trace"));
    m.add_input(t.manifest);
    source = "trace " + t.manifest;
    if (t.shape_only()) {
      if (values && !quiet) std::cerr << "hifsim run: " << t.manifest << " is shape-only: timing only\n";
      values = false;
    }
    std::vector<std::string> only;
    if (p.has("ops")) only = split_list(p.get("ops"), ',');
    for (const std::string& o : only) {
      bool found = false;
      for (const auto& op : t.ops) found |= op.name == o;
      if (!found) throw Error(t.manifest, "ops", "no op named '" + o + "' (--ops)");
    }
    const bool all = p.is_set("simulate-all");
    for (const io::TraceOp& op : t.ops) {
      if (!only.empty() && std::find(only.begin(), only.end(), op.name) == only.end()) continue;
      const uint64_t reps = p.is_set("one-layer") ? 1 : op.repeat;
      const uint64_t inst = op.batch * reps;
      if (!values) {
        perf::Job j;
        j.name = op.name;
        j.M = op.M;
        j.N = op.N;
        j.K = op.K;
        if (all) {
          for (uint64_t i = 0; i < inst; ++i) {
            j.name = op.name + "#" + std::to_string(i);
            jobs.push_back(j);
          }
        } else {
          j.instances = inst;
          jobs.push_back(j);
        }
        continue;
      }
      for (uint64_t bi = 0; bi < op.batch; ++bi) {
        io::Operand a = io::load_operand(t, op, "a", bi), b = io::load_operand(t, op, "b", bi);
        perf::Job j;
        j.name = op.batch > 1 ? op.name + "[" + std::to_string(bi) + "]" : op.name;
        j.M = op.M;
        j.N = op.N;
        j.K = op.K;
        j.values = true;
        j.instances = reps;
        keep.push_back(std::move(a.data));
        keep.push_back(std::move(b.data));
        j.A = keep[keep.size() - 2].data();
        j.B = keep.back().data();
        jobs.push_back(j);
      }
    }
    if (jobs.empty()) throw Error(t.manifest, "ops", "nothing to run");
  }

  // ---- run ----
  perf::RunOptions o;
  o.threads = threads;
  auto last = Clock::now();
  const auto t0 = Clock::now();
  std::string current;
  if (!quiet) {
    // Progress on stderr at most every 2 s (long runs only).
    o.progress = [&](const std::string& s) {
      current = s;
      if (std::chrono::duration<double>(Clock::now() - last).count() < 2.0) return;
      last = Clock::now();
      std::cerr << "hifsim run: " << s << " (" << fmt_g(std::chrono::duration<double>(last - t0).count(), 3) << " s)\n";
    };
    o.step_progress = [&](uint64_t done, uint64_t total) {
      if (std::chrono::duration<double>(Clock::now() - last).count() < 2.0) return;
      last = Clock::now();
      std::cerr << "hifsim run: " << current << ": step " << done << " / " << total << " ("
                << fmt_g(std::chrono::duration<double>(last - t0).count(), 3) << " s)\n";
    };
  }
  std::vector<perf::JobResult> res;
#if HIFSIM_HAVE_TLM
  if (engine == "tlm") res = tlm_model::run_tlm(u, jobs, o);
  else res = perf::run_plain(u, jobs, o);
#else
  res = perf::run_plain(u, jobs, o);
#endif
  const double wall = std::chrono::duration<double>(Clock::now() - t0).count();

  // ---- cost model (docs/cost.md): area, energy per GEMM / MAC, power, EDP -------------------
  // Activity from the jobs' operand values; timing-only jobs use seeded normal values (64 rows).
  std::optional<cost::CostReport> cost_report;
  std::string cost_unsupported;  // a config the cost model does not cover: reported, the run goes on
  if (!p.is_set("no-cost")) {
    try {
      (void)cost::unit_spec(u);
    } catch (const Error& e) {
      cost_unsupported = e.what();
      if (!quiet) std::cerr << "hifsim run: no cost section: " << cost_unsupported << "\n";
    }
  }
  if (!p.is_set("no-cost") && cost_unsupported.empty()) {
    eval::UnitEvalOptions eo;
    eo.cost_tables = p.has("cost-tables") ? p.get("cost-tables") : "";
    eo.activity_sample = static_cast<size_t>(p.get_int("cost-sample", 16, 100000000));
    eo.seed = p.get_u64("seed");
    eo.activity_ops = jobs.size();  // every job contributes (seeded values when it has none)
    std::vector<std::vector<float>> act_keep;
    const std::vector<cost::OperandSet> sets = eval::activity_sets(jobs, nullptr, eo, act_keep);
    std::vector<perf::RunReport> rs;
    for (const auto& r : res) rs.push_back(r.report);
    cost_report = eval::run_cost(u, sets, perf::totals(rs), eo);
    if (!values) cost_report->activity.source = "seeded normal values (timing-only run)";
  }
  // ---- end cost model ----

  // ---- outputs ----
  std::vector<perf::RunReport> reps;
  std::string sums;
  uint64_t sim_cycles = 0;
  for (auto& r : res) {
    reps.push_back(r.report);
    sums += r.report.checksum;
    sim_cycles += r.report.cycles.total;
  }
  const perf::Totals tot = perf::totals(reps);
  const std::string checksum = values ? fnv1a64_hex(sums) : "";
  JsonWriter w;
  w.begin_object()
      .kv("schema", "hifsim-run/1")
      .kv("unit", u.name)
      .kv("config", p.get("config"))
      .kv("format", u.format_name())
      .kv("dataflow", cfg::dataflow_name(u.dataflow))
      .kv("engine", engine)
      .kv("sim_mode", u.mode == cfg::SimMode::at ? "at" : "lt")
      .kv("source", source)
      .kv("values", values)
      .kv("peak_macs_per_cycle", u.peak_macs_per_cycle())
      .kv("clock_ghz", u.clock_ghz);
  w.key("config_fields").begin_object();
  for (const auto& [k, v] : u.fields) w.kv(k, v);
  w.end_object();
  w.key("totals").begin_object()
      .kv("gemms", tot.gemms)
      .kv("macs", tot.macs)
      .kv("cycles", tot.cycles.total)
      .kv("seconds", static_cast<double>(tot.cycles.total) / (u.clock_ghz * 1e9))
      .kv("utilization", tot.cycles.total ? tot.macs / (static_cast<double>(tot.cycles.total) * static_cast<double>(u.peak_macs_per_cycle())) : 0.0);
  w.key("stalls").begin_object()
      .kv("compute", tot.cycles.compute)
      .kv("memory", tot.cycles.memory_stall)
      .kv("fill", tot.cycles.fill)
      .kv("drain", tot.cycles.drain)
      .kv("residual", tot.cycles.residual)
      .kv("bank_stall", tot.cycles.bank_stall)
      .end_object();
  w.key("bytes").begin_object();
  w.key("memory").begin_object().kv("read", tot.actions.get("memory.read_bytes")).kv("write", tot.actions.get("memory.write_bytes")).end_object();
  w.key("buffer_a").begin_object().kv("read", tot.actions.get("buffer_a.read_bytes")).kv("write", tot.actions.get("buffer_a.write_bytes")).end_object();
  w.key("buffer_b").begin_object().kv("read", tot.actions.get("buffer_b.read_bytes")).kv("write", tot.actions.get("buffer_b.write_bytes")).end_object();
  w.key("buffer_acc").begin_object()
      .kv("read", tot.actions.get("buffer_acc.reads") * 4)
      .kv("write", tot.actions.get("buffer_acc.writes") * 4)
      .end_object();
  w.end_object();
  w.key("actions").begin_object();
  for (const auto& [k, v] : tot.actions.items()) w.kv(k, v);
  w.end_object();
  if (values) w.kv("checksum", checksum);
  else w.key("checksum").null();
  w.end_object();
  w.key("gemms").begin_array();
  for (const auto& r : reps) perf::write_report_json(w, r, u.clock_ghz);
  w.end_array();
  w.key("run").begin_object()
      .kv("wall_seconds", wall)
      .kv("simulated_cycles", sim_cycles)
      .kv("simulated_cycles_per_second", wall > 0 ? static_cast<double>(sim_cycles) / wall : 0.0)
      .end_object();
  if (cost_report) {  // cost model (docs/cost.md)
    w.key("cost");
    cost::write_cost_json(w, *cost_report);
  } else if (!cost_unsupported.empty()) {
    w.key("cost").begin_object().kv("unsupported", cost_unsupported).end_object();
  }
  w.end_object();
  io::write_file_atomic(out + "/result.json", w.str() + "\n");

  std::string csv = perf::reports_csv(reps);
  {
    // A TOTAL line (every instance counted).
    perf::RunReport t;
    t.name = "TOTAL";
    t.instances = tot.gemms;
    t.simulated = res.size();
    t.cycles = tot.cycles;
    t.actions = tot.actions;
    t.peak_macs_per_cycle = u.peak_macs_per_cycle();
    t.macs = static_cast<uint64_t>(tot.macs);
    t.checksum = checksum;
    t.tiling.order = "-";
    const std::string line = perf::reports_csv({t});
    csv += line.substr(line.find('\n') + 1);
  }
  io::write_file_atomic(out + "/result.csv", csv);

  if (p.has("c-out")) {
    if (!values || res.size() != 1) throw Error("command line", "--c-out", "needs --gemm with values (not --timing-only)");
    io::write_npy(p.get("c-out"), {res[0].report.M, res[0].report.N}, res[0].C.data());
    m.outputs.emplace_back(p.get("c-out"), "float32 result C");
  }
  m.outputs.emplace_back(out + "/result.json", "cycles, stalls, bytes, actions per GEMM and totals");
  m.outputs.emplace_back(out + "/result.csv", "one line per GEMM and a TOTAL line");
  m.extra.emplace_back("unit", u.name);
  m.extra.emplace_back("engine", engine);
  m.extra.emplace_back("values", values ? "true" : "false");
  m.extra.emplace_back("checksum", checksum);
  m.write(out + "/manifest.json");
  if (!quiet) {
    std::cerr << "hifsim run: " << u.name << " (" << engine << "), " << tot.gemms << " GEMM(s), " << tot.cycles.total
              << " cycles, utilization " << fmt_g(100.0 * (tot.cycles.total ? tot.macs / (static_cast<double>(tot.cycles.total) * static_cast<double>(u.peak_macs_per_cycle())) : 0.0), 4)
              << " %, stalls: memory " << tot.cycles.memory_stall << " fill " << tot.cycles.fill << " drain "
              << tot.cycles.drain << (values ? ", checksum " + checksum : std::string(", timing only")) << "; "
              << fmt_g(wall, 3) << " s wall, " << fmt_g(wall > 0 ? static_cast<double>(sim_cycles) / wall : 0, 3)
              << " simulated cycles/s\n";
    if (cost_report) std::cerr << "hifsim run: cost: " << cost::cost_summary(*cost_report) << "\n";
  }
  return 0;
}
}  // namespace

HIFSIM_COMMAND("run", "GEMMs or a trace through the matrix-unit model: cycles, stalls, bytes, actions, checksum", run);
