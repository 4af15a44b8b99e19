// The hardware of the dot products with hierarchical alignment (aligned_dot.hpp): HiF8 N-wide
// (rtl/hif8_dot.sv) and BF16 64-wide (rtl/bf16_dot64.sv), both the datapath hifsim_aligned_dot.
// Widths from the element exponent ranges, the product bits and the window; ranks and their
// fields as the RTL registers them.
#include <algorithm>
#include <climits>

#include "datapath/aligned_dot.hpp"
#include "datapath/element.hpp"
#include "datapath/hw.hpp"
#include "datapath/hw_text.hpp"

namespace hifsim::dp::hw {
namespace {

constexpr int kWLsb = 11;  // the LSB exponent L - sticky (rtl/hifsim_aligned_dot.sv WXE)

bool is_bf16(const DotParams& p) { return fmt::format_traits(p.format).unit == fmt::DotUnit::bf16_dot64; }
bool exact(const DotParams& p) { return !is_bf16(p) && p.align_width == kHif8ExactWidth; }

struct Widths {
  int code, sig, eexp;       // element code, significand, exponent (signed)
  int pbits, pexp_min, u;    // product significand, lowest product exponent, biased product exponent
  int window, sb, term, gap; // W, the sticky bit below it, the aligned term, the clamped gap
  int sum, lane;             // the sum; one lane {nonzero, neg, psig, u}
};
Widths widths(const DotParams& p) {
  const bool bf = is_bf16(p);
  const int emin = bf ? kBf16ExpMin : kHif8ExpMin, emax = bf ? kBf16ExpMax : kHif8ExpMax;
  Widths w;
  w.code = bf ? 16 : 8;
  w.pbits = bf ? kBf16ProductBits : kHif8ProductBits;
  w.sig = w.pbits / 2;
  w.eexp = std::max(signed_bits(-emin), signed_bits(emax));
  w.pexp_min = 2 * emin;
  w.u = unsigned_bits(2 * emax - 2 * emin);
  w.window = p.align_width;
  w.sb = !exact(p) && p.policy == AlignPolicy::sticky ? 1 : 0;  // the exact window drops nothing
  w.term = w.window + w.sb;
  w.gap = ceil_log2(w.term + 1);
  w.sum = w.term + ceil_log2(p.lanes) + 1;
  w.lane = 2 + w.pbits + w.u;
  return w;
}
constexpr int kSpecials = 3;  // {nan, +inf, -inf}

std::vector<Component> parts(const DotParams& p, const Widths& w) {
  const int n = p.lanes;
  std::vector<Component> v;
  if (is_bf16(p)) {
    v.push_back({"s0.dec", Kind::mux, w.sig, 2, 2 * n, true, true, "BF16 significand (hidden bit / subnormal)"});
  } else {
    v.push_back({"s0.dec", Kind::dec, 1, 0, 2 * n, false, true, "HiF8 decode: dot field selects one of 5 exponent/mantissa layouts"});
  }
  const std::string pb = std::to_string(w.sig);
  v.push_back({"s1.prod", Kind::mul, w.sig, w.sig, n, true, true, "significand products (" + pb + "x" + pb + " bits)"});
  v.push_back({"s1.exp", Kind::add, w.u, 0, n, true, true, "biased product exponents u = eA + eB - 2 emin"});
  v.push_back({"s2.max", Kind::max, n, w.u + 1, 1, true, false, "maximum product exponent (comparator tree)"});
  v.push_back({"s3.diff", Kind::add, w.u, 0, n, true, true, "shift amounts Emax - u"});
  v.push_back({"s3.shift", Kind::shift, w.pbits, w.gap, n, true, true,
               "aligners of the " + std::to_string(w.pbits) + "-bit products into the " + std::to_string(w.term) + "-bit window"});
  v.push_back({"s3.neg", Kind::mux, w.sum, 2, n, true, true, "conditional negate of the aligned terms"});
  v.push_back({"s4.tree", Kind::tree, n, w.sum, 1, true, false, "sum of the aligned terms (" + std::to_string(w.sum) + "-bit)"});
  v.push_back({"s5.abs", Kind::add, w.sum, 0, 1, true, false, "|S|"});
  v.push_back({"s5.norm", Kind::norm, w.sum, 0, 1, true, false, "leading-one detect + normalise"});
  v.push_back({"s5.round", Kind::add, 24, 0, 1, true, false, "RNE rounding increment"});
  v.push_back({"s5.exp", Kind::add, kWLsb, 0, 1, true, false, "FP32 exponent"});
  return v;
}

std::string label(const DotParams& p) {
  const std::string n = std::string(fmt::format_info(p.format).name) + " x" + std::to_string(p.lanes) +
                        ", W=" + std::to_string(p.align_width);
  if (exact(p)) return n + " (exact)";
  return n + (p.policy == AlignPolicy::sticky ? " sticky" : " trunc");
}

std::vector<StageRow> stage_table(const DotParams& p, const Widths& w) {
  const std::string W = std::to_string(p.align_width);
  return {
      {"s0", "element `sig * 2^e`, e " + grouped(is_bf16(p) ? kBf16ExpMin : kHif8ExpMin) + ".." +
                 grouped(is_bf16(p) ? kBf16ExpMax : kHif8ExpMax), "", std::to_string(w.sig) + "-bit; " + std::to_string(w.eexp) + "-bit signed"},
      {"s1", "product `psig = sigA*sigB`, biased exponent `u = eA + eB - 2 emin`", "",
       std::to_string(w.pbits) + "-bit; " + std::to_string(w.u) + "-bit"},
      {"s2", "`Emax = max u` over nonzero products (a comparator tree: the hierarchy)", "", std::to_string(w.u + 1) + "-bit"},
      {"s3", "`psig` at the top of a " + std::to_string(w.term) + "-bit window (W = " + W + (w.sb ? " + sticky" : "") +
                 "), right by `Emax - u`", "", std::to_string(w.term) + "-bit"},
      {"s4", "`S = Σ ±t`", "", std::to_string(w.sum) + "-bit signed"},
      {"s5", "`out = RNE_fp32(S * 2^(L - sticky))`", "", "the single rounding"},
  };
}

std::vector<PkgConst> pkg() {
  return {
      {"HIF8_PROD_BITS", kHif8ProductBits, "P: product significand bits"},
      {"HIF8_EXACT_W", kHif8ExactWidth, "a window that never drops a bit (W = 0 in the model)"},
      {"BF16_PROD_BITS", kBf16ProductBits, ""},
      {"BF16_EXACT_W", kBf16ExactWidth, ""},
      {"BF16_DEFAULT_W", default_align(fmt::Format::bf16).width, "the model's default_align for BF16 (sticky)"},
  };
}

UnitDesc describe(const DotParams& p) {
  const Widths w = widths(p);
  const int n = p.lanes;
  UnitDesc d;
  d.rtl_top = fmt::dot_unit_name(fmt::format_traits(p.format).unit);
  d.rtl_params = {{"W", exact(p) ? 0 : p.align_width}, {"STICKY", p.policy == AlignPolicy::sticky ? 1 : 0}, {"STAGES", p.stages}};
  if (!is_bf16(p)) d.rtl_params.insert(d.rtl_params.begin(), {"N", n});
  d.label = label(p);
  d.cut_rule = "aligned_dot";
  d.stages = p.stages;
  // The RTL's cut table (rtl/hifsim_aligned_dot.sv): STAGES -> ranks after s1, s2, s4, s5.
  d.cut_masks = {0b0000, 0b0100, 0b0101, 0b0111, 0b1111};
  const int c1 = kSpecials + n * w.lane;
  d.cuts = {{"s1", "u_dot.u_cut_s1", c1},
            {"s2", "u_dot.u_cut_s2", c1 + 1 + w.u},
            {"s4", "u_dot.u_cut_s4", kSpecials + kWLsb + w.sum},
            {"s5", "u_dot.u_cut_s5", 32}};
  d.parts = parts(p, w);
  d.operand_bits = n * w.code;
  d.rtl_signals = {{"u_dot.s1_lane", n * w.lane}, {"u_dot.s2_emax", 1 + w.u}, {"u_dot.s4_sum", w.sum}, {"u_dot.s4_lsb", kWLsb}};
  d.stage_table = stage_table(p, w);
  d.pkg = pkg();
  return d;
}

float trace(const UnitDesc& d, const DotParams& p, const fmt::QTensor& A, size_t m, const fmt::QTensor& Bq, size_t n, size_t blk,
            NetSink& r) {
  const Widths w = widths(p);
  const int N = p.lanes;
  const bool bf = is_bf16(p);
  const uint16_t* ca = block_codes(A, m, blk, N);
  const uint16_t* cb = block_codes(Bq, n, blk, N);
  AlignedDotStages st;
  const AlignSpec spec{p.align_width, p.policy};
  DotResult res;
  if (bf) {
    res = Bf16Dot64::compute(ca, cb, spec, &st);
  } else {
    uint8_t a8[64], b8[64];
    for (int k = 0; k < N; ++k) a8[k] = static_cast<uint8_t>(ca[k]), b8[k] = static_cast<uint8_t>(cb[k]);
    res = Hif8DotN::compute(a8, b8, N, spec, &st);
  }
  auto dec = [&](uint16_t c) { return bf ? decode_bf16(c) : decode_hif8(static_cast<uint8_t>(c)); };
  const int emin = w.pexp_min / 2;
  put_operand(r, ca, N, w.code, nullptr, 0);
  put_operand(r, cb, N, w.code, nullptr, 0);
  std::vector<Field> c1;
  for (int k = 0; k < N; ++k) {
    const Elem x = dec(ca[k]), y = dec(cb[k]);
    const int u = st.pexp[k] - w.pexp_min;
    r.net("s0.dec", ca[k], w.code);
    r.net("s0.dec", x.sig, w.sig);
    r.net("s0.dec", x.exp, w.eexp);
    r.net("s0.dec", cb[k], w.code);
    r.net("s0.dec", y.sig, w.sig);
    r.net("s0.dec", y.exp, w.eexp);
    r.net("s1.prod", x.sig, w.sig);
    r.net("s1.prod", y.sig, w.sig);
    r.net("s1.prod", st.psig[k], w.pbits);
    r.net("s1.exp", x.exp - emin, w.u);
    r.net("s1.exp", y.exp - emin, w.u);
    r.net("s1.exp", u, w.u);
    c1.push_back({st.psig[k] != 0, 1});
    c1.push_back({st.pneg[k], 1});
    c1.push_back({st.psig[k], w.pbits});
    c1.push_back({u, w.u});
  }
  // Emax over the nonzero products as the RTL's comparator tree sees it: {any, u}.
  const bool any = st.emax != INT_MIN;
  const i128 emax = any ? (i128(1) << w.u) | (st.emax - w.pbits - w.pexp_min) : 0;
  for (int k = 0; k < N; ++k) r.net("s2.max", st.psig[k] ? (i128(1) << w.u) | (st.pexp[k] - w.pexp_min) : 0, w.u + 1);
  r.net("s2.max", emax, w.u + 1);
  std::vector<i128> terms(static_cast<size_t>(N));
  for (int k = 0; k < N; ++k) {
    const i128 t = static_cast<i128>(st.term[k]);
    terms[static_cast<size_t>(k)] = st.pneg[k] ? -t : t;
    const int gap = any ? st.emax - w.pbits - st.pexp[k] : 0;
    r.net("s3.diff", gap, w.u);
    r.net("s3.shift", st.psig[k], w.pbits);
    r.net("s3.shift", std::clamp(gap, 0, w.term), w.gap);
    r.net("s3.shift", t, w.term);
    r.net("s3.neg", t, w.sum);
    r.net("s3.neg", terms[static_cast<size_t>(k)], w.sum);
  }
  put_tree(r, "s4.tree", terms, w.sum);
  // L - sticky: the weight of the sum's LSB (all products zero: the RTL's Emax = 0).
  const int lsb = any ? st.lsb - w.sb : w.pexp_min + w.pbits - w.term;
  put_fp32_conversion(r, "s5.abs", "s5.norm", "s5.round", "s5.exp", st.sum, w.sum, lsb, kWLsb, st.out_bits);
  const Field sp{i128(st.nan) << 2 | i128(st.pinf) << 1 | i128(st.ninf), kSpecials};
  c1.push_back(sp);
  put_cut(r, d, 1, c1);
  std::vector<Field> c2 = c1;
  c2.push_back({emax, 1 + w.u});
  put_cut(r, d, 2, c2);
  put_cut(r, d, 3, {sp, {lsb, kWLsb}, {st.sum, w.sum}});
  put_cut(r, d, 4, {{st.out_bits, 32}});
  return res.value;
}

std::pair<std::string, std::string> unsupported(const DotParams& p) {
  if (p.align_width > 112)
    return {"pe.align_width", "the cost model traces alignment windows up to 112 bits, this unit's is " + std::to_string(p.align_width) +
                                  (is_bf16(p) && p.align_width == kBf16ExactWidth ? " (the exact BF16 window)" : "")};
  return {};
}

}  // namespace

extern const DotUnitHw kAlignedDot;
const DotUnitHw kAlignedDot{describe, trace, unsupported};

}  // namespace hifsim::dp::hw
