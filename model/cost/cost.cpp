#include "cost/cost.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "gemm/gemm.hpp"
#include "util/error.hpp"
#include "util/json.hpp"
#include "util/rng.hpp"
#include "util/text.hpp"

namespace hifsim::cost {
namespace {

double e_class(const CostTables& t, Cls c) {
  switch (c) {
    case Cls::mul: case Cls::smul: return t.energy.at("e_mul");
    case Cls::add: case Cls::tree: return t.energy.at("e_add");
    case Cls::shift: case Cls::norm: case Cls::mux: case Cls::max: return t.energy.at("e_logic");
    case Cls::fpadd: return t.energy.at("e_fpadd");
    case Cls::dec: return t.energy.at("e_logic");
    case Cls::reg: return t.energy.at("e_ff_toggle");
  }
  throw Error("cost", "class", "unknown component class");
}

double mm2(const CostTables& t, double ge) { return ge * t.energy.at("ge_area_um2") * 1e-6; }

}  // namespace

double ops_energy_pj(const CostTables& t, const std::vector<Component>& inv, const Activity* act,
                     std::vector<std::pair<std::string, double>>* breakdown) {
  const double un = t.energy.at("unmeasured_activity");
  double total_fj = 0;
  for (const Component& c : inv) {
    double fj;
    if (c.kind == Cls::reg) {
      const double bits = static_cast<double>(c.p1) * c.count;
      const double tog = act ? act->toggles_per_dot(c.name) : bits * un;
      if (act && std::fabs(act->bits_per_dot(c.name) - bits) > 0.5)
        throw Error("cost", c.name,
                    "the activity recorded " + fmt_g(act->bits_per_dot(c.name), 4) + " register bits, the inventory has " + fmt_g(bits, 4) +
                        " (internal inconsistency)");
      fj = t.energy.at("e_ff_toggle") * tog + t.energy.at("e_ff_clock") * bits;
    } else {
      const double alpha = act ? act->alpha(c.name) : un;
      fj = e_class(t, c.kind) * c.count * component_ge(t.coeffs, c.kind, c.p1, c.p2) * alpha;
    }
    total_fj += fj;
    if (breakdown) breakdown->emplace_back(c.name, fj * 1e-3);
  }
  return total_fj * 1e-3;
}

// ---------------------------------------------------------------------------------------------

namespace {

struct BufMacro {
  uint64_t macro_bytes = 0, macros = 0;
};
BufMacro buffer_macros(uint64_t bytes, uint64_t banks) {
  BufMacro m;
  m.macros = std::max<uint64_t>(1, banks);
  m.macro_bytes = std::max<uint64_t>(1, bytes / m.macros);
  return m;
}

void fill_area(const CostTables& t, const cfg::UnitConfig& u, CostReport& r) {
  const UnitSpec s = unit_spec(u);
  const auto dot = dot_inventory(s);
  const auto acc = acc_inventory(s);
  r.unit = u.name;
  r.format = u.format_name();
  r.node = t.node;
  r.tables_dir = t.dir;
  r.clock_ghz = u.clock_ghz;
  r.pes = uint64_t{u.rows} * u.cols;
  const double P = static_cast<double>(r.pes);
  r.dot_unit_ge = inventory_ge(t.coeffs, dot, false, true);
  r.pipeline_reg_ge = inventory_ge(t.coeffs, dot) - r.dot_unit_ge;
  r.accumulator_ge = inventory_ge(t.coeffs, acc);
  r.node_dot = node_dot(t.units, dp::hw::describe_dot(s));
  auto logic = [&](const std::string& name, double ge, const std::string& note) {
    r.area.push_back({name, ge, mm2(t, ge), note});
  };
  logic("pe.dot_units", P * r.dot_unit_ge, std::to_string(r.pes) + " x " + fmt_g(r.dot_unit_ge, 6) + " GE");
  logic("pe.pipeline_regs", P * r.pipeline_reg_ge, std::to_string(s.stages) + " register ranks per PE");
  logic("pe.accumulators", P * r.accumulator_ge, "FP32-family adder + register per PE");
  const int ob = operand_bits(s);
  double opregs = 0;
  std::string opnote = "broadcast, output-stationary: none";
  if (u.interconnect == cfg::Interconnect::systolic) {
    opregs += P * 2.0 * ob;
    opnote = "systolic: A and B operand registers per PE";
  }
  if (u.dataflow == cfg::Dataflow::ws) {
    opregs += P * ob * (u.weight_double_buffer ? 2.0 : 1.0);
    opnote += std::string(u.interconnect == cfg::Interconnect::systolic ? "; " : "") + "weight-stationary: weight register" +
              (u.weight_double_buffer ? "s (double)" : "");
  }
  logic("pe.operand_regs", opregs * t.coeffs.ff_ge, opnote);
  if (u.quantizer) {
    const double q = inventory_ge(t.coeffs, quantizer_inventory(u.format, s.lanes));
    logic("quantizer", u.quant_blocks_per_cycle * q, std::to_string(u.quant_blocks_per_cycle) + " block quantizer(s)");
  }
  if (u.residual && u.residual_path == cfg::ResidualPath::dedicated) {
    const double rg = inventory_ge(t.coeffs, residual_inventory(s, u.residual_spec.kind)) + r.accumulator_ge;
    logic("residual.units", P * rg, "dedicated residual array: reduced dot unit + accumulator per PE");
  }
  r.logic_ge = 0;
  for (const auto& a : r.area) r.logic_ge += a.ge;
  r.logic_mm2 = mm2(t, r.logic_ge);
  auto sram = [&](const std::string& name, uint64_t bytes, uint64_t banks, const std::string& why) {
    const BufMacro m = buffer_macros(bytes, banks);
    const SramRow row = t.sram.at(m.macro_bytes, name);
    r.area.push_back({name, 0, row.area_mm2 * static_cast<double>(m.macros),
                      std::to_string(m.macros) + " x " + std::to_string(m.macro_bytes) + "-byte macros (" + why + ")"});
    r.sram_mm2 += row.area_mm2 * static_cast<double>(m.macros);
  };
  sram("buffer_a", u.a.bytes, u.a.banks ? u.a.banks : u.rows, u.a.banks ? "buffers.a.banks" : "banks 0: one per array row");
  sram("buffer_b", u.b.bytes, u.b.banks ? u.b.banks : u.cols, u.b.banks ? "buffers.b.banks" : "banks 0: one per array column");
  sram("buffer_acc", u.acc_buf.bytes, u.drain_width ? u.drain_width : u.cols,
       u.drain_width ? "one per drained value (array.drain_width)" : "one per array column");
  r.total_mm2 = r.logic_mm2 + r.sram_mm2;
}

}  // namespace

CostReport evaluate_area(const CostTables& t, const cfg::UnitConfig& u) {
  CostReport r;
  fill_area(t, u, r);
  return r;
}

CostReport evaluate(const CostTables& t, const cfg::UnitConfig& u, const perf::Actions& a, uint64_t cycles, double macs,
                    double gemms, const Activity& act) {
  CostReport r;
  fill_area(t, u, r);
  const UnitSpec s = unit_spec(u);
  r.activity = act;
  r.activity_order = u.dataflow;
  if (act.transitions == 0) throw Error("cost", "activity", "no activity was measured (need at least two dot operations)");
  const auto dot = dot_inventory(s);
  const auto acc = acc_inventory(s);
  r.dot_pj = ops_energy_pj(t, dot, &act, &r.dot_pj_by_component);
  r.acc_add_pj = ops_energy_pj(t, acc, &act);
  const double un = t.energy.at("unmeasured_activity");
  const double fft = t.energy.at("e_ff_toggle") * 1e-3;  // pJ
  const int ob = operand_bits(s);
  auto item = [&](const std::string& group, const std::string& name, const std::string& action, double count, double pj_each,
                  const std::string& note) {
    r.energy.push_back({group, name, action, count, pj_each, count * pj_each, note});
  };
  auto A = [&](const char* n) { return static_cast<double>(a.get(n)); };
  item("compute", "dot_units", "pe.dot_ops", A("pe.dot_ops"), r.dot_pj, "measured activity");
  item("compute", "accumulators", "acc.adds", A("acc.adds"), r.acc_add_pj, "measured activity");
  item("compute", "acc_loads", "acc.loads", A("acc.loads"), fft * dp::hw::acc_register_bits(s.acc) * un,
       "register load at unmeasured_activity");
  item("compute", "epilogue_muls", "acc.epilogue_muls", A("acc.epilogue_muls"), t.energy.at("fp32_mul_pj"), "per-op FP32 multiply");
  item("compute", "residual_adds", "acc.residual_adds", A("acc.residual_adds"), t.energy.at("fp32_add_pj"), "per-op FP32 add");
  item("compute", "residual_products", "residual.products", A("residual.products"), r.dot_pj / s.lanes,
       "main-unit energy per product (residual activity not traced)");
  if (u.interconnect == cfg::Interconnect::systolic) {
    const double bits = act.bits_per_dot("in.operands");
    item("compute", "operand_regs", "pe.dot_ops", A("pe.dot_ops"),
         fft * act.toggles_per_dot("in.operands") + t.energy.at("e_ff_clock") * 1e-3 * bits,
         "systolic A/B operand registers, measured operand toggles");
  }
  item("compute", "weight_loads", "array.weight_loads", A("array.weight_loads"), fft * ob * un, "weight register write at unmeasured_activity");
  if (A("quantizer.blocks") + A("quantizer.residual_blocks") > 0) {
    const double q = ops_energy_pj(t, quantizer_inventory(u.format, s.lanes), nullptr);
    item("compute", "quantizer", "quantizer.blocks+residual_blocks", A("quantizer.blocks") + A("quantizer.residual_blocks"), q,
         "quantizer at unmeasured_activity (no stage trace)");
  }
  auto bufE = [&](const std::string& name, const char* rd, const char* wr, double bytes_per, uint64_t bytes, uint64_t banks) {
    const BufMacro m = buffer_macros(bytes, banks);
    const SramRow row = t.sram.at(m.macro_bytes, name);
    item("buffers", name + ".read", rd, A(rd) * bytes_per, row.read_pj_per_byte, std::to_string(m.macro_bytes) + "-byte macros");
    item("buffers", name + ".write", wr, A(wr) * bytes_per, row.write_pj_per_byte, std::to_string(m.macro_bytes) + "-byte macros");
  };
  bufE("buffer_a", "buffer_a.read_bytes", "buffer_a.write_bytes", 1, u.a.bytes, u.a.banks ? u.a.banks : u.rows);
  bufE("buffer_b", "buffer_b.read_bytes", "buffer_b.write_bytes", 1, u.b.bytes, u.b.banks ? u.b.banks : u.cols);
  bufE("buffer_acc", "buffer_acc.reads", "buffer_acc.writes", 4, u.acc_buf.bytes, u.drain_width ? u.drain_width : u.cols);
  item("memory", "dram.read", "memory.read_bytes", A("memory.read_bytes"), t.energy.at("dram_pj_per_byte"), "");
  item("memory", "dram.write", "memory.write_bytes", A("memory.write_bytes"), t.energy.at("dram_pj_per_byte"), "");
  for (const auto& e : r.energy) {
    if (e.group == "compute") r.compute_pj += e.pj;
    else if (e.group == "buffers") r.buffers_pj += e.pj;
    else r.memory_pj += e.pj;
  }
  r.total_pj = r.compute_pj + r.buffers_pj + r.memory_pj;
  r.macs = macs;
  r.gemms = gemms;
  r.cycles = cycles;
  r.seconds = static_cast<double>(cycles) / (u.clock_ghz * 1e9);
  r.power_w = r.seconds > 0 ? r.total_pj * 1e-12 / r.seconds : 0.0;
  r.edp_js = r.total_pj * 1e-12 * r.seconds;
  r.notes = {
      "dynamic energy only: no leakage; idle PE cycles are clock-gated (no energy)",
      "operand distribution wires across the array, the DMA engine and control are not modelled",
      "quantizer and residual-path energies use unmeasured_activity / the main unit's per-product energy",
      "per-toggle coefficients are order-of-magnitude proxies derived from Horowitz ISSCC 2014 (45 nm) and the Yosys area fit",
  };
  // The clock is the config's; the synthesised dot unit says whether the node can reach it at the
  // sign-off (slow) corner, and whether even the typical corner does.
  if (r.node_dot.synthesised && u.clock_ghz * 1e3 > r.node_dot.row.fmax_ss_mhz) {
    const bool tt = u.clock_ghz * 1e3 > r.node_dot.row.fmax_mhz;
    r.notes.push_back("clock_ghz " + fmt_g(u.clock_ghz, 4) + " exceeds the " + r.node + " sign-off fmax of the PE's dot unit (" + r.node_dot.module +
                      " " + r.node_dot.parameters + ": " + fmt_g(r.node_dot.row.fmax_ss_mhz, 4) + " MHz at ss" +
                      (tt ? ", " + fmt_g(r.node_dot.row.fmax_mhz, 4) + " MHz at tt" : "") +
                      "): power and time assume a clock the netlist does not meet" + (tt ? "" : " at the slow corner"));
  }
  return r;
  return r;
}

// ---------------------------------------------------------------------------------------------

// "node_dot_unit": the PE's dot unit at the node (null when the node has no synthesised units).
static void write_node_dot(JsonWriter& w, const NodeDot& n) {
  w.key("node_dot_unit");
  if (n.node.empty()) {
    w.null();
    return;
  }
  w.begin_object().kv("module", n.module).kv("parameters", n.parameters).kv("synthesised", n.synthesised);
  if (n.synthesised) {
    const NodeUnitRow& x = n.row;
    w.kv("area_um2", x.area_um2).kv("cells", x.cells).kv("flip_flops", x.flip_flops).kv("min_period_ns", x.min_period_ns).kv("fmax_mhz", x.fmax_mhz)
        .kv("min_period_ss_ns", x.min_period_ss_ns).kv("fmax_ss_mhz", x.fmax_ss_mhz);
    if (x.gate_pj >= 0) w.kv("gate_level_pj_per_op", x.gate_pj).kv("gate_level_trace_op", x.energy_trace);
  }
  w.end_object();
}

void write_cost_json(JsonWriter& w, const CostReport& r) {
  w.begin_object()
      .kv("schema", "hifsim-cost/1")
      .kv("node", r.node)
      .kv("tables", r.tables_dir)
      .kv("format", r.format)
      .kv("clock_ghz", r.clock_ghz)
      .kv("pes", r.pes);
  w.key("area").begin_object()
      .kv("total_mm2", r.total_mm2)
      .kv("logic_ge", r.logic_ge)
      .kv("logic_mm2", r.logic_mm2)
      .kv("sram_mm2", r.sram_mm2)
      .kv("pe_dot_unit_ge", r.dot_unit_ge)
      .kv("pe_pipeline_reg_ge", r.pipeline_reg_ge)
      .kv("pe_accumulator_ge", r.accumulator_ge);
  w.key("items").begin_array();
  for (const auto& a : r.area) w.begin_object().kv("name", a.name).kv("ge", a.ge).kv("mm2", a.mm2).kv("note", a.note).end_object();
  w.end_array().end_object();
  write_node_dot(w, r.node_dot);
  if (r.activity.transitions == 0) {
    w.end_object();
    return;
  }
  w.key("activity").begin_object()
      .kv("source", r.activity.source)
      .kv("order", cfg::dataflow_name(r.activity_order))
      .kv("dots", r.activity.dots)
      .kv("transitions", r.activity.transitions);
  w.key("components").begin_object();
  for (const auto& [k, b] : r.activity.bit_sum) {
    (void)b;
    w.key(k).begin_object().kv("alpha", r.activity.alpha(k)).kv("toggles_per_dot", r.activity.toggles_per_dot(k)).end_object();
  }
  w.end_object().end_object();
  w.key("energy_per_op_pj").begin_object().kv("dot", r.dot_pj).kv("acc_add", r.acc_add_pj);
  w.key("dot_components").begin_object();
  for (const auto& [k, v] : r.dot_pj_by_component) w.kv(k, v);
  w.end_object().end_object();
  w.key("energy_pj").begin_object()
      .kv("compute", r.compute_pj)
      .kv("buffers", r.buffers_pj)
      .kv("memory", r.memory_pj)
      .kv("total", r.total_pj);
  w.key("items").begin_array();
  for (const auto& e : r.energy)
    w.begin_object()
        .kv("group", e.group)
        .kv("name", e.name)
        .kv("action", e.action)
        .kv("count", e.count)
        .kv("pj_each", e.pj_each)
        .kv("pj", e.pj)
        .kv("note", e.note)
        .end_object();
  w.end_array().end_object();
  const double m = r.macs > 0 ? r.macs : 1;
  w.key("energy_per_mac_pj").begin_object()
      .kv("compute", r.compute_pj / m)
      .kv("buffers", r.buffers_pj / m)
      .kv("memory", r.memory_pj / m)
      .kv("total", r.total_pj / m)
      .end_object();
  w.kv("energy_per_gemm_pj", r.gemms > 0 ? r.total_pj / r.gemms : 0.0)
      .kv("macs", r.macs)
      .kv("cycles", r.cycles)
      .kv("seconds", r.seconds)
      .kv("power_w", r.power_w)
      .kv("edp_js", r.edp_js);
  w.key("notes").begin_array();
  for (const auto& n : r.notes) w.value(n);
  w.end_array();
  w.end_object();
}

std::string cost_summary(const CostReport& r) {
  std::ostringstream o;
  o << "area " << fmt_g(r.total_mm2, 4) << " mm2 (logic " << fmt_g(r.logic_ge / 1e6, 4) << " MGE = " << fmt_g(r.logic_mm2, 4) << " mm2, SRAM "
    << fmt_g(r.sram_mm2, 4) << " mm2; per PE: dot unit " << fmt_g(r.dot_unit_ge, 5) << " GE, accumulator " << fmt_g(r.accumulator_ge, 5)
    << " GE) at " << r.node;
  const NodeDot& n = r.node_dot;
  if (n.synthesised)
    o << "\ndot unit " << n.module << " " << n.parameters << " synthesised at " << n.node << ": " << fmt_g(n.row.area_um2, 6) << " um2, "
      << n.row.cells << " cells, critical path " << fmt_g(n.row.min_period_ns, 4) << " ns = fmax " << fmt_g(n.row.fmax_mhz, 4)
      << " MHz at tt, " << fmt_g(n.row.fmax_ss_mhz, 4) << " MHz at ss (sign-off)";
  else if (!n.node.empty())
    o << "\ndot unit " << n.module << " " << n.parameters << ": not synthesised at " << n.node << " (no area um2 / fmax)";
  if (r.activity.transitions) {
    const double m = r.macs > 0 ? r.macs : 1;
    o << "\nenergy " << fmt_g(r.total_pj * 1e-6, 4) << " uJ (compute " << fmt_g(r.compute_pj * 1e-6, 4) << ", buffers " << fmt_g(r.buffers_pj * 1e-6, 4)
      << ", memory " << fmt_g(r.memory_pj * 1e-6, 4) << "); per MAC " << fmt_g(r.total_pj / m, 4) << " pJ (compute " << fmt_g(r.compute_pj / m, 4)
      << ", buffers " << fmt_g(r.buffers_pj / m, 4) << ", memory " << fmt_g(r.memory_pj / m, 4) << "); dot op " << fmt_g(r.dot_pj, 4)
      << " pJ, accumulator add " << fmt_g(r.acc_add_pj, 4) << " pJ";
    o << "\npower " << fmt_g(r.power_w, 4) << " W at " << fmt_g(r.clock_ghz, 4) << " GHz, EDP " << fmt_g(r.edp_js, 4) << " J*s";
  }
  return o.str();
}

std::string cost_csv(const CostReport& r) {
  std::ostringstream o;
  o << "kind,group,name,action,count,ge,mm2,pj_each,pj\n";
  for (const auto& a : r.area) o << "area,," << a.name << ",,," << a.ge << "," << a.mm2 << ",,\n";
  for (const auto& e : r.energy) o << "energy," << e.group << "," << e.name << "," << e.action << "," << e.count << ",,," << e.pj_each << "," << e.pj << "\n";
  o << "total,,area,,,," << r.total_mm2 << ",,\n";
  o << "total,,energy,,,,,," << r.total_pj << "\n";
  return o.str();
}

// ---------------------------------------------------------------------------------------------

std::vector<float> random_operands(uint64_t rows, uint64_t K, uint64_t seed, uint64_t stream) {
  return normal_values(rows * K, SplitMix64(mix64(seed) ^ mix64(stream + 0xC0571u)));
}

Activity activity_for(const cfg::UnitConfig& u, const std::vector<OperandSet>& sets, const ActivityOptions& o) {
  if (sets.empty()) throw Error("cost activity", "operands", "no operand set");
  const UnitSpec s = unit_spec(u);
  const dp::GemmSpec g = u.gemm_spec();
  double wsum = 0;
  for (const auto& x : sets) wsum += x.weight;
  Activity act;
  for (size_t i = 0; i < sets.size(); ++i) {
    const OperandSet& x = sets[i];
    if (!x.A || !x.B) throw Error("cost activity", x.name, "operand set without data");
    ActivityOptions oi = o;
    oi.sample_dots = std::max<size_t>(64, static_cast<size_t>(std::llround(static_cast<double>(o.sample_dots) * x.weight / wsum)));
    oi.seed = o.seed + i;
    // The sample is drawn from the first kActivityRows rows of A and B (quantizing only those).
    Activity a = measure_activity(s, g, x.A, std::min<uint64_t>(x.M, kActivityRows), x.K, x.B,
                                  std::min<uint64_t>(x.N, kActivityRows), oi);
    a.source = x.name;
    act += a;
  }
  return act;
}

}  // namespace hifsim::cost
