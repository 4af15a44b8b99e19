// The hardware of the MXFP8 32-wide dot product (mxfp8_dot.hpp, rtl/mxfp8_dot32.sv; plain FP8 GEMMs
// run on it with both scales 127). Widths from Mxfp8DotBounds; ranks and their fields as the RTL
// registers them.
#include <algorithm>

#include "datapath/element.hpp"
#include "datapath/hw.hpp"
#include "datapath/hw_text.hpp"
#include "datapath/mxfp8_dot.hpp"
#include "formats/mx.hpp"

namespace hifsim::dp::hw {
namespace {

using B8 = Mxfp8DotBounds;
constexpr int kMx8Lanes = fmt::kMxBlock;
constexpr int kMx8WX = 11;  // X and the LSB exponent (rtl/mxfp8_dot32.sv WX)

bool e5m2(fmt::Format f) { return fmt::format_traits(f).element == fmt::Code::e5m2; }
bool has_scale(fmt::Format f) { return fmt::format_traits(f).scale == fmt::Code::e8m0; }  // plain FP8: none

struct Mx8Widths {
  int sig, off, pbits, shift, sum, lane, side;  // element significand and exponent offset, product, shift, sum
  int min_exp;
};
Mx8Widths mx8_widths(fmt::Format f) {
  const bool e5 = e5m2(f);
  const Elem one = e5 ? decode_e5m2(0x01) : decode_e4m3(0x01);  // the smallest subnormal: t = tmin
  const Elem top = e5 ? decode_e5m2(fmt::kE5M2.max_finite) : decode_e4m3(fmt::kE4M3.max_finite);
  Mx8Widths w;
  w.sig = unsigned_bits(top.sig);
  w.off = unsigned_bits(top.exp - one.exp);
  w.pbits = 2 * w.sig;
  w.shift = w.off + 1;
  w.min_exp = e5 ? B8::e5m2_min_exp : B8::e4m3_min_exp;
  w.sum = e5 ? signed_bits(kMx8Lanes * B8::e5m2_prod) + B8::e5m2_shift : signed_bits(kMx8Lanes * B8::e4m3_prod) + B8::e4m3_shift;
  w.lane = 1 + w.pbits + w.shift;
  w.side = 4 + kMx8WX;  // {scale nan, nan, +inf, -inf, X}
  return w;
}

std::vector<Component> mx8_parts(const Mx8Widths& w, int n) {
  const std::string s = std::to_string(w.sum);
  return {
      {"s0.dec", Kind::mux, w.sig, 2, 2 * n, true, true, "FP8 significand (hidden bit / subnormal)"},
      {"s1.prod", Kind::mul, w.sig, w.sig, n, true, true, "significand products"},
      {"s1.exp", Kind::add, w.shift, 0, n, true, true, "product shifts tA + tB - 2 tmin"},
      {"s2.shift", Kind::shift, w.pbits, w.shift, n, true, true, "alignment to the lowest product exponent"},
      {"s2.neg", Kind::mux, w.sum, 2, n, true, true, "conditional negate of the aligned terms"},
      {"s2.tree", Kind::tree, n, w.sum, 1, true, false, "exact sum (" + s + "-bit)"},
      {"s3.exp", Kind::add, kMx8WX, 0, 1, false, false, "E8M0 scale exponent sum"},
      {"s4.abs", Kind::add, w.sum, 0, 1, true, false, "|sum|"},
      {"s4.norm", Kind::norm, w.sum, 0, 1, true, false, "leading-one detect + normalise"},
      {"s4.round", Kind::add, 24, 0, 1, true, false, "RNE rounding increment"},
      {"s4.exp", Kind::add, kMx8WX, 0, 1, true, false, "FP32 exponent"},
  };
}

std::vector<PkgConst> mx8_pkg() {
  const Mx8Widths w4 = mx8_widths(fmt::Format::mxfp8_e4m3), w5 = mx8_widths(fmt::Format::mxfp8_e5m2);
  return {
      {"MX8_E4M3_MIN_EXP", w4.min_exp, "lowest product exponent = the sum's LSB weight"},
      {"MX8_E5M2_MIN_EXP", w5.min_exp, ""},
      {"MX8_E4M3_W_SUM", w4.sum, "s2 exact sum of 32 aligned products, two's complement"},
      {"MX8_E5M2_W_SUM", w5.sum, ""},
      {"MX8_EXP_OFFSET", 254, "s3 X = xa + xb - 254"},
  };
}

UnitDesc mx8_describe(const DotParams& p) {
  const Mx8Widths w = mx8_widths(p.format);
  const int n = p.lanes;
  UnitDesc d;
  d.rtl_top = "mxfp8_dot32";
  d.rtl_params = {{"E5M2", e5m2(p.format) ? 1 : 0}, {"STAGES", p.stages}};
  d.label = std::string(fmt::format_info(p.format).name) + " x" + std::to_string(n);
  d.cut_rule = "mxfp8_dot32";
  d.stages = p.stages;
  // The RTL's cut table (rtl/mxfp8_dot32.sv): STAGES -> ranks after s1, s2, s4.
  d.cut_masks = {0b000, 0b010, 0b011, 0b111};
  d.cuts = {{"s1", "u_cut_s1", w.side + n * w.lane}, {"s2", "u_cut_s2", w.side + w.sum}, {"s4", "u_cut_s4", 32}};
  d.parts = mx8_parts(w, n);
  d.operand_bits = n * 8 + (has_scale(p.format) ? 8 : 0);
  d.rtl_signals = {{"s1_lane", n * w.lane}, {"s1_side", w.side}, {"s2_sum", w.sum}};
  d.stage_table = {
      {"s1", "products `sigA*sigB`, shift `tA+tB - 2 tmin`", "", std::to_string(w.pbits) + "-bit; " + std::to_string(w.shift) + "-bit"},
      {"s2", "exact sum of the aligned products, LSB weight 2^" + std::to_string(w.min_exp), "", std::to_string(w.sum) + "-bit signed"},
      {"s3", "`X = (xa-127)+(xb-127)`", "", std::to_string(kMx8WX) + "-bit signed (with the LSB exponent)"},
      {"s4", "`out = RNE_fp32(sum * 2^(X - " + std::to_string(-w.min_exp) + "))`", "", "the single rounding"},
  };
  d.pkg = mx8_pkg();
  return d;
}

float mx8_trace(const UnitDesc& d, const DotParams& p, const fmt::QTensor& A, size_t m, const fmt::QTensor& Bq, size_t n,
                size_t blk, NetSink& r) {
  const int N = p.lanes;
  const Mx8Widths w = mx8_widths(p.format);
  const bool e5 = e5m2(p.format), scaled = has_scale(p.format);
  const BlockOperands o = block_operands(A, m, Bq, n, blk, N, 8, scaled ? 1 : 0, r);
  const uint8_t *a8 = o.a8, *b8 = o.b8;
  const uint8_t xa = scaled ? *o.sa : 127, xb = scaled ? *o.sb : 127;  // plain FP8: 2^0
  Mxfp8DotStages st;
  const DotResult res = Mxfp8Dot32::compute(e5 ? fmt::kE5M2 : fmt::kE4M3, a8, xa, b8, xb, &st);
  std::vector<i128> terms(static_cast<size_t>(N));
  std::vector<Field> c1;
  for (int k = 0; k < N; ++k) {
    const Elem x = e5 ? decode_e5m2(a8[k]) : decode_e4m3(a8[k]);
    const Elem y = e5 ? decode_e5m2(b8[k]) : decode_e4m3(b8[k]);
    const bool num = x.kind == Elem::num && y.kind == Elem::num;
    const int shift = num ? st.prod_exp[k] - st.min_exp : 0;  // t - tmin of both elements (0 for a special)
    r.net("s0.dec", a8[k], 8);
    r.net("s0.dec", x.sig, w.sig);
    r.net("s0.dec", b8[k], 8);
    r.net("s0.dec", y.sig, w.sig);
    r.net("s1.prod", x.sig, w.sig);
    r.net("s1.prod", y.sig, w.sig);
    r.net("s1.prod", st.prod_sig[k], w.pbits);
    r.net("s1.exp", x.exp - st.min_exp / 2, w.off);
    r.net("s1.exp", y.exp - st.min_exp / 2, w.off);
    r.net("s1.exp", shift, w.shift);
    const i128 t = i128(st.prod_sig[k]) << shift;
    terms[static_cast<size_t>(k)] = st.prod_neg[k] ? -t : t;
    r.net("s2.shift", st.prod_sig[k], w.pbits);
    r.net("s2.shift", t, w.sum);
    r.net("s2.neg", t, w.sum);
    r.net("s2.neg", terms[static_cast<size_t>(k)], w.sum);
    c1.push_back({st.prod_neg[k], 1});
    c1.push_back({st.prod_sig[k], w.pbits});
    c1.push_back({shift, w.shift});
  }
  const i128 sum = put_tree(r, "s2.tree", terms, w.sum);
  const int lsb = st.scale_exp + st.min_exp;
  r.net("s3.exp", xa, 8);
  r.net("s3.exp", xb, 8);
  r.net("s3.exp", lsb, kMx8WX);
  put_fp32_conversion(r, "s4.abs", "s4.norm", "s4.round", "s4.exp", sum, w.sum, lsb, kMx8WX, st.out_bits);
  // The ranks carry exactly the RTL's fields: per lane {neg, psig, shift}; {flags, X}; the sum.
  const bool scale_nan = xa == 0xFF || xb == 0xFF;
  const Field side{(i128(scale_nan) << 3 | i128(st.prod_nan) << 2 | i128(st.pinf) << 1 | i128(st.ninf)) << kMx8WX |
                       (lsb & ((1 << kMx8WX) - 1)),
                   w.side};
  c1.push_back(side);
  put_cut(r, d, 1, c1);
  put_cut(r, d, 2, {side, {sum, w.sum}});
  put_cut(r, d, 3, {{st.out_bits, 32}});
  return res.value;
}

std::pair<std::string, std::string> supported(const DotParams&) { return {}; }

}  // namespace

extern const DotUnitHw kMxfp8Dot32;
const DotUnitHw kMxfp8Dot32{mx8_describe, mx8_trace, supported};

}  // namespace hifsim::dp::hw
