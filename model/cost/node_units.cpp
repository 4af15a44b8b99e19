#include "cost/node_units.hpp"

#include <cmath>
#include <map>

#include "cost/cost.hpp"
#include "cost/flow_csv.hpp"
#include "io/input_file.hpp"
#include "util/error.hpp"

namespace hifsim::cost {

NodeUnits load_node_units(const std::string& dir, const std::string& node) {
  NodeUnits u;
  u.node = node;
  const std::string units = dir + "/" + node + "/units.csv";
  if (io::not_regular_reason(units) == "does not exist") return u;
  u.units_file = units;
  // The committed tables have tens of rows: a larger file is not one of them.
  const uint64_t max_bytes = 4u << 20;
  const char* const why = "a node's unit table is never that large";
  const FlowCsv c = read_flow_csv(units, {"module", "parameters", "area_um2", "cells", "flip_flops", "min_period_ns", "fmax_mhz",
                                   "min_period_ss_ns", "fmax_ss_mhz"},
                                  false, max_bytes, why);
  for (const FlowCsvRow& r : c.rows) {
    NodeUnitRow x;
    x.module = r.text("module");
    x.parameters = r.text("parameters");
    x.params = r.params("parameters");
    x.area_um2 = r.number("area_um2", true);
    x.cells = r.count("cells");
    x.flip_flops = r.count("flip_flops");
    x.min_period_ns = r.number("min_period_ns", true);
    x.fmax_mhz = r.number("fmax_mhz", true);
    // The two columns say the same thing; a table where they disagree was edited by hand.
    if (std::fabs(x.fmax_mhz * x.min_period_ns - 1000) > 1e-3) r.fail("fmax_mhz", "is not 1000 / min_period_ns");
    x.min_period_ss_ns = r.number("min_period_ss_ns", true);
    x.fmax_ss_mhz = r.number("fmax_ss_mhz", true);
    if (std::fabs(x.fmax_ss_mhz * x.min_period_ss_ns - 1000) > 1e-3) r.fail("fmax_ss_mhz", "is not 1000 / min_period_ss_ns");
    // The slow corner cannot be faster than the typical one (a table with the columns swapped).
    if (x.fmax_ss_mhz > x.fmax_mhz) r.fail("fmax_ss_mhz", "is above fmax_mhz (the slow corner faster than the typical one)");
    u.rows.push_back(std::move(x));
  }
  const std::string energy = dir + "/" + node + "/energy.csv";
  if (io::not_regular_reason(energy) == "does not exist") return u;
  u.energy_file = energy;
  const FlowCsv e = read_flow_csv(energy, {"module", "parameters", "trace_op", "ops", "unit_pj"}, false, max_bytes, why);
  // Several trace ops per unit (the CI rows run a small trace): quote the one with most operations.
  std::vector<uint64_t> best_ops(u.rows.size(), 0);
  for (const FlowCsvRow& r : e.rows) {
    const uint64_t ops = r.count("ops");
    const double pj = r.number("unit_pj", true);
    for (size_t k = 0; k < u.rows.size(); ++k)
      if (u.rows[k].module == r.text("module") && u.rows[k].parameters == r.text("parameters") && ops > best_ops[k])
        best_ops[k] = ops, u.rows[k].gate_pj = pj, u.rows[k].energy_trace = r.text("trace_op");
  }
  return u;
}

const NodeUnitRow* NodeUnits::find(const dp::hw::UnitDesc& d) const {
  for (const NodeUnitRow& r : rows) {
    if (r.module != d.rtl_top) continue;
    // Both instances in full: the module's defaults, then the row's or the description's
    // parameters (a description may name only the parameters that change its hardware).
    std::map<std::string, int> want;
    for (const dp::hw::RtlParam& p : dp::hw::rtl_defaults(r.module)) want[p.name] = p.value;
    std::map<std::string, int> have = want;
    for (const auto& [k, v] : r.params) want[k] = v;
    for (const dp::hw::RtlParam& p : d.rtl_params) have[p.name] = p.value;
    if (want == have) return &r;
  }
  return nullptr;
}

NodeDot node_dot(const NodeUnits& units, const dp::hw::UnitDesc& d) {
  NodeDot n;
  if (units.units_file.empty()) return n;  // the node has no synthesised units: nothing to quote
  n.node = units.node;
  n.module = d.rtl_top;
  for (const dp::hw::RtlParam& p : d.rtl_params) n.parameters += (n.parameters.empty() ? "" : ";") + p.name + "=" + std::to_string(p.value);
  if (const NodeUnitRow* r = units.find(d)) n.synthesised = true, n.row = *r;
  return n;
}

NodeDotCost node_dot_cost(const CostTables& t, const cfg::UnitConfig& u, const Activity& act) {
  const UnitSpec s = unit_spec(u);
  NodeDotCost c;
  c.dot = node_dot(t.units, dp::hw::describe_dot(s));
  c.dot_pj = ops_energy_pj(t, dot_inventory(s), &act);
  return c;
}

}  // namespace hifsim::cost
