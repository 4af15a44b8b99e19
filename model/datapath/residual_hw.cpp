// The hardware of the dedicated residual unit (residual.hpp, docs/cost.md "Residual array"). For
// HiF4 with 2:4 sparsity it is the verified select-and-multiply unit (SparseResidualHif4Dot,
// rtl/sparse_residual_add.sv; widths from SparseDotBounds); for the other formats and kinds the
// format's dot unit with half its per-lane logic (2:4) or all of it (dense, top50), plus the 2:4
// select multiplexers.
#include <algorithm>

#include "datapath/hif4_dot.hpp"
#include "datapath/hw.hpp"
#include "datapath/hw_text.hpp"
#include "datapath/residual.hpp"
#include "formats/hif4.hpp"

namespace hifsim::dp::hw {
namespace {

using S = SparseDotBounds;
constexpr int kSlots = fmt::kHif4Block / 2;  // 2 kept elements per group of 4
constexpr int kGroups = 8;                    // level-2 groups, 4 slots each
constexpr int kMag = unsigned_bits(Hif4DotBounds::a);
constexpr int kWP = signed_bits(S::p);
constexpr int kWGroup = signed_bits(S::group);
constexpr int kWShifted = signed_bits(S::shifted);
constexpr int kWI = signed_bits(S::i_sum);
constexpr int kWBig = signed_bits(S::big);
constexpr int kWSS = unsigned_bits(Hif4DotBounds::scale_prod_max);
constexpr int kWX = std::max(signed_bits(-Hif4DotBounds::exp_min), signed_bits(Hif4DotBounds::exp_max));
constexpr int kAccSide = 1 + 32;              // {acc_start, init_value} travels with the data
constexpr int kSide = kAccSide + 1 + kWX + kWSS;
constexpr int kE18 = 16;

std::vector<Component> sparse_parts() {
  return {
      {"r.s0.l3", Kind::mux, kMag, 2, 2 * kSlots, false, true, "level-3 bit absorbed into the kept residual and selected weight elements"},
      {"r.select", Kind::mux, 4, 4, kSlots, false, true, "2:4 select of the weight element by its 2-bit index"},
      {"r.s1.prod", Kind::smul, kMag, 0, kSlots, true, true, "32 sign-magnitude 4x4 products"},
      {"r.s2.tree", Kind::tree, kSlots / kGroups, kWP, kGroups, true, true,
       "8 sums of 4 products (" + std::to_string(kWGroup) + "-bit)"},
      {"r.s3.shift", Kind::shift, kWGroup, 2, kGroups, false, false, "8 level-2 shifts by 0..2"},
      {"r.s4.tree", Kind::tree, kGroups, kWShifted, 1, false, false, "8 -> 1 tree (" + std::to_string(kWI) + "-bit I)"},
      {"r.s5.smul", Kind::mul, 3, 3, 1, false, false, "E6M2 x E6M2 significand product (3x3 bits)"},
      {"r.s5.exp", Kind::add, kWX, 0, 2, false, false, "exponent sum ER + EW - 104"},
      {"r.s6.mul", Kind::mul, kWI, kWSS, 1, false, false,
       "I x SS (" + std::to_string(kWI) + "x" + std::to_string(kWSS) + " -> " + std::to_string(kWBig) + " bits)"},
      {"r.s7.abs", Kind::add, kWBig, 0, 1, true, false, "|big|"},
      {"r.s7.norm", Kind::norm, kWBig - 1, 0, 1, true, false, "leading-one detect + normalise (exact FP32)"},
      {"r.s7.exp", Kind::add, 8, 0, 1, true, false, "FP32 exponent"},
  };
}

// Any other unit: the dot unit's combinational parts, halved per lane for 2:4.
std::vector<Component> derived_parts(const DotParams& p, ResidualKind kind) {
  DotParams comb = p;
  comb.stages = 0;
  std::vector<Component> v;
  for (Component c : describe_dot(comb).parts) {
    if (c.kind == Kind::reg) continue;
    if (kind == ResidualKind::sparse24 && c.per_lane) {
      if (c.kind == Kind::tree) {
        c.p1 = std::max(2, c.p1 / 2);  // group trees see half the products
      } else {
        c.count = std::max(1, c.count / 2);
      }
    }
    c.name = "r." + c.name;
    v.push_back(c);
  }
  if (kind == ResidualKind::sparse24)
    v.push_back({"r.select", Kind::mux, 5, 4, p.lanes / 2, false, true, "2:4 select of the weight element by its 2-bit index"});
  return v;
}

}  // namespace

UnitDesc describe_residual(const DotParams& p, ResidualKind kind) {
  UnitDesc d;
  d.label = std::string(fmt::format_info(p.format).name) + " residual (" + residual_name(kind) + ")";
  d.cut_masks = {0};
  d.operand_bits = describe_dot(p).operand_bits;
  if (fmt::format_traits(p.format).unit == fmt::DotUnit::hif4_dot64 && kind == ResidualKind::sparse24) {
    d.parts = sparse_parts();
    return d;
  }
  d.parts = derived_parts(p, kind);
  return d;
}

UnitDesc describe_sparse_residual_add(int stages, const AccSpec& acc) {
  DotParams p;
  p.format = fmt::Format::hif4;
  UnitDesc d = describe_residual(p, ResidualKind::sparse24);
  const UnitDesc a = describe_acc(acc);
  for (const Component& c : a.parts) d.parts.push_back(c);
  d.rtl_top = "sparse_residual_add";
  d.rtl_params = {{"STAGES", stages}};
  for (const RtlParam& x : a.rtl_params) d.rtl_params.push_back(x);
  d.label = "hif4 sparse residual x" + std::to_string(kSlots) + " + " + a.label + " accumulator";
  d.cut_rule = "sparse_residual_add";
  d.stages = stages;
  // The cut points of hif4_dot64 (rtl/sparse_residual_add.sv; every rank and s2..s7 are the shared tail, u_tail).
  d.cut_masks = {0b00000, 0b00100, 0b01010, 0b01110, 0b01111, 0b11111};
  d.cuts = {{"s1", "u_tail.u_cut_s1", kSide + kE18 + kSlots * kWP},
            {"s2", "u_tail.u_cut_s2", kSide + kE18 + kGroups * kWGroup},
            {"s4", "u_tail.u_cut_s4", kSide + kWI},
            {"s6", "u_tail.u_cut_s6", kAccSide + 1 + kWX + kWBig},
            {"s7", "u_tail.u_cut_s7", kAccSide + 32}};
  d.rtl_signals = {{"s1_p", kSlots * kWP},   {"s1_side", kSide},         {"u_tail.s2_group", kGroups * kWGroup},
                   {"u_tail.s4_i", kWI},     {"u_tail.s6_big", kWBig},   {"acc_q", acc_register_bits(acc)}};
  d.stage_table = {
      {"s0", "residual and selected weight elements after L3 absorption", "\\|r\\|, \\|w\\| <= " + std::to_string(Hif4DotBounds::a), ""},
      {"s1", "32 products", "\\|p\\| <= " + grouped(S::p), std::to_string(kWP) + "-bit signed"},
      {"s2", "8 sums of 4 (one per L2 group)", "\\|.\\| <= " + grouped(S::group), std::to_string(kWGroup) + "-bit signed"},
      {"s3", "L2 shifts", "\\|.\\| <= " + grouped(S::shifted), std::to_string(kWShifted) + "-bit signed"},
      {"s4", "I", "\\|I\\| <= " + grouped(S::i_sum), std::to_string(kWI) + "-bit signed"},
      {"s5-s7", "as HiF4 (SS, X, `big = I*SS`, exact FP32)", "\\|big\\| <= " + grouped(S::big), std::to_string(kWBig) + "-bit signed"},
  };
  d.pkg = {{"SP_SLOTS", kSlots, "kept elements: 2 per group of 4"},
           {"SP_UNIT_BITS", 32 + 4 * kSlots + 2 * kSlots, "meta (32) | 32 nibbles | 32 two-bit indices"},
           {"SP_W_GROUP", kWGroup, "s2 sums of 4 products"},
           {"SP_W_SHIFTED", kWShifted, "s3 level-2 shifts"},
           {"SP_W_I", kWI, "s4 I"},
           {"SP_W_BIG", kWBig, "s6 big = I * SS"},
           {"SP_MAX_GROUP", S::group, ""},
           {"SP_MAX_SHIFTED", S::shifted, ""},
           {"SP_MAX_I", S::i_sum, ""},
           {"SP_MAX_BIG", S::big, ""}};
  return d;
}

}  // namespace hifsim::dp::hw
