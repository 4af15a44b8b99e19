// Component inventories of the matrix-unit datapaths (docs/cost.md, "Component inventories"):
// the hardware descriptions of model/datapath (datapath/hw.hpp: every unit's components, widths,
// counts and pipeline ranks, written once next to its bit-exact model) as lists the cost model
// prices. The area of a unit is the sum of its components' areas; its energy per operation is
// the sum of each component's energy at the activity measured on its nets (activity.hpp). Nothing
// here knows a format: a unit's structure comes from its description.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "config/unit_config.hpp"
#include "cost/area.hpp"
#include "datapath/accumulator.hpp"
#include "datapath/hw.hpp"

namespace hifsim::cost {

using Component = dp::hw::Component;

// What the cost model needs to know about a unit's datapath: the dot unit's parameters
// (format, lanes, window, register ranks) and the accumulator.
struct UnitSpec : dp::hw::DotParams {
  dp::AccSpec acc;
};
// From a unit config. Throws hifsim::Error(config, field, reason) for what the cost model does
// not cover (more register ranks than the unit's RTL has, a Kulisch accumulator, a window the
// activity trace cannot follow).
UnitSpec unit_spec(const cfg::UnitConfig& u);
// The same unit with its own defaults (used by the unit comparison): format, lanes, stages.
UnitSpec default_unit_spec(fmt::Format f, int stages);

std::vector<Component> dot_inventory(const UnitSpec& s);        // incl. pipeline registers "pipe.cK"
std::vector<Component> acc_inventory(const UnitSpec& s);        // "acc.fpadd" + "acc.reg"
std::vector<Component> quantizer_inventory(fmt::Format f, int lanes);  // one block of `lanes` values
// The dedicated residual unit: the dot unit with half its lanes (2:4) or all of them (dense,
// top50) plus the 2:4 select multiplexers.
std::vector<Component> residual_inventory(const UnitSpec& s, dp::ResidualKind kind);

double inventory_ge(const AreaCoeffs& c, const std::vector<Component>& inv, bool baseline_only = false,
                    bool exclude_regs = false);

// Bits of one operand of one dot operation (elements + block metadata).
int operand_bits(const UnitSpec& s);

// `hifsim cost --inventory`: one row per component of a unit (its pipeline ranks included),
// with the area of one instance and of all of them.
struct InventoryRow {
  std::string unit, parameters;  // RTL top and NAME=VALUE;... as scripts/synth.sh writes them
  Component c;
  int cut = 0;                   // 1.. for a pipeline rank "pipe.c<k>", else 0
  std::string after;             // the stage a rank follows
  double ge_each = 0, ge = 0;
};
// The rows of `unit` with RTL parameters `params` (NAME, VALUE) over the module's defaults; an
// empty `unit`: every unit at its defaults (then `params` must be empty).
std::vector<InventoryRow> inventory_rows(const AreaCoeffs& c, const std::string& unit,
                                         const std::vector<std::pair<std::string, int>>& params);
std::string inventory_csv(const std::vector<InventoryRow>& rows);
// NAME=VALUE strings (`--set STAGES=3,W=40`) as parameters; throws hifsim::Error naming a bad one.
std::vector<std::pair<std::string, int>> parse_unit_params(const std::vector<std::string>& kv);

}  // namespace hifsim::cost
