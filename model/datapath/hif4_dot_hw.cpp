// The hardware of the HiF4 64-element dot product (hif4_dot.hpp; rtl/hif4_dot64.sv): its
// components, pipeline cut points and the nets its trace reports, every width from
// Hif4DotBounds.
#include <algorithm>

#include "datapath/hif4_dot.hpp"
#include "datapath/hw.hpp"
#include "datapath/hw_text.hpp"
#include "formats/hif4.hpp"

namespace hifsim::dp::hw {
namespace {

using B = Hif4DotBounds;
constexpr int kElems = fmt::kHif4Block;
constexpr int kGroups = 8 * static_cast<int>(sizeof(fmt::Hif4Unit::e1_8));  // level-2 groups
constexpr int kPerGroup = kElems / kGroups;
constexpr int kMag = unsigned_bits(B::a);                 // |a[k]| after the level-3 bit
constexpr int kWA = 1 + kMag;                             // sign + magnitude
constexpr int kWP = signed_bits(B::p);
constexpr int kWGroup = signed_bits(B::group);
constexpr int kWShifted = signed_bits(B::shifted);
constexpr int kWI = signed_bits(B::i_sum);
constexpr int kWSS = unsigned_bits(B::scale_prod_max);
constexpr int kWX = std::max(signed_bits(-B::exp_min), signed_bits(B::exp_max));
constexpr int kWBig = signed_bits(B::big);
constexpr int kScaleSig = 3;                              // E6M2 significand 1.MM
constexpr int kSide = 1 + kWX + kWSS;                     // {nan, X, SS}: computed first, carried along
constexpr int kE18 = 2 * kGroups;                         // both operands' E1_8 bits

// The RTL's cut table (rtl/hif4_dot64.sv): STAGES -> ranks after s1, s2, s4, s6, s7.
const std::vector<uint32_t> kCutMasks = {0b00000, 0b00100, 0b01010, 0b01110, 0b01111, 0b11111};

std::vector<Component> parts() {
  const std::string g = std::to_string(kGroups), pg = std::to_string(kPerGroup);
  return {
      {"s0.l3", Kind::mux, kMag, 2, 2 * kElems, false, true, "level-3 bit absorbed: m or 2m (4-bit 2:1 mux per element)"},
      {"s1.prod", Kind::smul, kMag, 0, kElems, true, true,
       std::to_string(kElems) + " sign-magnitude 4x4 products -> " + std::to_string(kWP) + "-bit two's complement"},
      {"s2.tree", Kind::tree, kPerGroup, kWP, kGroups, true, true,
       g + " group trees of " + pg + " products (" + std::to_string(kWGroup) + "-bit sums)"},
      {"s3.shift", Kind::shift, kWGroup, 2, kGroups, false, false,
       g + " level-2 shifts by 0..2 (" + std::to_string(kWGroup) + " -> " + std::to_string(kWShifted) + " bits)"},
      {"s4.tree", Kind::tree, kGroups, kWShifted, 1, false, false, g + " -> 1 tree (" + std::to_string(kWI) + "-bit I)"},
      {"s5.smul", Kind::mul, kScaleSig, kScaleSig, 1, false, false, "E6M2 x E6M2 significand product (3x3 bits)"},
      {"s5.exp", Kind::add, kWX, 0, 2, false, false, "exponent sum EA + EB - " + std::to_string(-B::exp_min)},
      {"s6.mul", Kind::mul, kWI, kWSS, 1, false, false,
       "the large integer multiply I x SS (" + std::to_string(kWI) + "x" + std::to_string(kWSS) + " -> " + std::to_string(kWBig) +
           " bits)"},
      {"s7.abs", Kind::add, kWBig, 0, 1, true, false, "|big| (two's complement -> magnitude)"},
      {"s7.norm", Kind::norm, kWBig - 1, 0, 1, true, false, "leading-one detect + normalise into the FP32 significand"},
      {"s7.exp", Kind::add, 8, 0, 1, true, false, "FP32 exponent X + n + 127"},
  };
}

std::vector<StageRow> stage_table() {
  return {
      {"s0", "`a[k] = ±(m[k] << E1_16[k>>2])` per operand", "\\|a\\| <= " + grouped(B::a), std::to_string(kWA) + "-bit signed"},
      {"s1", "`p[k] = aA[k] * aB[k]`", "\\|p\\| <= " + grouped(B::p), std::to_string(kWP) + "-bit signed"},
      {"s2", "`P[i] = Σ_{k=8i..8i+7} p[k]`", "\\|P\\| <= " + grouped(B::group), std::to_string(kWGroup) + "-bit signed"},
      {"s3", "`Q[i] = P[i] << (E1_8A[i] + E1_8B[i])`", "\\|Q\\| <= " + grouped(B::shifted),
       std::to_string(kWShifted) + "-bit signed"},
      {"s4", "`I = Σ_i Q[i]`", "\\|I\\| <= " + grouped(B::i_sum), std::to_string(kWI) + "-bit signed"},
      {"s5", "`SS = (4+MA)(4+MB)`, `X = EA + EB - " + std::to_string(-B::exp_min) + "`",
       "SS " + grouped(B::scale_prod_min) + ".." + grouped(B::scale_prod_max) + "; X " + grouped(B::exp_min) + ".." +
           grouped(B::exp_max),
       std::to_string(kWSS) + "-bit unsigned; " + std::to_string(kWX) + "-bit signed"},
      {"s6", "`big = I * SS`", "\\|big\\| <= " + grouped(B::big), std::to_string(kWBig) + "-bit signed"},
      {"s7", "`out = big * 2^X` as FP32", "2^-100 <= \\|out\\| < 2^45 or 0", "exact, never rounds"},
  };
}

std::vector<PkgConst> pkg() {
  return {
      {"HIF4_W_A", kWA, "s0 a[k] = +-(m << E1_16), sign + magnitude"},
      {"HIF4_W_P", kWP, "s1 p[k] = aA * aB, two's complement"},
      {"HIF4_W_GROUP", kWGroup, "s2 P[i] = sum of 8 products"},
      {"HIF4_W_SHIFTED", kWShifted, "s3 Q[i] = P[i] << (E1_8A + E1_8B)"},
      {"HIF4_W_I", kWI, "s4 I = sum of Q[i]"},
      {"HIF4_W_SS", kWSS, "s5 SS = (4+MA)(4+MB), unsigned"},
      {"HIF4_W_X", kWX, "s5 X = EA + EB - 104, two's complement"},
      {"HIF4_W_BIG", kWBig, "s6 big = I * SS"},
      {"HIF4_EXP_OFFSET", -B::exp_min, "X = EA + EB - HIF4_EXP_OFFSET (48 + 48 + 4 + 4)"},
      {"HIF4_MAX_A", B::a, ""},
      {"HIF4_MAX_P", B::p, ""},
      {"HIF4_MAX_GROUP", B::group, ""},
      {"HIF4_MAX_SHIFTED", B::shifted, ""},
      {"HIF4_MAX_I", B::i_sum, ""},
      {"HIF4_MAX_BIG", B::big, ""},
      {"HIF4_SS_MIN", B::scale_prod_min, ""},
      {"HIF4_SS_MAX", B::scale_prod_max, ""},
      {"HIF4_X_MIN", B::exp_min, ""},
      {"HIF4_X_MAX", B::exp_max, ""},
  };
}

UnitDesc describe(const DotParams& p) {
  UnitDesc d;
  d.rtl_top = "hif4_dot64";
  d.rtl_params = {{"STAGES", p.stages}};
  d.label = "hif4 x" + std::to_string(kElems);
  d.stages = p.stages;
  d.cut_rule = "hif4_dot64";
  d.cut_masks = kCutMasks;
  d.cuts = {{"s1", "u_tail.u_cut_s1", kSide + kE18 + kElems * kWP},
            {"s2", "u_tail.u_cut_s2", kSide + kE18 + kGroups * kWGroup},
            {"s4", "u_tail.u_cut_s4", kSide + kWI},
            {"s6", "u_tail.u_cut_s6", 1 + kWX + kWBig},
            {"s7", "u_tail.u_cut_s7", 32}};
  d.parts = parts();
  d.operand_bits = 8 * fmt::kHif4PackedBytes;
  // Every rank and s2..s7 are the shared tail module (rtl/hif4_dot_tail.sv, instance u_tail).
  d.rtl_signals = {{"s1_p", kElems * kWP},         {"s1_side", kSide},          {"u_tail.s2_group", kGroups * kWGroup},
                   {"u_tail.s4_i", kWI},           {"u_tail.s6_big", kWBig}};
  d.stage_table = stage_table();
  d.pkg = pkg();
  return d;
}

float trace(const UnitDesc& d, const DotParams&, const fmt::QTensor& A, size_t m, const fmt::QTensor& Bq, size_t n, size_t blk,
            NetSink& r) {
  const fmt::Hif4Unit ua = A.hif4_unit(m, blk), ub = Bq.hif4_unit(n, blk);
  Hif4DotStages st;
  const DotResult res = Hif4Dot64::compute(ua, ub, &st);
  for (const fmt::Hif4Unit* u : {&ua, &ub}) {
    r.net("in.operands", u->e6m2, 8);
    r.net("in.operands", u->e1_8, 8);
    r.net("in.operands", u->e1_16, 16);
    for (int k = 0; k < kElems; ++k) r.net("in.operands", u->nib[k], 4);
  }
  put_fp4_products(r, "s0.l3", ua.nib, ub.nib, st.a_a, st.a_b, st.p, kElems, kMag, kWP);
  for (int i = 0; i < kGroups; ++i) {
    put_tree(r, "s2.tree", std::vector<i128>(st.p + kPerGroup * i, st.p + kPerGroup * (i + 1)), kWP);
    const int sh = ((ua.e1_8 >> i) & 1) + ((ub.e1_8 >> i) & 1);
    r.net("s3.shift", st.group[i], kWGroup);
    r.net("s3.shift", sh, 2);
    r.net("s3.shift", st.shifted[i], kWShifted);
  }
  put_tree(r, "s4.tree", std::vector<i128>(st.shifted, st.shifted + kGroups), kWShifted);
  r.net("s5.smul", 4 + (ua.e6m2 & 3), kScaleSig);
  r.net("s5.smul", 4 + (ub.e6m2 & 3), kScaleSig);
  r.net("s5.smul", st.scale_prod, kWSS);
  r.net("s5.exp", ua.e6m2 >> 2, 6);
  r.net("s5.exp", ub.e6m2 >> 2, 6);
  r.net("s5.exp", st.exp, kWX);
  r.net("s6.mul", st.i_sum, kWI);
  r.net("s6.mul", st.scale_prod, kWSS);
  r.net("s6.mul", st.big, kWBig);
  put_fp32_conversion(r, "s7.abs", "s7.norm", nullptr, "s7.exp", st.big, kWBig, st.exp, 8, st.out_bits);
  // The ranks carry exactly the RTL's fields: {nan, X, SS}, both E1_8, and the stage's values.
  const i128 side = (i128(st.nan) << (kWX + kWSS)) | (i128(st.exp & ((1 << kWX) - 1)) << kWSS) | st.scale_prod;
  const i128 e18 = ua.e1_8 | (ub.e1_8 << 8);
  std::vector<Field> c1{{side, kSide}, {e18, kE18}};
  for (int k = 0; k < kElems; ++k) c1.push_back({st.p[k], kWP});
  put_cut(r, d, 1, c1);
  std::vector<Field> c2{{side, kSide}, {e18, kE18}};
  for (int i = 0; i < kGroups; ++i) c2.push_back({st.group[i], kWGroup});
  put_cut(r, d, 2, c2);
  put_cut(r, d, 3, {{side, kSide}, {st.i_sum, kWI}});
  put_cut(r, d, 4, {{st.nan, 1}, {st.exp, kWX}, {st.big, kWBig}});
  put_cut(r, d, 5, {{st.out_bits, 32}});
  return res.value;
}

std::pair<std::string, std::string> supported(const DotParams&) { return {}; }

}  // namespace

extern const DotUnitHw kHif4Dot64;
const DotUnitHw kHif4Dot64{describe, trace, supported};

}  // namespace hifsim::dp::hw
