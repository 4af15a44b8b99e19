// The unit catalog (model/datapath/hw_catalog.cpp): the one list of every unit variant the project
// lints, elaborates, synthesises, co-simulates and calibrates, with each RTL parameter's default and
// range and the mapping of an RTL parameter set to the unit config the cost model prices it with.
// Every other list is printed from it (`hifsim units --update FILE`, catalog_text.hpp) or reads it
// at run time (`hifsim units --json`); tests/hw fails when a committed list differs.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hifsim::dp::hw {

// RTL parameters NAME=VALUE, in the order written: the flows' CSV "parameters" column is this
// order joined by ';' ("STAGES=3;ELEM_RNE=1;CMP_BF16=1"), so the order is part of a row's key.
using ParamList = std::vector<std::pair<std::string, int>>;

// What a parameter set is for, and who reads it:
//   lint         rtl/CMakeLists.txt: rtl.lint.<unit>.<name> (+ rtl.synth / rtl.elab, `yosys`)
//   drift        tests/hw/test_unit_rtl.cpp: Yosys elaboration against the description
//   regression   cosim/common/cosim_top.sv SWEEP=0: the instances of the one group, at the main STAGES
//   sweep        cosim_top.sv SWEEP=1: instance i at the STAGES its group runs (STAGES included here)
//   synthesis    scripts/synth.sh UNITS (the sky130 flow and the cost snapshot read its list)
//   validation   scripts/cost_synth.sh VALIDATION: combinational rows the area fit is checked against
//   calibration  cosim/tlm_calibration: the PE of rtl/array/matrix_unit_top.sv named `name`
enum class Purpose { lint, drift, regression, sweep, synthesis, validation, calibration };
const char* purpose_name(Purpose p);
const std::vector<Purpose>& all_purposes();

struct VariantSet {
  Purpose purpose = Purpose::lint;
  std::string name;   // lint: the test name's suffix; calibration: the PE's name; else empty
  ParamList params;   // on top of the RTL defaults
  std::string yosys;  // lint: "SYNTH" (full synth), "ELAB" (elaboration) or "" (Verilator only)
};

struct ParamRange {
  std::string name;
  int dflt = 0, lo = 0, hi = 0;  // the RTL module's default; the range the description follows
};

// A field of the cosim top's 24-bit parameter word (cosim_top.sv cfg, the harness's CfgParam).
struct CfgField {
  std::string name;
  int lsb = 0, width = 0;
};

struct CatalogUnit {
  std::string name;                 // the RTL top (rtl/<name>.sv)
  std::vector<ParamRange> params;   // every `parameter int` of the RTL top, in its order
  std::vector<CfgField> cosim_word; // the parameters other than STAGES in the cosim cfg word
  int calib_pe = -1, calib_block_bits = 0;  // matrix_unit_top PE code and operand block bits (-1: none)
  std::vector<VariantSet> sets;
  std::vector<VariantSet> of(Purpose p) const;
  const ParamRange* param(const std::string& n) const;
};

// Every unit, in the order of docs/datapath.md (all_units()).
const std::vector<CatalogUnit>& unit_catalog();
const CatalogUnit& catalog_unit(const std::string& name);  // throws hifsim::Error for an unknown name
// The order of scripts/synth.sh and so of the committed synthesis tables' rows.
const std::vector<std::string>& synthesis_order();

std::string param_text(const ParamList& p);  // "N=16;W=24"; "-" for none
// "N=16;W=24" (or "-" / "") -> the list; a malformed pair throws hifsim::Error naming `where`.
ParamList parse_param_text(const std::string& text, const std::string& where);
// The value of `name` in `p`, else the unit's default.
int param_value(const CatalogUnit& u, const ParamList& p, const std::string& name);

// The unit config the cost model prices an RTL variant with: a committed config of configs/units
// (relative to the repository), the `--set` overrides and the figure of `hifsim cost` to read
// ("dot": energy per dot operation; "acc_add": per accumulator add). nullopt: the proxy has no
// model of the unit (sparse_residual_add, hif4_quantizer).
struct ProxyConfig {
  std::string config;
  std::vector<std::string> sets;
  std::string figure;
};
std::optional<ProxyConfig> proxy_config(const std::string& unit, const ParamList& params);

}  // namespace hifsim::dp::hw
