// Component area model of the cost model (docs/cost.md, "Area"): every datapath is a list of
// components of a few classes, each with a closed-form area in gate equivalents (GE, one 2-input
// NAND) parameterised by its bit widths. The coefficients are fitted by least squares to Yosys
// `stat -tech cmos` transistor counts of small parameterised probe modules (rtl/probes/,
// scripts/cost_synth.sh); configs/cost/area.yaml holds the fitted values, and a test checks that
// they equal a fresh fit of the committed synthesis snapshot configs/cost/synth.csv.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "datapath/hw.hpp"

namespace hifsim::cost {

// Component classes: the structural classes of the hardware descriptions (datapath/hw.hpp lists
// them with their size parameters). Each has a closed-form area here.
using Cls = dp::hw::Kind;
inline const char* cls_name(Cls c) { return dp::hw::kind_name(c); }

struct AreaCoeffs {
  // mul(a,b)  = mul_ab*a*b - mul_lin*(a+b) + mul_c   (every stored coefficient is >= 0)
  double mul_ab = 0, mul_lin = 0, mul_c = 0;
  // smul(w)   = smul_sq*w^2 - smul_c
  double smul_sq = 0, smul_c = 0;
  // add(w)    = add_w*w - add_c
  double add_w = 0, add_c = 0;
  // tree(n,w) = tree_nw*(n-2)*w + tree_nl*(n-2)*L + tree_wo*(w+L), L = ceil(log2 n)
  double tree_nw = 0, tree_nl = 0, tree_wo = 0;
  // shift(w,s)= shift_sw*s*w + shift_s2*s*2^s
  double shift_sw = 0, shift_s2 = 0;
  // norm(w)   = norm_wl*w*log2(w) + norm_w2*w^2
  double norm_wl = 0, norm_w2 = 0;
  // mux(w,n)  = mux_w*w*(n-1)
  double mux_w = 0;
  // max(n,w)  = max_w*(n-1)*w
  double max_w = 0;
  // dec(0) = dec_e2m1, dec(1) = dec_hif8 (one synthesis row each)
  double dec_e2m1 = 0, dec_hif8 = 0;
  // fpadd(b,rz) = acc_c + acc_m*b - acc_rz*rz
  double acc_c = 0, acc_m = 0, acc_rz = 0;
  // reg(bits) = ff_ge*bits   (not fitted: Yosys's CMOS estimate has no flip-flop cost)
  double ff_ge = 0;
};

// Area of one component instance in GE. Throws hifsim::Error for parameters outside the
// formula's range (e.g. a tree of fewer than 2 terms, a 1-bit adder).
double component_ge(const AreaCoeffs& c, Cls cls, int p1, int p2 = 0);

// ---- The fit ----
struct SynthRow {
  std::string module, parameters;          // parameters as in the CSV: NAME=VALUE;...
  std::map<std::string, int> params;
  double transistors = 0;
  uint64_t flip_flops = 0;
  bool excl_ffs = false;
  std::string yosys;
};
// Reads the CSV written by scripts/synth.sh / scripts/cost_synth.sh (exactly its 8 columns;
// cost/flow_csv.hpp says what each field may hold). Throws hifsim::Error naming the file, the
// line, the column and the reason.
std::vector<SynthRow> read_synth_csv(const std::string& path);

struct FitPoint {
  std::string family;       // "mul", "add", ...
  std::string module, parameters;
  double measured_ge = 0, predicted_ge = 0;
  double rel() const { return (predicted_ge - measured_ge) / measured_ge; }
};
struct FitResult {
  AreaCoeffs coeffs;                 // fitted classes; ff_ge copied from the input
  std::vector<FitPoint> points;      // every probe row with its prediction
  double max_abs_rel = 0, rms_rel = 0;
  std::map<std::string, double> family_max_abs_rel;
};
// Least squares on the relative error, one class at a time.
// `transistors_per_ge` converts Yosys's transistor counts to GE. Throws when a class has
// fewer probe rows than coefficients.
FitResult fit_area(const std::vector<SynthRow>& rows, double transistors_per_ge, double ff_ge);

}  // namespace hifsim::cost
