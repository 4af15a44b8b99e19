// The cost model's results (docs/cost.md): area (total and breakdown), energy per GEMM and per
// MAC split into compute / buffers / memory, power at the unit's clock and the energy-delay
// product, from a unit config, the TLM action counts (model/perf/report.hpp) and the switching
// activity measured on the operands (activity.hpp). Plain C++ (no SystemC): `hifsim cost`,
// `hifsim run` (its "cost" section) and the sweeps call evaluate().
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "config/unit_config.hpp"
#include "cost/activity.hpp"
#include "cost/inventory.hpp"
#include "cost/node_units.hpp"
#include "cost/tables.hpp"
#include "perf/report.hpp"

namespace hifsim {
class JsonWriter;
}

namespace hifsim::cost {

struct AreaItem {
  std::string name;
  double ge = 0;     // logic (0 for SRAM)
  double mm2 = 0;
  std::string note;
};

struct EnergyItem {
  std::string group;   // compute | buffers | memory
  std::string name;
  std::string action;  // the action count it multiplies
  double count = 0, pj_each = 0, pj = 0;
  std::string note;
};

// Energy per operation of a component list at an activity: sum of e_class x GE x alpha for logic
// (alpha = measured toggle fraction of the component's nets), e_ff_toggle x toggles +
// e_ff_clock x bits for registers. `unmeasured` uses the table's unmeasured_activity for every
// component instead (the quantizer has no stage trace). Optional per-component breakdown (pJ).
double ops_energy_pj(const CostTables& t, const std::vector<Component>& inv, const Activity* act,
                     std::vector<std::pair<std::string, double>>* breakdown = nullptr);

struct CostReport {
  std::string unit, format, node, tables_dir;
  double clock_ghz = 1;
  uint64_t pes = 0;
  // Area
  double dot_unit_ge = 0, pipeline_reg_ge = 0, accumulator_ge = 0;  // one PE
  // The PE's dot unit as synthesised at this node (tables' <node>/units.csv): mapped area, fmax.
  // Not synthesised (or a node without units): node_dot.synthesised = false.
  NodeDot node_dot;
  std::vector<AreaItem> area;
  double logic_ge = 0, logic_mm2 = 0, sram_mm2 = 0, total_mm2 = 0;
  // Energy per operation (from the activity)
  Activity activity;
  cfg::Dataflow activity_order = cfg::Dataflow::os;
  double dot_pj = 0, acc_add_pj = 0;
  std::vector<std::pair<std::string, double>> dot_pj_by_component;
  // Energy of the run
  std::vector<EnergyItem> energy;
  double compute_pj = 0, buffers_pj = 0, memory_pj = 0, total_pj = 0;
  double macs = 0, gemms = 0;
  uint64_t cycles = 0;
  double seconds = 0, power_w = 0, edp_js = 0;
  std::vector<std::string> notes;  // modelling assumptions the numbers depend on
};

// Area of the unit only (no run): the area part of a report.
CostReport evaluate_area(const CostTables& t, const cfg::UnitConfig& u);
// Everything: `actions`/`cycles`/`macs`/`gemms` summed over the run (perf::Totals).
CostReport evaluate(const CostTables& t, const cfg::UnitConfig& u, const perf::Actions& actions, uint64_t cycles,
                    double macs, double gemms, const Activity& act);

void write_cost_json(JsonWriter& w, const CostReport& r);
std::string cost_summary(const CostReport& r);  // a few lines for stderr / Markdown
std::string cost_csv(const CostReport& r);      // one line per area and energy item

// ---- Activity over the operands of a run ----
struct OperandSet {
  std::string name;
  const float* A = nullptr;  // M x K
  const float* B = nullptr;  // N x K
  uint64_t M = 0, N = 0, K = 0;
  double weight = 1;         // e.g. the op's MACs x instances: its share of the sample
};
inline constexpr uint64_t kActivityRows = 256;
// Measures each set with a sample proportional to its weight (at least 64 dot operations) and
// pools them. Sets without data are not allowed (see random_operands).
Activity activity_for(const cfg::UnitConfig& u, const std::vector<OperandSet>& sets, const ActivityOptions& o);
// Seeded standard-normal operands (rows x K), for runs without values.
std::vector<float> random_operands(uint64_t rows, uint64_t K, uint64_t seed, uint64_t stream);

// ---- The 64-length dot-unit comparison (docs/cost.md, "HiF4 vs NVFP4") ----
struct UnitCompareRow {
  std::string format;
  int lanes = 64;
  std::string config;          // what was compared (widths)
  double total_ge = 0;         // combinational dot unit
  double baseline_ge = 0;      // part shared with the FP8/INT8 baseline
  double incremental_ge = 0;   // total - baseline
  double acc_ge = 0;
  double measured_ge = -1;     // the RTL's synthesis (STAGES=0) when configs/cost/synth.csv has it
  double dot_pj = 0, incremental_pj = 0, acc_pj = 0;  // per 64-MAC dot operation, on the data
  // The same at the PE: + 3 pipeline register ranks (STAGES=3) + operand input registers.
  double pipe_pj = 0, operand_pj = 0;
  double pe_pj() const { return dot_pj + pipe_pj + acc_pj + operand_pj; }
  struct Part {
    std::string name, shape, what;
    double ge = 0, pj = 0, alpha = 0;
    bool baseline = false;
  };
  std::vector<Part> parts;     // the combinational components (the inventory)
  double alpha_products = 0;   // toggle fraction at the element products (for the explanation)
  uint64_t dots = 0;
};
std::vector<UnitCompareRow> compare_units(const CostTables& t, const std::vector<fmt::Format>& formats,
                                          const std::vector<OperandSet>& data, const ActivityOptions& o);
std::string compare_markdown(const std::vector<UnitCompareRow>& rows, const std::string& data_source);

}  // namespace hifsim::cost
