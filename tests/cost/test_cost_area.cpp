// The area model (docs/cost.md, "Area"): the fit of the committed synthesis snapshot stays within
// the stated residual bounds, the stored coefficients are that fit, every formula grows with
// every width, and the unit inventories predict the synthesised RTL units within the stated bound.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>

#include "cost/area.hpp"
#include "cost/cost.hpp"
#include "cost/inventory.hpp"
#include "cost/tables.hpp"
#include "cost_test_util.hpp"
#include "util/error.hpp"

using namespace hifsim;
using namespace hifsim::cost;

namespace {
const CostTables& T() {
  static const CostTables t = load_tables(tables_dir());
  return t;
}
FitResult fit() {
  return fit_area(read_synth_csv(T().synth_csv), T().area.at("transistors_per_ge"), T().area.at("ff_ge"));
}
std::vector<int> steps(int from, int to, int step) {
  std::vector<int> v;
  for (int x = from; x <= to; x += step) v.push_back(x);
  return v;
}
// area(x) over xs, in order, must grow: strictly, or (strict = false) never shrink.
template <class F>
void expect_growing(const char* what, const std::vector<int>& xs, F area, bool strict = true) {
  double prev = 0;
  for (int x : xs) {
    const double g = area(x);
    if (strict) {
      EXPECT_GT(g, prev) << what << " " << x;
    } else {
      EXPECT_GE(g, prev) << what << " " << x;
    }
    prev = g;
  }
}
}  // namespace

// The stated bounds (docs/cost.md): every probe row within 7 % of Yosys, except the normaliser
// (leading-zero count + shift), whose ABC mapping varies by +-15 % between neighbouring widths;
// rms over all rows within 5 %.
TEST(CostArea, FitResidualsWithinStatedBounds) {
  const FitResult f = fit();
  ASSERT_GE(f.points.size(), 60u);
  for (const auto& p : f.points) {
    const double bound = p.family == "norm" ? 0.15 : 0.07;
    EXPECT_LE(std::fabs(p.rel()), bound) << p.module << " " << p.parameters << ": Yosys " << p.measured_ge << " GE, model "
                                         << p.predicted_ge;
  }
  EXPECT_LE(f.rms_rel, 0.05);
}

TEST(CostArea, StoredCoefficientsAreTheFitOfTheSnapshot) {
  const AreaCoeffs& s = T().coeffs;
  const AreaCoeffs c = fit().coeffs;
  const std::pair<const char*, std::pair<double, double>> v[] = {
      {"mul_ab", {s.mul_ab, c.mul_ab}},       {"mul_lin", {s.mul_lin, c.mul_lin}},   {"mul_c", {s.mul_c, c.mul_c}},
      {"smul_sq", {s.smul_sq, c.smul_sq}},    {"smul_c", {s.smul_c, c.smul_c}},      {"add_w", {s.add_w, c.add_w}},
      {"add_c", {s.add_c, c.add_c}},          {"tree_nw", {s.tree_nw, c.tree_nw}},   {"tree_nl", {s.tree_nl, c.tree_nl}},
      {"tree_wo", {s.tree_wo, c.tree_wo}},    {"shift_sw", {s.shift_sw, c.shift_sw}}, {"shift_s2", {s.shift_s2, c.shift_s2}},
      {"norm_wl", {s.norm_wl, c.norm_wl}},    {"norm_w2", {s.norm_w2, c.norm_w2}},   {"mux_w", {s.mux_w, c.mux_w}},
      {"max_w", {s.max_w, c.max_w}},          {"dec_e2m1", {s.dec_e2m1, c.dec_e2m1}}, {"dec_hif8", {s.dec_hif8, c.dec_hif8}},
      {"acc_c", {s.acc_c, c.acc_c}},          {"acc_m", {s.acc_m, c.acc_m}},         {"acc_rz", {s.acc_rz, c.acc_rz}}};
  for (const auto& [n, p] : v)
    EXPECT_NEAR(p.first, p.second, 1e-3 * std::max(1.0, std::fabs(p.second))) << n << ": run `hifsim cost --fit` and update area.yaml";
}

TEST(CostArea, EnergyCoefficientsFollowTheirDerivation) {
  // energy-45nm.yaml sources: Horowitz per-op energy / (0.5 x GE of the same op in the area model).
  const AreaCoeffs& c = T().coeffs;
  const Table& e = T().energy;
  const double mul = 0.5 * (200 / (0.5 * component_ge(c, Cls::mul, 8, 8)) + 3100 / (0.5 * component_ge(c, Cls::mul, 32, 32)));
  const double add = 0.5 * (30 / (0.5 * component_ge(c, Cls::add, 8)) + 100 / (0.5 * component_ge(c, Cls::add, 32)));
  const double fpa = 900 / (0.5 * component_ge(c, Cls::fpadd, 23, 0));
  EXPECT_NEAR(e.at("e_mul"), mul, 0.002 * mul);
  EXPECT_NEAR(e.at("e_add"), add, 0.002 * add);
  EXPECT_NEAR(e.at("e_logic"), add, 0.002 * add);
  EXPECT_NEAR(e.at("e_fpadd"), fpa, 0.002 * fpa);
  EXPECT_NEAR(e.at("e_ff_toggle"), add * c.ff_ge, 0.002 * add * c.ff_ge);
}

