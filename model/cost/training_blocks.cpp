#include "cost/training_blocks.hpp"

#include <algorithm>
#include <cmath>

#include "cost/cost.hpp"
#include "cost/inventory.hpp"
#include "datapath/hw.hpp"
#include "datapath/sr_quantizer.hpp"
#include "datapath/transpose_buffer.hpp"
#include "datapath/unit_catalog.hpp"
#include "util/text.hpp"

namespace hifsim::cost {
namespace {

bool catalog_has(const std::string& name) {
  const auto& c = dp::hw::unit_catalog();
  return std::any_of(c.begin(), c.end(), [&](const dp::hw::CatalogUnit& u) { return u.name == name; });
}

// sr_quantizer's FMT for a format: the element set named after it (dp::sr_elem_name: 0 NVFP4 E2M1,
// 1 HiF4 S1P2, 2 MXFP4 E2M1), E2M1 (0) for a format without its own.
int sr_fmt(fmt::Format f) {
  const std::string name = fmt::format_info(f).name;
  for (dp::SrElem e : {dp::SrElem::nvfp4_e2m1, dp::SrElem::hif4_s1p2, dp::SrElem::mxfp4_e2m1})
    if (name == dp::sr_elem_name(e)) return static_cast<int>(e);
  return static_cast<int>(dp::SrElem::nvfp4_e2m1);
}

// The RTL parameters a block's catalog unit takes from the run, where the unit has them:
// sr_quantizer's SR_BITS and FMT (each format its own synthesised row: docs/cost.md "sky130 rows
// of the training blocks").
dp::hw::ParamList unit_params(TrainingBlock b, const BlockParams& p, const std::string& unit) {
  dp::hw::ParamList out;
  if (b == TrainingBlock::transpose_buffer)
    return {{"T", static_cast<int>(p.transpose_tile)}, {"W", static_cast<int>(8 * p.in_bytes)}};
  if (b != TrainingBlock::quantize_sr) return out;
  const dp::hw::CatalogUnit& u = dp::hw::catalog_unit(unit);
  if (u.param("SR_BITS")) out.emplace_back("SR_BITS", static_cast<int>(p.sr_bits));
  if (u.param("FMT")) out.emplace_back("FMT", sr_fmt(p.format));
  return out;
}

// The transpose buffer's catalog unit (rtl/transpose_buffer.sv) keeps its two tiles in flip-flops,
// 2 T^2 W of them: its description would price the T = 64 FP32 buffer of a training unit as 262144
// flip-flops where the unit would use an SRAM macro. So the block is priced from the catalog unit
// only where the node has a synthesised row of the run's T and W (STAGES at its default), and is
// the SRAM proxy below everywhere else.
bool transpose_has_row(const CostTables& t, const BlockParams& p) {
  if (!dp::transpose_tile_ok(p.transpose_tile) || !dp::transpose_width_ok(8 * p.in_bytes)) return false;
  return t.units.find(dp::hw::unit_by_name("transpose_buffer", unit_params(TrainingBlock::transpose_buffer, p, ""))) !=
         nullptr;
}

double quantizer_proxy_pj_per_element(const CostTables& t, const BlockParams& p) {
  return ops_energy_pj(t, quantizer_inventory(p.format, p.lanes), nullptr) / p.lanes;
}

double ge_mm2(const CostTables& t, double ge) { return ge * t.energy.at("ge_area_um2") * 1e-6; }

// The transpose buffer's SRAM: 2 T x T tiles of in_bytes elements (double-buffered). A buffer
// outside the table's sizes is priced as its nearest macro (a smaller one as the smallest: an
// upper bound), not refused: training.transpose_tile takes 0..65536.
struct TransposeSram {
  uint64_t need = 0, bytes = 0;
  SramRow row;
};
TransposeSram transpose_sram(const CostTables& t, const BlockParams& p) {
  TransposeSram s;
  s.need = 2 * p.transpose_tile * p.transpose_tile * p.in_bytes;
  s.bytes = t.sram.rows.empty() ? std::max<uint64_t>(1, s.need)
                                : std::clamp(s.need, t.sram.rows.front().bytes, t.sram.rows.back().bytes);
  s.row = t.sram.at(s.bytes, "transpose_buffer");
  return s;
}

// The proxy estimates: what the block must at least do per element, at the tables' coefficients.
BlockEnergy proxy(const CostTables& t, TrainingBlock b, const BlockParams& p, BlockEnergy e) {
  const double un = t.energy.at("unmeasured_activity");
  const std::string node =
      t.node + " proxy estimate (" +
      (b == TrainingBlock::transpose_buffer && catalog_has(e.catalog_unit)
           ? "no synthesised " + e.catalog_unit + " row of T=" + std::to_string(p.transpose_tile) + ";W=" +
                 std::to_string(8 * p.in_bytes) + " at " + t.node
           : "no " + e.catalog_unit + " in the unit catalog") +
      "): ";
  switch (b) {
    case TrainingBlock::quantize_rn:
      e.pj_per_element = quantizer_proxy_pj_per_element(t, p);
      e.source = node + "the " + std::string(fmt::format_info(p.format).name) +
                 " quantizer inventory of docs/cost.md at unmeasured_activity, per element";
      break;
    case TrainingBlock::quantize_sr: {
      // The round-to-nearest quantizer plus, per element, an sr_bits-wide add of the random bits
      // below the kept mantissa and sr_bits bits of random state (one flip-flop per bit, toggling
      // at unmeasured_activity).
      const double add = t.energy.at("e_add") * 1e-3 * component_ge(t.coeffs, Cls::add, static_cast<int>(p.sr_bits)) * un;
      const double rng = p.sr_bits * (t.energy.at("e_ff_toggle") * un + t.energy.at("e_ff_clock")) * 1e-3;
      e.pj_per_element = quantizer_proxy_pj_per_element(t, p) + add + rng;
      e.source = node + "round-to-nearest quantizer + an sr_bits adder + sr_bits random-state flip-flops per element";
      break;
    }
    case TrainingBlock::hadamard:
    {
      // log2(N) FP32 additions per element (the butterfly of formats/hadamard.hpp) at the tables'
      // per-operation FP32 energy, and the scaling by c_N: a power of two for N = 16 and 64 (an
      // exponent decrement, not counted), an FP32 multiply for N = 32.
      const int lg = static_cast<int>(std::lround(std::log2(static_cast<double>(p.rht))));
      const bool mul = lg % 2 != 0;
      e.pj_per_element = lg * t.energy.at("fp32_add_pj") + (mul ? t.energy.at("fp32_mul_pj") : 0.0);
      e.source = node + "log2(N) = " + std::to_string(lg) + " FP32 adds per element (fp32_add_pj)" +
                 (mul ? " + 1 FP32 multiply by c_N (fp32_mul_pj)" : "; c_N a power of two");
      break;
    }
    case TrainingBlock::transpose_buffer: {
      // Every element written into and read out of the buffer's SRAM.
      const TransposeSram m = transpose_sram(t, p);
      e.pj_per_element = static_cast<double>(p.in_bytes) * (m.row.read_pj_per_byte + m.row.write_pj_per_byte);
      e.source = node + "one write and one read per byte of a " + std::to_string(m.bytes) + "-byte SRAM (" + t.sram.file + ")" +
                 (m.bytes != m.need ? " for a " + std::to_string(m.need) + "-byte buffer (the table's nearest size)" : "");
      break;
    }
  }
  return e;
}

// The proxies' areas: the components their energies count, at the tables' area coefficients, for
// one instance of elements_per_op elements.
void proxy_area(const CostTables& t, TrainingBlock b, const BlockParams& p, BlockEnergy& e) {
  const double n = e.elements_per_op;
  const std::string node = t.node + " proxy estimate: ";
  switch (b) {
    case TrainingBlock::quantize_rn:
      e.area_mm2 = ge_mm2(t, inventory_ge(t.coeffs, quantizer_inventory(p.format, p.lanes)) * n / p.lanes);
      e.area_source = node + "the quantizer inventory of docs/cost.md";
      break;
    case TrainingBlock::quantize_sr:  // the stochastic part: an sr_bits adder and sr_bits state bits per element
      e.area_mm2 = ge_mm2(t, n * (component_ge(t.coeffs, Cls::add, static_cast<int>(p.sr_bits)) + p.sr_bits * t.coeffs.ff_ge));
      e.area_source = node + "an sr_bits adder + sr_bits random-state flip-flops per element";
      break;
    case TrainingBlock::hadamard: {  // log2(N) FP32 adders per element (full 23-bit mantissa, RNE)
      const int lg = static_cast<int>(std::lround(std::log2(static_cast<double>(p.rht))));
      e.area_mm2 = ge_mm2(t, n * lg * component_ge(t.coeffs, Cls::fpadd, 23, 0));
      e.area_source = node + "log2(N) FP32 adders per element";
      break;
    }
    case TrainingBlock::transpose_buffer: {
      const TransposeSram m = transpose_sram(t, p);
      e.area_mm2 = m.row.area_mm2;
      e.area_source = node + "a " + std::to_string(m.bytes) + "-byte SRAM macro (" + t.sram.file + ")";
      break;
    }
  }
}

// One row per block: its name in reports, the catalog unit it is looked up by ("<format>" and
// "<N>" stand for the format's name and the Hadamard size) and the elements one operation of that
// unit handles (its energy.csv figure is per operation; 0 = the dot width).
struct BlockRow {
  TrainingBlock block;
  const char* name;
  const char* unit;
  int elements_per_op;
};
constexpr BlockRow kBlocks[] = {
    {TrainingBlock::quantize_rn, "quantize_rn", "<format>_quantizer", 0},       // hif4_quantizer: 64
    {TrainingBlock::quantize_sr, "quantize_sr", "sr_quantizer", 16},            // 16 elements per operation
    {TrainingBlock::hadamard, "hadamard", "hadamard<N>", 16},                   // hadamard16: one 16-vector
    {TrainingBlock::transpose_buffer, "transpose_buffer", "transpose_buffer", 0},  // per T-element column: T
};
constexpr bool rows_in_enum_order() {
  for (int i = 0; i < 4; ++i)
    if (static_cast<int>(kBlocks[i].block) != i) return false;
  return true;
}
static_assert(rows_in_enum_order(), "kBlocks is indexed by TrainingBlock");
const BlockRow& row_of(TrainingBlock b) { return kBlocks[static_cast<int>(b)]; }

double elements_per_op(TrainingBlock b, const BlockParams& p) {
  const int n = row_of(b).elements_per_op;
  if (n) return n;
  return b == TrainingBlock::transpose_buffer ? static_cast<double>(p.transpose_tile) : p.lanes;
}
}  // namespace

const char* training_block_name(TrainingBlock b) { return row_of(b).name; }

std::string training_block_unit(TrainingBlock b, const BlockParams& p) {
  std::string u = row_of(b).unit;
  auto put = [&u](const std::string& key, const std::string& value) {
    const size_t at = u.find(key);
    if (at != std::string::npos) u.replace(at, key.size(), value);
  };
  put("<format>", fmt::format_info(p.format).name);
  put("<N>", std::to_string(p.rht));
  return u;
}

BlockEnergy training_block_energy(const CostTables& t, TrainingBlock b, const BlockParams& p) {
  BlockEnergy e;
  e.block = b;
  e.params = p;
  e.catalog_unit = training_block_unit(b, p);
  e.in_catalog = catalog_has(e.catalog_unit) && (b != TrainingBlock::transpose_buffer || transpose_has_row(t, p));
  e.elements_per_op = elements_per_op(b, p);
  if (!e.in_catalog) {
    proxy_area(t, b, p, e);
    return proxy(t, b, p, e);
  }
  const dp::hw::ParamList params = unit_params(b, p, e.catalog_unit);
  const dp::hw::UnitDesc d = dp::hw::unit_by_name(e.catalog_unit, params);
  const double per_op = e.elements_per_op;
  e.proxy = false;
  const NodeUnitRow* r = t.units.find(d);
  if (r && r->gate_pj >= 0) {
    e.pj_per_element = r->gate_pj / per_op;
    e.source = "catalog " + e.catalog_unit + " " + r->parameters + ": " + t.node + " gate-level energy per operation (" +
               t.units.energy_file + ", trace " + r->energy_trace + ") / " + fmt_g(per_op, 4) + " elements";
  } else {
    e.pj_per_element = ops_energy_pj(t, dp::hw::inventory(d), nullptr) / per_op;
    e.source = "catalog " + e.catalog_unit + " " + dp::hw::param_text(params) + ": its hardware description at the " +
               t.node + " coefficients, unmeasured_activity, / " + fmt_g(per_op, 4) + " elements";
  }
  if (r) {
    e.area_mm2 = r->area_um2 * 1e-6;
    e.area_source = "catalog " + e.catalog_unit + " " + r->parameters + ": " + t.node + " mapped cell area (" + t.units.units_file + ")";
  } else {
    e.area_mm2 = ge_mm2(t, inventory_ge(t.coeffs, dp::hw::inventory(d)));
    e.area_source = "catalog " + e.catalog_unit + " " + dp::hw::param_text(params) + ": its hardware description at the " +
                    t.node + " area coefficients";
  }
  if (b == TrainingBlock::quantize_sr) {
    // The SR unit replaces only the element rounding: the block scale is the round-to-nearest
    // quantizer's, whose figure (element rounding included: an upper bound) is added.
    const BlockEnergy q = training_block_energy(t, TrainingBlock::quantize_rn, p);
    e.pj_per_element += q.pj_per_element;
    e.proxy = q.proxy;
    e.source += " + the round-to-nearest quantizer's scale path (" + q.catalog_unit + (q.proxy ? ", a proxy" : "") + ")";
  }
  return e;
}

}  // namespace hifsim::cost
