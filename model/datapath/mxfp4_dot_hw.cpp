// The hardware of the MXFP4 64-wide dot product (mxfp4_dot.hpp, rtl/mxfp4_dot64.sv). Widths from
// Mxfp4DotBounds; ranks and their fields as the RTL registers them.
#include <algorithm>

#include "datapath/element.hpp"
#include "datapath/hw.hpp"
#include "datapath/hw_text.hpp"
#include "datapath/mxfp4_dot.hpp"
#include "formats/mx.hpp"

namespace hifsim::dp::hw {
namespace {

// ---- MXFP4: two 32-element E2M1 blocks with E8M0 scales ----

using B4 = Mxfp4DotBounds;
constexpr int kMx4Elems = 64;
constexpr int kMx4Blocks = kMx4Elems / fmt::kMxBlock;
constexpr int kMx4Mag = unsigned_bits(B4::a);
constexpr int kMx4WP = signed_bits(B4::p);
constexpr int kMx4WSum = signed_bits(B4::block_sum);
constexpr int kMx4WX = std::max(signed_bits(-B4::exp_min), signed_bits(B4::exp_max));
// s4a: the other block sum lands up to kJamDist binades below the leading one's LSB; further down
// it is one jam bit (rtl/mxfp4_dot64.sv explains why that rounds alike).
constexpr int kJamDist = 40;
constexpr int kMx4WF = kMx4WSum + kJamDist + 1;            // F = S[h] << 40 + the other term
constexpr int kMx4WLsb = kMx4WX + 1;                       // X[h] - 40
constexpr int kMx4Side = 1 + kMx4Blocks * kMx4WX;          // {nan, X[1], X[0]}: computed first, carried along

std::vector<Component> mx4_parts() {
  const std::string f = std::to_string(kMx4WF);
  return {
      {"s0.dec", Kind::dec, 0, 0, 2 * kMx4Elems, false, true, "E2M1 magnitude -> half units"},
      {"s1.prod", Kind::smul, kMx4Mag, 0, kMx4Elems, true, true,
       std::to_string(kMx4Elems) + " sign-magnitude 4x4 products -> " + std::to_string(kMx4WP) + "-bit two's complement"},
      {"s2.tree", Kind::tree, fmt::kMxBlock, kMx4WP, kMx4Blocks, true, true,
       "2 block trees of 32 products (" + std::to_string(kMx4WSum) + "-bit sums)"},
      {"s3.exp", Kind::add, kMx4WX, 0, kMx4Blocks, false, false,
       "2 E8M0 exponent sums xa + xb - " + std::to_string(-B4::exp_min)},
      {"s4.cmp", Kind::add, kMx4WX, 0, 1, false, false, "X[1] > X[0]: which block sum leads"},
      {"s4.exp", Kind::add, kMx4WLsb, 0, 3, false, false, "d = X[h] - X[l], 40 - d and the LSB exponent X[h] - 40"},
      {"s4.swap", Kind::mux, kMx4WSum, 2, 2, false, false, "leading / other block sum"},
      {"s4.xswap", Kind::mux, kMx4WX, 2, 2, false, false, "their exponents"},
      {"s4.shift", Kind::shift, kMx4WSum, unsigned_bits(kJamDist), 1, false, false,
       "aligner of the other block sum: left by 40 - d (0..40) into the " + f + "-bit field, else a jam bit"},
      {"s4.add", Kind::add, kMx4WF, 0, 1, false, false, "F = S[h] * 2^40 + the aligned other sum"},
      {"s5.abs", Kind::add, kMx4WF, 0, 1, true, false, "|F|"},
      {"s5.norm", Kind::norm, kMx4WF, 0, 1, true, false, "leading-one detect + normalise"},
      {"s5.round", Kind::add, 24, 0, 1, true, false, "RNE rounding increment"},
      {"s5.exp", Kind::add, kMx4WLsb, 0, 1, true, false, "FP32 exponent"},
  };
}

std::vector<StageRow> mx4_stage_table() {
  return {
      {"s0, s1", "E2M1 in half units, products `p = aA * aB` (quarter units)", "\\|p\\| <= " + grouped(B4::p),
       std::to_string(kMx4WP) + "-bit signed"},
      {"s2", "`S[b] = Σ_32 p`", "\\|S\\| <= " + grouped(B4::block_sum), std::to_string(kMx4WSum) + "-bit signed"},
      {"s3", "`X[b] = (xa-127)+(xb-127)-2`", "X " + grouped(B4::exp_min) + ".." + grouped(B4::exp_max),
       std::to_string(kMx4WX) + "-bit signed"},
      {"s4a", "`F = S[h]·2^40 + S[l]·2^(40-d)`, `d = X[h] - X[l]` (d > 40: a jam bit ±1)", "",
       std::to_string(kMx4WF) + "-bit signed"},
      {"s4b", "`out = RNE_fp32(F · 2^(X[h]-40))`", "", "the single rounding"},
  };
}

std::vector<PkgConst> mx4_pkg() {
  return {
      {"MX4_W_SUM", kMx4WSum, "s2 S[b] = sum of 32 products (quarter units)"},
      {"MX4_MAX_SUM", B4::block_sum, ""},
      {"MX4_W_X", kMx4WX, "s3 X[b] = xa + xb - MX4_EXP_OFFSET, two's complement"},
      {"MX4_EXP_OFFSET", -B4::exp_min, "(xa - 127) + (xb - 127) - 2"},
      {"MX4_X_MIN", B4::exp_min, ""},
      {"MX4_X_MAX", B4::exp_max, ""},
      {"MX4_JAM_DIST", kJamDist, "s4: a term more than this many binades below the other is a jam bit"},
  };
}

UnitDesc mx4_describe(const DotParams& p) {
  UnitDesc d;
  d.rtl_top = "mxfp4_dot64";
  d.rtl_params = {{"STAGES", p.stages}};
  d.label = "mxfp4 x" + std::to_string(kMx4Elems);
  d.cut_rule = "mxfp4_dot64";
  d.stages = p.stages;
  // The RTL's cut table (rtl/mxfp4_dot64.sv): STAGES -> ranks after s1, s2, s4a, s4b.
  d.cut_masks = {0b0000, 0b0010, 0b0110, 0b0111, 0b1111};
  d.cuts = {{"s1", "u_cut_s1", kMx4Side + kMx4Elems * kMx4WP},
            {"s2", "u_cut_s2", kMx4Side + kMx4Blocks * kMx4WSum},
            {"s4a", "u_cut_s4a", 1 + kMx4WLsb + kMx4WF},
            {"s4b", "u_cut_s4b", 32}};
  d.parts = mx4_parts();
  d.operand_bits = kMx4Elems * 4 + kMx4Blocks * 8;
  d.rtl_signals = {{"s1_p", kMx4Elems * kMx4WP}, {"s1_side", kMx4Side}, {"s2_sum", kMx4Blocks * kMx4WSum},
                   {"s4_f", kMx4WF},            {"s4_lsb", kMx4WLsb}};
  d.stage_table = mx4_stage_table();
  d.pkg = mx4_pkg();
  return d;
}

// The RTL's s4a on the unit's block sums and exponents (rtl/mxfp4_dot64.sv): the leading term
// h, the distance d, the field F and its LSB exponent.
struct Mx4Align {
  int h = 0, d = 0, dl = 0;
  i128 hi = 0, lo = 0, f = 0;
  int lsb = 0;
};
Mx4Align mx4_align(const Mxfp4DotStages& st) {
  Mx4Align a;
  const bool z0 = st.block_sum[0] == 0, z1 = st.block_sum[1] == 0;
  a.h = (z0 || (!z1 && st.exp[1] > st.exp[0])) ? 1 : 0;
  const int l = 1 - a.h;
  a.d = st.exp[a.h] - st.exp[l];
  a.dl = kJamDist - a.d;
  const i128 sl = st.block_sum[l];
  a.hi = i128(st.block_sum[a.h]) * (i128(1) << kJamDist);  // products, not shifts: the sums may be negative
  if (sl == 0) a.lo = 0;
  else if (a.d <= kJamDist) a.lo = sl * (i128(1) << a.dl);
  else a.lo = sl < 0 ? -1 : 1;  // the jam bit
  a.f = a.hi + a.lo;
  a.lsb = st.exp[a.h] - kJamDist;
  return a;
}

float mx4_trace(const UnitDesc& d, const DotParams&, const fmt::QTensor& A, size_t m, const fmt::QTensor& Bq, size_t n,
                size_t blk, NetSink& r) {
  const BlockOperands o = block_operands(A, m, Bq, n, blk, kMx4Elems, 4, kMx4Blocks, r);
  const uint8_t *sa = o.sa, *sb = o.sb;
  Mxfp4DotStages st;
  const DotResult res = Mxfp4Dot64::compute(o.a8, sa, o.b8, sb, &st);
  put_fp4_products(r, "s0.dec", o.a8, o.b8, st.a_a, st.a_b, st.p, kMx4Elems, kMx4Mag, kMx4WP);
  for (int b = 0; b < kMx4Blocks; ++b)
    put_tree(r, "s2.tree", std::vector<i128>(st.p + fmt::kMxBlock * b, st.p + fmt::kMxBlock * (b + 1)), kMx4WP);
  for (int b = 0; b < kMx4Blocks; ++b) {
    r.net("s3.exp", sa[b], 8);
    r.net("s3.exp", sb[b], 8);
    r.net("s3.exp", st.exp[b], kMx4WX);
  }
  const Mx4Align a = mx4_align(st);
  const int l = 1 - a.h;
  r.net("s4.cmp", st.exp[0], kMx4WX);
  r.net("s4.cmp", st.exp[1], kMx4WX);
  r.net("s4.cmp", a.h, 1);
  r.net("s4.exp", a.d, kMx4WLsb);
  r.net("s4.exp", a.dl, kMx4WLsb);
  r.net("s4.exp", a.lsb, kMx4WLsb);
  r.net("s4.swap", st.block_sum[0], kMx4WSum);
  r.net("s4.swap", st.block_sum[1], kMx4WSum);
  r.net("s4.swap", st.block_sum[a.h], kMx4WSum);
  r.net("s4.swap", st.block_sum[l], kMx4WSum);
  r.net("s4.xswap", st.exp[a.h], kMx4WX);
  r.net("s4.xswap", st.exp[l], kMx4WX);
  r.net("s4.shift", st.block_sum[l], kMx4WSum);
  r.net("s4.shift", std::clamp(a.dl, 0, kJamDist), unsigned_bits(kJamDist));
  r.net("s4.shift", a.lo, kMx4WF);
  r.net("s4.add", a.hi, kMx4WF);
  r.net("s4.add", a.lo, kMx4WF);
  r.net("s4.add", a.f, kMx4WF);
  put_fp32_conversion(r, "s5.abs", "s5.norm", "s5.round", "s5.exp", a.f, kMx4WF, a.lsb, kMx4WLsb, st.out_bits);
  // The ranks carry exactly the RTL's fields.
  const i128 side = (i128(st.nan) << (2 * kMx4WX)) | (i128(st.exp[1] & ((1 << kMx4WX) - 1)) << kMx4WX) |
                    (st.exp[0] & ((1 << kMx4WX) - 1));
  std::vector<Field> c1{{side, kMx4Side}}, c2{{side, kMx4Side}};
  for (int k = 0; k < kMx4Elems; ++k) c1.push_back({st.p[k], kMx4WP});
  for (int b = 0; b < kMx4Blocks; ++b) c2.push_back({st.block_sum[b], kMx4WSum});
  put_cut(r, d, 1, c1);
  put_cut(r, d, 2, c2);
  put_cut(r, d, 3, {{st.nan, 1}, {a.lsb, kMx4WLsb}, {a.f, kMx4WF}});
  put_cut(r, d, 4, {{st.out_bits, 32}});
  return res.value;
}

std::pair<std::string, std::string> supported(const DotParams&) { return {}; }

}  // namespace

extern const DotUnitHw kMxfp4Dot64;
const DotUnitHw kMxfp4Dot64{mx4_describe, mx4_trace, supported};

}  // namespace hifsim::dp::hw