TEST(CostArea, EveryComponentGrowsWithEveryWidth) {
  const AreaCoeffs& c = T().coeffs;
  for (int a = 2; a < 48; ++a)
    for (int b = 2; b < 48; b += 5) {
      EXPECT_LT(component_ge(c, Cls::mul, a, b), component_ge(c, Cls::mul, a + 1, b)) << a << "x" << b;
      EXPECT_LT(component_ge(c, Cls::mul, b, a), component_ge(c, Cls::mul, b, a + 1)) << b << "x" << a;
    }
  for (int w = 2; w < 32; ++w) EXPECT_LT(component_ge(c, Cls::smul, w), component_ge(c, Cls::smul, w + 1)) << w;
  for (int w = 2; w < 256; ++w) {
    EXPECT_LT(component_ge(c, Cls::add, w), component_ge(c, Cls::add, w + 1)) << w;
    EXPECT_LT(component_ge(c, Cls::norm, w), component_ge(c, Cls::norm, w + 1)) << w;
    EXPECT_LT(component_ge(c, Cls::reg, w), component_ge(c, Cls::reg, w + 1)) << w;
  }
  for (int n = 2; n < 128; ++n)
    for (int w = 1; w < 128; w += 7) {
      EXPECT_LT(component_ge(c, Cls::tree, n, w), component_ge(c, Cls::tree, n + 1, w)) << n << "," << w;
      EXPECT_LT(component_ge(c, Cls::tree, n, w), component_ge(c, Cls::tree, n, w + 1)) << n << "," << w;
      EXPECT_LT(component_ge(c, Cls::max, n, w), component_ge(c, Cls::max, n + 1, w)) << n << "," << w;
      EXPECT_LT(component_ge(c, Cls::max, n, w), component_ge(c, Cls::max, n, w + 1)) << n << "," << w;
      EXPECT_LT(component_ge(c, Cls::mux, w, n), component_ge(c, Cls::mux, w + 1, n)) << w << "," << n;
      EXPECT_LT(component_ge(c, Cls::mux, w, n), component_ge(c, Cls::mux, w, n + 1)) << w << "," << n;
    }
  for (int w = 1; w < 128; ++w)
    for (int s = 1; s < 12; ++s) {
      EXPECT_LT(component_ge(c, Cls::shift, w, s), component_ge(c, Cls::shift, w + 1, s)) << w << "," << s;
      EXPECT_LT(component_ge(c, Cls::shift, w, s), component_ge(c, Cls::shift, w, s + 1)) << w << "," << s;
    }
  for (int b = 1; b < 23; ++b) EXPECT_LT(component_ge(c, Cls::fpadd, b, 0), component_ge(c, Cls::fpadd, b + 1, 0)) << b;
  EXPECT_THROW(component_ge(c, Cls::tree, 1, 8), Error);
  EXPECT_THROW(component_ge(c, Cls::add, 1), Error);
}

TEST(CostArea, WiderUnitsCostMore) {
  const AreaCoeffs& c = T().coeffs;
  expect_growing("bf16 W", steps(16, 112, 8), [&](int w) {  // BF16 alignment window
    UnitSpec s = default_unit_spec(fmt::Format::bf16, 3);
    s.align_width = w;
    return inventory_ge(c, dot_inventory(s));
  });
  expect_growing("hif8 lanes", {16, 32, 64}, [&](int lanes) {
    UnitSpec s = default_unit_spec(fmt::Format::hif8, 3);
    s.lanes = lanes;
    return inventory_ge(c, dot_inventory(s));
  });
  expect_growing(  // more register ranks, more area (never less)
      "stages", steps(0, 5, 1), [&](int st) { return inventory_ge(c, dot_inventory(default_unit_spec(fmt::Format::hif4, st))); },
      false);
  expect_growing("acc mantissa", steps(1, 23, 1), [&](int mb) {
    UnitSpec s = default_unit_spec(fmt::Format::hif4, 3);
    s.acc.kind = dp::AccSpec::fp32_reduced;
    s.acc.mant_bits = mb;
    return inventory_ge(c, acc_inventory(s));
  });
}

