#include "eval/training_unit.hpp"

#include <algorithm>

#include "cost/cost.hpp"
#include "io/input_file.hpp"
#include "perf/runner.hpp"
#include "util/error.hpp"
#include "util/json.hpp"
#include "util/text.hpp"

namespace hifsim::eval {
namespace {

enum Block : size_t { b_dot, b_rn, b_sr, b_rht, b_transpose, b_sram, b_dram, b_count };

// Every report block once, in report order: its name, the step's energy part, and the catalog
// block it is looked up as (read for b_rn..b_transpose only: b_dot, b_sram and b_dram are the
// cost model's, their catalog field unused).
struct BlockRow {
  const char* name;
  double EnergySplit::*pj;
  cost::TrainingBlock catalog;
};
const BlockRow kBlocks[b_count] = {
    {"dot_units", &EnergySplit::dot_units, cost::TrainingBlock::quantize_rn},
    {"quantizer_rn", &EnergySplit::quantize_rn, cost::TrainingBlock::quantize_rn},
    {"quantizer_sr", &EnergySplit::quantize_sr, cost::TrainingBlock::quantize_sr},
    {"rht", &EnergySplit::rht, cost::TrainingBlock::hadamard},
    {"transpose_buffer", &EnergySplit::transpose_buffer, cost::TrainingBlock::transpose_buffer},
    {"sram", &EnergySplit::sram, cost::TrainingBlock::quantize_rn},
    {"dram", &EnergySplit::dram, cost::TrainingBlock::quantize_rn},
};

// The energy sources of the step's lookups of one catalog block (every format the step ran in).
std::string energy_sources(const TrainingStep& s, cost::TrainingBlock b, bool& proxy) {
  std::string out;
  for (const cost::BlockEnergy& e : s.blocks)
    if (e.block == b) {
      proxy = proxy || e.proxy;
      const std::string line = e.catalog_unit + ": " + fmt_g(e.pj_per_element, 4) + " pJ/element, " + e.source;
      if (out.find(line) == std::string::npos) out += (out.empty() ? "" : "; ") + line;
    }
  return out;
}

// A catalog block of the unit: instances for the unit's throughput, each of the lookup's area.
void catalog_area(const cost::CostTables& t, const cost::BlockParams& p, uint64_t elements_per_cycle,
                  TrainingUnitBlock& out, cost::TrainingBlock b) {
  const cost::BlockEnergy e = cost::training_block_energy(t, b, p);
  const auto per_op = static_cast<uint64_t>(e.elements_per_op);
  out.instances = per_op ? (elements_per_cycle + per_op - 1) / per_op : 1;
  out.area_mm2 += static_cast<double>(out.instances) * e.area_mm2;
  out.area_proxy = out.area_proxy || !e.in_catalog;  // SR: its own part is the catalog unit's
  out.area_source = std::to_string(out.instances) + " x " + e.catalog_unit + " (" + fmt_g(e.area_mm2, 4) + " mm2 each: " +
                    e.area_source + ")" + (out.area_source.empty() ? "" : "; " + out.area_source);
}

TrainingUnitRow unit_row(const TrainingUnitRequest& r, const cost::CostTables& t, fmt::Format f, const std::string& config) {
  TrainingUnitRow row;
  row.format = fmt::format_info(f).name;
  row.config = config;
  row.recipe = row.format;
  const std::vector<std::string> shipped = train::shipped_recipe_names();
  if (std::find(shipped.begin(), shipped.end(), row.recipe) == shipped.end()) {
    row.skipped = "no recipe configs/recipes/" + row.recipe + ".yaml";
    return row;
  }
  const cfg::UnitConfig u = cfg::load_unit_config(config, {});
  TrainingStepRequest q;
  q.trace = r.trace;
  q.recipe = train::load_recipe(row.recipe);
  q.config = config;
  q.cost_options = r.cost_options;
  q.cost_node = r.node;
  q.run.threads = r.cost_options.threads;
  const Engine analytic = [](const cfg::UnitConfig& unit, const std::vector<perf::Job>& jobs, const perf::RunOptions& o) {
    return perf::run_plain(unit, jobs, o);
  };
  const TrainingStep s = run_training_step(u, q, analytic);
  row.step_cycles = s.total.cycles.total;
  for (const FormatLine& fl : s.formats)
    if (!fl.cost_unsupported.empty()) row.skipped = fl.format + ": no cost (" + fl.cost_unsupported + ")";
  if (!row.skipped.empty()) return row;

  row.blocks.resize(b_count);
  auto& B = row.blocks;
  // Energy: the step's split. Area: the format's unit (cost model) and its catalog blocks.
  for (size_t b = 0; b < b_count; ++b) {
    B[b].block = kBlocks[b].name;
    B[b].energy_pj = s.split.*kBlocks[b].pj;
  }
  const cost::CostReport area = cost::evaluate_area(t, u);
  double online_quantizer = 0;
  for (const cost::AreaItem& a : area.area)
    if (a.name == "quantizer") online_quantizer = a.mm2;
  B[b_dot].used = B[b_sram].used = B[b_dram].used = true;
  B[b_dot].area_mm2 = area.logic_mm2 - online_quantizer;
  B[b_dot].area_source = "the cost model's PE array (" + std::to_string(area.pes) + " PEs: dot units, pipeline and operand "
                         "registers, accumulators) at the " + t.node + " area coefficients";
  B[b_dot].energy_source = "the cost model on the step's GEMM actions (compute), measured switching activity";
  B[b_sram].area_mm2 = area.sram_mm2;
  B[b_sram].area_source = "the array's A, B and accumulator buffers (" + t.sram.file + ")";
  B[b_sram].energy_source = "buffer reads and writes of the step's GEMMs (" + t.sram.file + ")";
  B[b_dram].area_source = "off chip";
  B[b_dram].energy_source = "the GEMMs' and the operand passes' memory bytes at dram_pj_per_byte";

  const uint64_t in_bytes = u.quant_input_bytes();
  int rht = 0;
  for (const cost::BlockEnergy& e : s.blocks)
    if (e.block == cost::TrainingBlock::hadamard) rht = e.params.rht;
  const uint64_t quant_rate = uint64_t{u.quant_blocks_per_cycle} * u.dot_width();
  const uint64_t rates[b_count] = {0, quant_rate, quant_rate, u.hadamard_elems_per_cycle, u.transpose_tile, 0, 0};
  for (Block b : {b_rn, b_sr, b_rht, b_transpose}) {
    const cost::TrainingBlock cb = kBlocks[b].catalog;
    B[b].energy_source = energy_sources(s, cb, B[b].energy_proxy);
    B[b].used = !B[b].energy_source.empty() || (b == b_rn && online_quantizer > 0);
    if (B[b].used) catalog_area(t, training_block_params(u, rht, in_bytes), rates[b], B[b], cb);
  }
  if (online_quantizer > 0) {
    B[b_rn].area_mm2 += online_quantizer;
    B[b_rn].area_source += "; the unit's on-line quantizer (" + fmt_g(online_quantizer, 4) + " mm2, the cost model)";
  }
  for (const TrainingUnitBlock& b : B) {
    row.area_mm2 += b.area_mm2;
    row.energy_pj += b.energy_pj;
  }
  return row;
}

}  // namespace

const std::vector<std::string>& training_unit_blocks() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const BlockRow& b : kBlocks) n.push_back(b.name);
    return n;
  }();
  return names;
}

