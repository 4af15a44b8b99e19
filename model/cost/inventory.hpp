// Component inventories of the matrix-unit datapaths (docs/cost.md, "Component inventories"):
// every dot-product unit, accumulator and quantizer as a list of components (class + bit widths
// + count), derived from the stage tables of docs/datapath.md. The area of a unit is the sum of
// its components' areas; its energy per operation is the sum of each component's energy at the
// activity measured on its nets (activity.hpp uses the same component names).
#pragma once
#include <string>
#include <vector>

#include "config/unit_config.hpp"
#include "cost/area.hpp"
#include "datapath/accumulator.hpp"
#include "datapath/aligned_dot.hpp"
#include "formats/format.hpp"

namespace hifsim::cost {

// Extra class beyond area.hpp: the FP32-family accumulator adder, area fitted directly to the
// fp32_acc RTL rows (p1 = mantissa bits, p2 = 1 for round-toward-zero).
struct Component {
  std::string name;      // "s1.prod": stage and role; activity.cpp records nets under this name
  Cls cls = Cls::add;
  int p1 = 0, p2 = 0;
  int count = 1;
  bool baseline = false; // provided by the shared FP8/INT8 dot-product baseline (see docs/cost.md)
  bool per_lane = false; // one per element lane (scaled for the half-width 2:4 residual unit)
  std::string what;      // one line for reports
};

// What the cost model needs to know about a unit's datapath.
struct UnitSpec {
  fmt::Format format = fmt::Format::hif4;
  int lanes = 64;                 // elements per dot operation
  int align_width = 0;            // hif8/bf16: window bits W actually built (exact -> Wexact)
  dp::AlignPolicy policy = dp::AlignPolicy::trunc;
  int stages = 3;                 // dot-unit register ranks, 0..5 (pipeline_depth - 1)
  dp::AccSpec acc;
};
// From a unit config. Throws hifsim::Error(config, field, reason) for what the cost model does
// not cover (pipeline_depth > 6, a Kulisch accumulator).
UnitSpec unit_spec(const cfg::UnitConfig& u);
// The same unit with its own defaults (used by the unit comparison): format, lanes, stages.
UnitSpec default_unit_spec(fmt::Format f, int stages);

// Register ranks: candidate cut points c1..c5 (after the products, after the group sums, after
// the cross-group reduction, before the final normalisation, output register) and which of
// them a unit with `stages` ranks has (the hif4_dot64 RTL's table, docs/cosim.md).
bool has_cut(int stages, int cut);  // cut in 1..5
int cut_bits(const UnitSpec& s, int cut);

std::vector<Component> dot_inventory(const UnitSpec& s);        // incl. pipeline registers "pipe.cK"
std::vector<Component> acc_inventory(const UnitSpec& s);        // "acc.fpadd" + "acc.reg"
std::vector<Component> quantizer_inventory(fmt::Format f, int lanes);  // one block of `lanes` values
// The dedicated residual unit: the dot unit with half its lanes (2:4) or all of them (dense,
// top50) plus the 2:4 select multiplexers.
std::vector<Component> residual_inventory(const UnitSpec& s, dp::ResidualKind kind);

double inventory_ge(const AreaCoeffs& c, const std::vector<Component>& inv, bool baseline_only = false,
                    bool exclude_regs = false);

// Bits of one operand of one dot operation (elements + block metadata).
int operand_bits(fmt::Format f, int lanes);

}  // namespace hifsim::cost
