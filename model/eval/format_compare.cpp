#include "eval/format_compare.hpp"

#include <optional>
#include <sstream>

#include "eval/error_vs_k.hpp"
#include "eval/unit_eval.hpp"
#include "io/input_file.hpp"
#include "perf/rtl_calibration.hpp"
#include "util/error.hpp"
#include "util/files.hpp"
#include "util/text.hpp"

namespace hifsim::eval {
namespace {

void say(const CompareRequest& r, const std::string& s) {
  if (r.say) r.say(s);
}

// The unit of a config with a correction's residual path (the plain unit for `none`) and, for a
// hif4 unit, the request's HiF4 convention.
cfg::UnitConfig unit_with(const std::string& config, const Correction& c, fmt::Hif4Convention h4) {
  std::vector<std::string> ov;
  if (c.residual.kind != dp::ResidualKind::none)
    ov = {"residual.enabled=true", std::string("residual.kind=") + dp::residual_name(c.residual.kind)};
  cfg::UnitConfig u = cfg::load_unit_config(config, ov);
  if (u.format == fmt::Format::hif4 && h4 != fmt::Hif4Convention::official) u.hif4_convention = h4;
  return u;
}

// The PE's dot unit at sky130 (docs/cost.md section 11): the mapped netlist's area and fmax when
// that RTL instance was synthesised (empty fields otherwise), and the calibrated sky130 energy
// per dot operation on this run's activity.
// Empty fields when the cost folder has no sky130 tables (a user's own folder may be 45 nm only).
void sky130_fields(std::ostringstream& o, const std::optional<cost::CostTables>& t130, const cfg::UnitConfig& u,
                   const cost::CostReport& cr) {
  if (!t130) {
    o << ",,,,,";
    return;
  }
  const cost::NodeDotCost n = cost::node_dot_cost(*t130, u, cr.activity);
  o << "," << n.dot.module << " " << n.dot.parameters << ",";
  if (n.dot.synthesised) o << fmt_g(n.dot.row.area_um2, 6) << "," << fmt_g(n.dot.row.fmax_mhz, 6) << "," << fmt_g(n.dot.row.fmax_ss_mhz, 6);
  else o << ",,";
  o << "," << fmt_g(n.dot_pj, 6);
}

void units_csv_row(std::ostringstream& o, const std::string& fname, const Correction& c, const std::string& config,
                   const cfg::UnitConfig& u, const UnitEval& e, const std::optional<cost::CostTables>& t130) {
  const cost::CostReport& cr = *e.cost;
  const double macs = e.totals.macs;
  o << fname << "," << c.name << "," << config << "," << u.peak_macs_per_cycle() << "," << e.totals.cycles.total << ","
    << fmt_g(e.utilization, 6) << "," << fmt_g(macs, 12) << "," << fmt_g(cr.total_pj / macs, 6) << ","
    << fmt_g(cr.compute_pj / macs, 6) << "," << fmt_g(cr.buffers_pj / macs, 6) << "," << fmt_g(cr.memory_pj / macs, 6)
    << "," << fmt_g(cr.total_mm2, 6) << "," << fmt_g(cr.logic_ge / 1e6, 6) << "," << fmt_g(cr.dot_unit_ge, 6) << ","
    << fmt_g(cr.power_w, 6) << "," << fmt_g(cr.edp_js, 6) << "," << perf::timing_calibration(u).label();
  sky130_fields(o, t130, u, cr);
  o << "\n";
}

// Timing, area and energy of every format's unit, plain and with each correction's residual
// path (ARCQuant is a longer K, not a unit option).
void unit_tables(const CompareRequest& r, OperandCache& cache, CompareOutcome& out) {
  std::ostringstream units, area;
  units << "format,correction,config,peak_macs_per_cycle,cycles,utilization,macs,energy_pj_per_mac,"
           "compute_pj_per_mac,buffers_pj_per_mac,memory_pj_per_mac,area_mm2,logic_mge,dot_unit_ge,power_w,edp_js,timing,"
           "sky130_dot,sky130_dot_um2,sky130_fmax_mhz,sky130_fmax_ss_mhz,sky130_dot_pj\n";
  const std::string tdir = cost::default_tables_dir();
  std::optional<cost::CostTables> t130;
  if (io::not_regular_reason(tdir + "/energy-sky130.yaml") != "does not exist") t130 = cost::load_tables(tdir, "sky130");
  Workload w;
  w.trace = r.trace;
  UnitEvalOptions uo;
  uo.threads = r.threads;
  uo.activity_sample = r.activity_sample;
  uo.operands = &cache;  // every unit measures its activity on the same tensors: read them once
  std::vector<std::string> area_cols;
  std::vector<std::pair<std::string, std::vector<double>>> area_rows;
  for (size_t i = 0; i < r.formats.size(); ++i) {
    const std::string fname = fmt::format_info(r.formats[i]).name;
    for (const auto& c : r.corrections) {
      if (c.arc != -2) continue;
      const cfg::UnitConfig u = unit_with(r.configs[i], c, r.hif4_convention);
      const UnitEval e = evaluate_unit(u, w, uo);
      if (!e.cost) throw Error(r.configs[i], "cost", "the cost model does not cover this unit: " + e.cost_unsupported);
      const cost::CostReport& cr = *e.cost;
      units_csv_row(units, fname, c, r.configs[i], u, e, t130);
      say(r, "unit " + fname + " (" + c.name + "): " + std::to_string(e.totals.cycles.total) + " cycles, utilization " +
                 fmt_g(100 * e.utilization, 4) + " %, " + fmt_g(cr.total_pj / e.totals.macs, 4) + " pJ/MAC, " +
                 fmt_g(cr.total_mm2, 4) + " mm2");
      if (c.residual.kind != dp::ResidualKind::none) continue;
      std::vector<double> vals;
      for (const auto& a : cr.area) {
        if (area_rows.empty()) area_cols.push_back(a.name);
        vals.push_back(a.mm2);
      }
      area_rows.emplace_back(fname, vals);
    }
  }
  out.units_csv = units.str();
  area << "format";
  for (const auto& c : area_cols) area << "," << c;
  area << "\n";
  for (const auto& [f, vals] : area_rows) {
    area << f;
    for (double v : vals) area << "," << fmt_g(v, 6);
    area << "\n";
  }
  out.area_breakdown_csv = area.str();
}

// The 64-length dot-unit comparison against the HiF4 paper's claims, on the first four
// non-attention ops' tensors.
std::string dot_units(const CompareRequest& r, OperandCache& cache) {
  const cost::CostTables ct = cost::load_tables(cost::default_tables_dir());
  std::vector<cost::OperandSet> sets;
  OperandStore keep;
  for (const auto& op : r.trace.ops)
    if (!op.attention() && sets.size() < 4) sets.push_back(trace_operand_set(r.trace, op, 1, keep, &cache));
  cost::ActivityOptions co;
  co.sample_dots = r.activity_sample;
  const auto rows = cost::compare_units(ct, r.formats, sets, co);
  return cost::compare_markdown(rows, r.trace.manifest);
}

}  // namespace

std::vector<std::string> compare_configs(const io::Trace& t, const std::vector<fmt::Format>& formats,
                                         const std::string& configs_dir,
                                         const std::function<std::string(const std::string&)>& locate) {
  if (t.shape_only()) throw Error(t.manifest, "kind", "shape-only trace: the comparison needs tensors (captured traces)");
  for (const auto& op : t.ops)
    if (op.a && !path_exists(t.dir + "/" + op.a->file))
      throw Error(t.manifest, op.name + ".a",
                  "tensor file " + op.a->file + " is missing: run `bash scripts/capture/ensure_traces.sh` first");
  std::vector<std::string> configs;
  for (fmt::Format f : formats) {
    const std::string c = locate(configs_dir + "/" + fmt::format_info(f).name + "-32x32.yaml");
    if (!path_exists(c)) throw Error("--configs", c, "no unit config for " + std::string(fmt::format_info(f).name));
    configs.push_back(c);
  }
  return configs;
}

CompareOutcome compare_formats(const CompareRequest& r) {
  CompareOutcome out;
  say(r, "accuracy: " + std::to_string(r.trace.ops.size()) + " ops x " + std::to_string(r.formats.size()) + " formats x " +
             std::to_string(r.corrections.size()) + " corrections through the bit-exact GEMM engine");
  AccuracyOptions ao;
  ao.formats = r.formats;
  ao.corrections = r.corrections;
  ao.recipes = r.recipes;
  ao.recipe_seed = r.recipe_seed;
  ao.base.threads = r.threads;
  ao.base.quant.threads = r.threads;
  ao.progress = r.op_done;
  OperandCache cache(r.trace);  // each tensor read once for every phase below
  ao.cache = &cache;
  const std::vector<OpAccuracy> acc = evaluate_trace(r.trace, ao);
  out.accuracy = accuracy_tables(acc, "Trace `" + r.trace.manifest + "` (" + r.trace.model_name +
                                          "), accumulator fp32, errors against the FP32 reference.");
  say(r, "GEMM error versus K per accumulator (the longest-K ops, K cut from 64 up)");
  ErrorVsKOptions eo;
  eo.formats = r.formats;
  eo.threads = r.threads;
  out.error_vs_k_csv = error_vs_k_csv(error_vs_k(r.trace, eo, cache));
  unit_tables(r, cache, out);
  out.dot_units_md = dot_units(r, cache);
  return out;
}

}  // namespace hifsim::eval