// The stated bound for whole units: the combinational inventory (sum of fitted components, no
// registers) within 10 % of the Yosys synthesis of each RTL dot unit in the snapshot (its
// transistor count excludes flip-flops, so every STAGES is comparable); hif4_dot64 must be there.
TEST(CostArea, InventoriesPredictTheSynthesisedUnits) {
  const auto rows = read_synth_csv(T().synth_csv);
  const double tpg = T().area.at("transistors_per_ge");
  int checked = 0;
  bool hif4 = false;
  for (const auto& r : rows) {
    if (!r.excl_ffs && r.flip_flops) continue;  // flip-flops counted in: not comparable
    std::optional<fmt::Format> f;
    for (const auto& fi : fmt::all_formats())
      if (fi.tensor && r.module.rfind(std::string(fi.name) + "_dot", 0) == 0) f = fi.id;
    if (!f) continue;
    UnitSpec s = default_unit_spec(*f, 0);
    if (auto w = r.params.find("W"); w != r.params.end())
      s.align_width = w->second ? w->second : (*f == fmt::Format::hif8 ? dp::kHif8ExactWidth : dp::kBf16ExactWidth);
    if (auto n = r.params.find("N"); n != r.params.end()) s.lanes = n->second;
    if (auto k = r.params.find("STICKY"); k != r.params.end()) s.policy = k->second ? dp::AlignPolicy::sticky : dp::AlignPolicy::trunc;
    const double model = inventory_ge(T().coeffs, dot_inventory(s), false, true);
    const double rtl = r.transistors / tpg;
    if (*f == fmt::Format::hif8 || *f == fmt::Format::bf16) {
      // Not bounded (docs/cost.md section 3): the model is 23-33 % below these rows, which are
      // synthesised at the default depth (STAGES=3) and whose gap is only partly explained.
      std::printf("aligned unit %s %s: model %.0f GE, Yosys %.0f GE (%+.1f %%)\n", r.module.c_str(), r.parameters.c_str(), model,
                  rtl, 100 * (model / rtl - 1));
      continue;
    }
    EXPECT_NEAR(model / rtl, 1.0, 0.10) << r.module << " " << r.parameters << ": model " << model << " GE, Yosys " << rtl << " GE";
    ++checked;
    hif4 |= *f == fmt::Format::hif4;
  }
  EXPECT_TRUE(hif4);
  EXPECT_GE(checked, 1);
}

TEST(CostArea, RegisterRanksFollowTheHif4RtlTable) {
  // hif4_dot64 STAGES=3: 127 + 32 + 32 data bits (+ 3 valid bits = the 194 flip-flops Yosys reports).
  const UnitSpec s = default_unit_spec(fmt::Format::hif4, 3);
  int bits = 0;
  for (const auto& c : dot_inventory(s))
    if (c.kind == Cls::reg) bits += c.p1 * c.count;
  EXPECT_EQ(bits, 191);
  const auto rows = read_synth_csv(T().synth_csv);
  for (const auto& r : rows)
    if (r.module == "hif4_dot64" && r.params.at("STAGES") >= 1) {
      int b = 0;
      for (const auto& c : dot_inventory(default_unit_spec(fmt::Format::hif4, r.params.at("STAGES"))))
        if (c.kind == Cls::reg) b += c.p1 * c.count;
      // + one valid bit per rank; Yosys drops up to 2 constant flops of the output register (STAGES=5).
      EXPECT_NEAR(static_cast<double>(b + r.params.at("STAGES")), static_cast<double>(r.flip_flops), 2.0) << r.parameters;
    }
}

// The unit comparison (hifsim cost --compare-units, the report's dot-unit table) shows a Yosys
// area only for the synthesis of exactly that unit: the combinational module (STAGES=0 given)
// with the same lanes, window and policy. A row of other parameters, or one synthesised at the
// default depth (no STAGES: pipeline registers included), must give "-" (measured_ge < 0).
TEST(CostArea, UnitComparisonShowsOnlyTheMatchingSynthesis) {
  const std::string csv = std::string(::testing::TempDir()) + "/hifsim_compare_synth.csv";
  {
    std::ofstream o(csv);
    o << "module,parameters,cells,transistors,flip_flops,transistors_exclude_ffs,yosys_version,seconds\n"
         "hif4_dot64,STAGES=3,1,4000,194,yes,Yosys 0.23,0\n"        // not combinational: skipped
         "hif4_dot64,STAGES=0,1,8000,0,no,Yosys 0.23,0\n"           // the match for hif4
         "hif8_dot,N=16;W=24,1,1000,601,yes,Yosys 0.23,0\n"         // default depth, other N/W
         "hif8_dot,N=64;W=24;STAGES=0,1,2000,0,no,Yosys 0.23,0\n"   // other window
         "hif8_dot,N=64;W=0;STAGES=0,1,12000,0,no,Yosys 0.23,0\n"   // exact window: the match
         "bf16_dot64,W=64;STICKY=0;STAGES=0,1,3000,0,no,Yosys 0.23,0\n";  // bf16 default is sticky
  }
  CostTables t = T();
  t.synth_csv = csv;
  const auto A = random_operands(8, 128, 1, 0), B = random_operands(8, 128, 1, 1);
  OperandSet d;
  d.name = "random";
  d.A = A.data();
  d.B = B.data();
  d.M = d.N = 8;
  d.K = 128;
  ActivityOptions o;
  o.sample_dots = 64;
  const auto rows = compare_units(t, {fmt::Format::hif4, fmt::Format::hif8, fmt::Format::bf16}, {d}, o);
  ASSERT_EQ(rows.size(), 3u);
  const double tpg = T().area.at("transistors_per_ge");
  EXPECT_DOUBLE_EQ(rows[0].measured_ge, 8000 / tpg);
  EXPECT_DOUBLE_EQ(rows[1].measured_ge, 12000 / tpg);
  EXPECT_LT(rows[2].measured_ge, 0);
}
