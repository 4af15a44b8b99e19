// The synthesised units of a technology node (configs/cost/<node>/units.csv and energy.csv,
// written by the sky130 flow of scripts/pdk, docs/cost.md section 11): per RTL unit and parameter
// set the mapped cell area, the critical path and maximum clock from static timing, and the
// gate-level energy per operation on the flow's trace. The cost model's coefficients are fitted
// to these rows; this file lets a report quote the rows themselves for the unit it costs (area in
// um2 and fmax are facts of the mapped netlist, not of the proxy).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "config/unit_config.hpp"
#include "cost/activity.hpp"
#include "datapath/hw.hpp"

namespace hifsim::cost {

struct NodeUnitRow {
  std::string module, parameters;                   // as scripts/synth.sh writes them ("-": defaults)
  std::vector<std::pair<std::string, int>> params;  // `parameters` parsed
  double area_um2 = 0, min_period_ns = 0, fmax_mhz = 0;  // timing at the typical corner (tt)
  double min_period_ss_ns = 0, fmax_ss_mhz = 0;           // the same netlist at the sign-off corner (ss)
  uint64_t cells = 0, flip_flops = 0;
  double gate_pj = -1;                              // energy.csv unit_pj per operation; -1: no row
  std::string energy_trace;                         // the trace op it was measured on
};

struct NodeUnits {
  std::string node, units_file, energy_file;  // units_file empty: the node has no synthesised units
  std::vector<NodeUnitRow> rows;
  // The row of this RTL instance: same module and the same value of every RTL parameter (those a
  // row does not name at the module's defaults); nullptr when that instance was not synthesised.
  const NodeUnitRow* find(const dp::hw::UnitDesc& d) const;
};

// dir/<node>/units.csv (and energy.csv beside it, if present); an empty table when the node has
// no units.csv. Throws hifsim::Error(file, "line N" / column, reason) for a malformed file.
NodeUnits load_node_units(const std::string& dir, const std::string& node);

// What a report shows for a dot unit at a node: the synthesised row of its exact RTL instance
// (module and parameters from the unit's description) when there is one.
struct NodeDot {
  std::string node;                      // empty: the node has no synthesised units (45 nm)
  std::string module, parameters;        // parameters: every RTL parameter of the instance
  bool synthesised = false;
  NodeUnitRow row;                       // valid when synthesised
};
NodeDot node_dot(const NodeUnits& units, const dp::hw::UnitDesc& d);

struct CostTables;
// The PE dot unit of config `u` at the node of `t` (its tables' units and energy coefficients): the
// synthesised row when there is one, and the energy per dot operation that the node's calibrated
// coefficients give on activity `act` (the run's operands; the gate-level figure of the row is on
// the flow's trace only). The format comparison report shows these beside the 45 nm proxy.
struct NodeDotCost {
  NodeDot dot;
  double dot_pj = 0;
};
NodeDotCost node_dot_cost(const CostTables& t, const cfg::UnitConfig& u, const Activity& act);

}  // namespace hifsim::cost
