// The 64-length dot-unit comparison (docs/cost.md, "HiF4 vs NVFP4: the paper's claims").
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "cost/cost.hpp"
#include "gemm/gemm.hpp"
#include "io/input_file.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

namespace hifsim::cost {
namespace {

// Areas in gate equivalents: whole GE with thousands separators (153,900, not 1.539e+05), so the
// columns of the table read and compare at a glance; small values keep one decimal.
std::string ge(double v) {
  if (std::fabs(v) < 1000) return fmt_g(v, 5);
  const long long n = std::llround(v);
  std::string d = std::to_string(n < 0 ? -n : n), o;
  for (size_t i = 0; i < d.size(); ++i) {
    if (i && (d.size() - i) % 3 == 0) o += ',';
    o += d[i];
  }
  return (n < 0 ? "-" : "") + o;
}

// The Yosys synthesis of exactly this unit: the row of its RTL top whose parameters (given, or the
// module's defaults) all equal the unit's, STAGES=0 included (a row without STAGES was synthesised
// at the module's default depth, with pipeline registers). -1 when the snapshot has no such row
// (the report then shows "-", never a row of other parameters).
double measured_rtl(const std::vector<SynthRow>& rows, const dp::hw::UnitDesc& d, double tpg) {
  const std::vector<dp::hw::RtlParam> defaults = dp::hw::rtl_defaults(d.rtl_top);
  for (const auto& r : rows) {
    if (r.module != d.rtl_top) continue;
    bool same = true;
    for (const dp::hw::RtlParam& p : d.rtl_params) {
      int v = p.value - 1;  // a parameter the module does not have never matches
      for (const dp::hw::RtlParam& x : defaults)
        if (x.name == p.name) v = x.value;
      if (const auto it = r.params.find(p.name); it != r.params.end()) v = it->second;
      same = same && v == p.value;
    }
    if (same) return r.transistors / tpg;
  }
  return -1;
}

}  // namespace

std::vector<UnitCompareRow> compare_units(const CostTables& t, const std::vector<fmt::Format>& formats,
                                          const std::vector<OperandSet>& data, const ActivityOptions& o) {
  if (data.empty()) throw Error("cost compare", "data", "no operand set");
  if (formats.empty()) throw Error("cost compare", "formats", "no format given");
  std::vector<SynthRow> synth;
  if (io::not_regular_reason(t.synth_csv) != "does not exist") synth = read_synth_csv(t.synth_csv);  // a FIFO is an error there
  const double tpg = t.area.at("transistors_per_ge");
  std::vector<UnitCompareRow> rows;
  for (const fmt::Format f : formats) {
    UnitSpec s = default_unit_spec(f, 0);  // combinational: no pipeline registers
    s.acc = dp::AccSpec{};                 // FP32 RNE
    UnitSpec s3 = s;                       // the PE view: three register ranks (as hif4_dot64 STAGES=3)
    s3.stages = 3;
    const dp::hw::UnitDesc desc = dp::hw::describe_dot(s);
    const auto dot = dp::hw::inventory(desc);
    const auto acc = acc_inventory(s);
    UnitCompareRow r;
    r.format = fmt::format_info(f).name;
    r.lanes = s.lanes;
    r.config = desc.label;
    r.total_ge = inventory_ge(t.coeffs, dot);
    r.baseline_ge = inventory_ge(t.coeffs, dot, true);
    r.incremental_ge = r.total_ge - r.baseline_ge;
    r.acc_ge = inventory_ge(t.coeffs, acc);
    r.measured_ge = measured_rtl(synth, desc, tpg);
    dp::GemmSpec g;
    g.format = f;
    double wsum = 0;
    for (const auto& x : data) wsum += x.weight;
    Activity act;
    for (size_t i = 0; i < data.size(); ++i) {
      ActivityOptions oi = o;
      oi.sample_dots = std::max<size_t>(64, static_cast<size_t>(static_cast<double>(o.sample_dots) * data[i].weight / wsum));
      oi.seed = o.seed + i;
      act += measure_activity(s3, g, data[i].A, std::min<uint64_t>(data[i].M, kActivityRows), data[i].K, data[i].B,
                              std::min<uint64_t>(data[i].N, kActivityRows), oi);
    }
    std::vector<Component> incr;
    for (const auto& c : dot)
      if (!c.baseline) incr.push_back(c);
    std::vector<std::pair<std::string, double>> bd;
    r.dot_pj = ops_energy_pj(t, dot, &act, &bd);
    for (size_t i = 0; i < dot.size(); ++i) {
      const Component& c = dot[i];
      UnitCompareRow::Part pt;
      pt.name = c.name;
      pt.shape = std::to_string(c.count) + " x " + cls_name(c.kind) + "(" + std::to_string(c.p1) +
                 (c.p2 ? "," + std::to_string(c.p2) : std::string()) + ")";
      pt.what = c.what;
      pt.ge = c.count * component_ge(t.coeffs, c.kind, c.p1, c.p2);
      pt.pj = bd[i].second;
      pt.alpha = act.alpha(c.name);
      pt.baseline = c.baseline;
      r.parts.push_back(pt);
    }
    r.incremental_pj = incr.empty() ? 0.0 : ops_energy_pj(t, incr, &act);
    r.acc_pj = ops_energy_pj(t, acc, &act);
    std::vector<Component> pipes;
    for (const auto& c : dot_inventory(s3))
      if (c.kind == Cls::reg) pipes.push_back(c);
    r.pipe_pj = ops_energy_pj(t, pipes, &act);
    Component opr;
    opr.name = "in.operands";
    opr.kind = Cls::reg;
    opr.p1 = 2 * desc.operand_bits;
    r.operand_pj = ops_energy_pj(t, {opr}, &act);
    r.alpha_products = act.alpha("s1.prod");
    r.dots = act.dots;
    rows.push_back(r);
  }
  return rows;
}

std::string compare_markdown(const std::vector<UnitCompareRow>& rows, const std::string& data_source) {
  const UnitCompareRow* nv = nullptr;
  for (const auto& r : rows)
    if (r.format == "nvfp4") nv = &r;
  auto ratio = [&](double a, double b) { return nv && b > 0 ? fmt_g(a / b, 3) : std::string("-"); };
  std::ostringstream o;
  o << "| unit | model area (GE) | RTL area (GE, Yosys) | shared with FP8/INT8 baseline (GE) | incremental (GE) | "
       "incremental / NVFP4 | area / NVFP4 | energy per dot (pJ) | energy / NVFP4 | PE energy per dot (pJ) | PE / NVFP4 | "
       "product toggle rate |\n";
  o << "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& r : rows) {
    o << "| " << r.config << " | " << ge(r.total_ge) << " | " << (r.measured_ge > 0 ? ge(r.measured_ge) : std::string("-"))
      << " | " << ge(r.baseline_ge) << " | " << ge(r.incremental_ge) << " | "
      << (nv ? ratio(r.incremental_ge, nv->incremental_ge) : "-") << " | " << (nv ? ratio(r.total_ge, nv->total_ge) : "-") << " | "
      << fmt_g(r.dot_pj, 4) << " | " << (nv ? ratio(r.dot_pj, nv->dot_pj) : "-") << " | " << fmt_g(r.pe_pj(), 4) << " | "
      << (nv ? ratio(r.pe_pj(), nv->pe_pj()) : "-") << " | " << fmt_g(r.alpha_products, 3) << " |\n";
  }
  o << "\nPaper (arXiv:2602.11287 section III-B): HiF4 incremental area about 1/3 of NVFP4's (0.33); "
       "HiF4 64-length dot-product power about 10% lower than NVFP4's (0.90).\n";
  o << "Energy per dot: the combinational dot unit. PE energy per dot: + three pipeline register ranks (STAGES=3 cut "
       "points), the FP32 accumulator add and the A/B operand input registers (288 bits each for HiF4/NVFP4).\n";
  o << "Energy measured on: " << data_source << ".\n";
  for (const auto& r : rows) {
    o << "\n### " << r.config << "\n\n| component | shape | area (GE) | shared | toggle rate | pJ per dot | what |\n|---|---|---|---|---|---|---|\n";
    for (const auto& p : r.parts)
      o << "| " << p.name << " | " << p.shape << " | " << ge(p.ge) << " | " << (p.baseline ? "yes" : "no") << " | " << fmt_g(p.alpha, 3)
        << " | " << fmt_g(p.pj, 3) << " | " << p.what << " |\n";
  }
  return o.str();
}

}  // namespace hifsim::cost