TrainingUnitTable compare_training_units(const TrainingUnitRequest& r) {
  if (!r.trace) throw Error("command line", "--trace", "the training-unit comparison needs a trace");
  TrainingUnitTable out;
  const std::string dir = r.cost_options.cost_tables.empty() ? cost::default_tables_dir() : r.cost_options.cost_tables;
  // The synthesised blocks' own rows where the tables have them (a user's folder may be 45 nm only).
  out.node = !r.node.empty() ? r.node : io::not_regular_reason(dir + "/energy-sky130.yaml").empty() ? "sky130" : "45nm";
  out.trace = r.trace->manifest;
  const cost::CostTables t = cost::load_tables(dir, out.node);
  TrainingUnitRequest with_node = r;
  with_node.node = out.node;
  for (size_t i = 0; i < r.formats.size(); ++i) out.rows.push_back(unit_row(with_node, t, r.formats[i], r.configs.at(i)));
  out.notes = {
      "each format under its own recipe (configs/recipes/<format>.yaml) on its unit; GEMMs the recipe runs in another "
      "format (the FP32 attention, timed on BF16 PEs; kept BF16 layers) spend their energy on that format's unit, "
      "whose area is not added",
      "quantizer_sr area: the stochastic part only (its block-scale path is the round-to-nearest quantizer's); its "
      "energy per element includes the round-to-nearest quantizer's",
      "block instances: as many catalog units as the unit's configured rate needs (quantizer.blocks_per_cycle x dot "
      "width, training.hadamard_elements_per_cycle, one T-element transpose column per cycle)",
      "a step: every GEMM of the trace and the operand passes before it, one after the other (docs/training.md)"};
  return out;
}

std::string training_unit_json(const TrainingUnitTable& t) {
  JsonWriter w;
  w.begin_object().kv("schema", "hifsim-training-unit/1").kv("node", t.node).kv("trace", t.trace);
  w.key("blocks").begin_array();
  for (const auto& b : training_unit_blocks()) w.value(b);
  w.end_array();
  w.key("rows").begin_array();
  for (const TrainingUnitRow& r : t.rows) {
    w.begin_object().kv("format", r.format).kv("recipe", r.recipe).kv("config", r.config);
    if (!r.skipped.empty()) {
      w.kv("skipped", r.skipped).end_object();
      continue;
    }
    w.kv("step_cycles", r.step_cycles).kv("area_mm2", r.area_mm2).kv("energy_uj", r.energy_pj * 1e-6);
    w.key("blocks").begin_array();
    for (const TrainingUnitBlock& b : r.blocks)
      w.begin_object().kv("block", b.block).kv("used", b.used).kv("instances", b.instances).kv("area_mm2", b.area_mm2)
          .kv("energy_uj", b.energy_pj * 1e-6).kv("area_proxy", b.area_proxy)
          .kv("energy_proxy", b.energy_proxy).kv("area_source", b.area_source)
          .kv("energy_source", b.energy_source).end_object();
    w.end_array().end_object();
  }
  w.end_array();
  w.key("notes").begin_array();
  for (const auto& n : t.notes) w.value(n);
  w.end_array().end_object();
  return w.str() + "\n";
}

std::string training_unit_csv(const TrainingUnitTable& t) {
  std::string csv = "node,format,recipe,block,used,instances,area_mm2,energy_uj,area_proxy,energy_proxy\n";
  for (const TrainingUnitRow& r : t.rows)
    for (const TrainingUnitBlock& b : r.blocks)
      csv += t.node + "," + r.format + "," + r.recipe + "," + b.block + "," + (b.used ? "1" : "0") + "," +
             std::to_string(b.instances) + "," + fmt_g(b.area_mm2, 9) + "," + fmt_g(b.energy_pj * 1e-6, 9) + "," +
             (b.area_proxy ? "1" : "0") + "," + (b.energy_proxy ? "1" : "0") + "\n";
  return csv;
}

}  // namespace hifsim::eval
