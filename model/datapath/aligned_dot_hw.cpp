// The hardware of the dot products with hierarchical alignment (aligned_dot.hpp): HiF8 N-wide
// (rtl/hif8_dot.sv) and BF16 64-wide (rtl/bf16_dot64.sv), both hifsim_aligned_dot.
#include <algorithm>
#include <climits>

#include "datapath/aligned_dot.hpp"
#include "datapath/element.hpp"
#include "datapath/hw.hpp"
#include "datapath/hw_text.hpp"

namespace hifsim::dp::hw {
namespace {

const std::vector<uint32_t> kCutMasks = {0b00000, 0b00100, 0b01010, 0b01110, 0b01111, 0b11111};

bool is_bf16(const DotParams& p) { return p.format == fmt::Format::bf16; }

struct Widths {
  int code, sig, eexp, pexp, pbits;  // element code, significand, element exponent; product exponent, product
  int window, term, sum, lsb;        // W, W + sticky bit, the sum, the LSB exponent
};
Widths widths(const DotParams& p) {
  const bool bf = is_bf16(p);
  Widths w;
  w.code = bf ? 16 : 8;
  w.sig = bf ? 8 : 4;
  w.pexp = bf ? 9 : 7;
  w.eexp = w.pexp - 1;
  w.pbits = bf ? kBf16ProductBits : kHif8ProductBits;
  w.window = p.align_width;
  w.term = w.window + (p.policy == AlignPolicy::sticky ? 1 : 0);
  w.sum = w.term + 1 + ceil_log2(p.lanes);
  w.lsb = bf ? 10 : 8;
  return w;
}

std::vector<Component> parts(const DotParams& p, const Widths& w) {
  const int n = p.lanes, S = ceil_log2(w.window);
  std::vector<Component> v;
  if (is_bf16(p)) {
    v.push_back({"s0.dec", Kind::mux, w.sig, 2, 2 * n, true, true, "BF16 significand (hidden bit / subnormal)"});
    v.push_back({"s1.prod", Kind::mul, w.sig, w.sig, n, true, true, "significand products (8x8 bits)"});
  } else {
    v.push_back({"s0.dec", Kind::dec, 1, 0, 2 * n, false, true, "HiF8 decode: dot field selects one of 5 exponent/mantissa layouts"});
    v.push_back({"s1.prod", Kind::mul, w.sig, w.sig, n, true, true, "significand products (4x4 bits)"});
  }
  const int ex = is_bf16(p) ? 10 : 7;  // exponent compare / difference width
  v.push_back({"s1.exp", Kind::add, w.pexp, 0, n, true, true, "product exponents eA + eB"});
  v.push_back({"s2.max", Kind::max, n, ex, 1, true, false, "maximum product exponent (comparator tree)"});
  v.push_back({"s3.diff", Kind::add, ex, 0, n, true, true, "shift amounts Emax - pexp"});
  v.push_back({"s3.shift", Kind::shift, w.pbits, S, n, true, true,
               "aligners of the " + std::to_string(w.pbits) + "-bit products into the W-bit window"});
  v.push_back({"s3.neg", Kind::mux, w.window + 1, 2, n, true, true, "conditional complement of the aligned terms (carry-in to the tree)"});
  v.push_back({"s4.tree", Kind::tree, n, w.window + 2, 1, true, false, "sum of the aligned terms"});
  v.push_back({"s5.abs", Kind::add, w.sum, 0, 1, true, false, "|S|"});
  v.push_back({"s5.norm", Kind::norm, w.sum, 0, 1, true, false, "leading-one detect + normalise"});
  v.push_back({"s5.round", Kind::add, 24, 0, 1, true, false, "RNE rounding increment"});
  v.push_back({"s5.exp", Kind::add, w.lsb, 0, 1, true, false, "FP32 exponent"});
  return v;
}

std::string label(const DotParams& p) {
  const std::string n = std::string(fmt::format_info(p.format).name) + " x" + std::to_string(p.lanes) +
                        ", W=" + std::to_string(p.align_width);
  if (!is_bf16(p) && p.align_width == kHif8ExactWidth) return n + " (exact)";
  return n + (p.policy == AlignPolicy::sticky ? " sticky" : " trunc");
}

UnitDesc describe(const DotParams& p) {
  const Widths w = widths(p);
  const int n = p.lanes;
  UnitDesc d;
  d.rtl_top = is_bf16(p) ? "bf16_dot64" : "hif8_dot";
  const int rtl_w = !is_bf16(p) && p.align_width == kHif8ExactWidth ? 0 : p.align_width;
  d.rtl_params = {{"W", rtl_w}, {"STICKY", p.policy == AlignPolicy::sticky ? 1 : 0}, {"STAGES", p.stages}};
  if (!is_bf16(p)) d.rtl_params.insert(d.rtl_params.begin(), {"N", n});
  d.label = label(p);
  d.stages = p.stages;
  d.cut_masks = kCutMasks;
  const int prod = n * (w.pbits + w.pexp + 1) + 2;
  const int sum = w.sum + w.lsb + 2;
  d.cuts = {{"s1", "u_cut_s1", prod}, {"s2", "u_cut_s2", prod + (is_bf16(p) ? 10 : 7)}, {"s3", "", sum},
            {"s4", "u_cut_s4", sum}, {"s5", "u_cut_s5", 32}};
  d.parts = parts(p, w);
  d.operand_bits = n * w.code;
  return d;
}

float trace(const UnitDesc& d, const DotParams& p, const fmt::QTensor& A, size_t m, const fmt::QTensor& Bq, size_t n, size_t blk,
            NetSink& r) {
  const Widths w = widths(p);
  const int N = p.lanes;
  const bool bf = is_bf16(p);
  const uint16_t* ca = A.codes.data() + m * A.padded_cols + blk * static_cast<size_t>(N);
  const uint16_t* cb = Bq.codes.data() + n * Bq.padded_cols + blk * static_cast<size_t>(N);
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
  for (int k = 0; k < N; ++k) r.net("in.operands", ca[k], w.code);
  for (int k = 0; k < N; ++k) r.net("in.operands", cb[k], w.code);
  for (int k = 0; k < N; ++k) {
    const Elem x = dec(ca[k]), y = dec(cb[k]);
    r.net("s0.dec", ca[k], w.code);
    r.net("s0.dec", x.sig, w.sig);
    r.net("s0.dec", x.exp, w.eexp);
    r.net("s0.dec", cb[k], w.code);
    r.net("s0.dec", y.sig, w.sig);
    r.net("s0.dec", y.exp, w.eexp);
    r.net("s1.prod", x.sig, w.sig);
    r.net("s1.prod", y.sig, w.sig);
    r.net("s1.prod", st.psig[k], w.pbits);
    r.net("s1.exp", x.exp, w.eexp);
    r.net("s1.exp", y.exp, w.eexp);
    r.net("s1.exp", st.pexp[k], w.pexp);
  }
  const bool any = st.emax != INT_MIN;
  const int emax = any ? st.emax : 0;
  for (int k = 0; k < N; ++k) r.net("s2.max", st.psig[k] ? st.pexp[k] : 0, w.pexp);
  r.net("s2.max", emax, w.pexp);
  std::vector<i128> terms(static_cast<size_t>(N));
  for (int k = 0; k < N; ++k) {
    const i128 t = static_cast<i128>(st.term[k]);
    terms[static_cast<size_t>(k)] = st.pneg[k] ? -t : t;
    r.net("s3.diff", st.psig[k] ? st.pexp[k] : 0, w.pexp);
    r.net("s3.diff", std::clamp(any ? emax - st.pexp[k] : 0, 0, 255), 8);
    r.net("s3.shift", st.psig[k], w.pbits);
    r.net("s3.shift", t, w.term);
    r.net("s3.neg", t, w.term);
    r.net("s3.neg", terms[static_cast<size_t>(k)], w.term + 1);
  }
  put_tree(r, "s4.tree", terms, w.window + 2);
  put_fp32_conversion(r, "s5.abs", "s5.norm", "s5.round", "s5.exp", st.sum, std::min(w.sum, 128), st.lsb, w.lsb, st.out_bits);
  if (p.stages > 0) {
    std::vector<Field> c1;
    for (int k = 0; k < N; ++k) {
      c1.push_back({st.psig[k], w.pbits});
      c1.push_back({st.pexp[k], w.pexp});
      c1.push_back({st.pneg[k] ? 1 : 0, 1});
    }
    c1.push_back({0, 2});
    const std::vector<Field> cs{{st.sum, std::min(w.sum, 128)}, {st.lsb, w.lsb}, {0, 2}};
    put_cut(r, d, 1, c1);
    std::vector<Field> c2 = c1;
    c2.push_back({emax, bf ? 10 : 7});
    put_cut(r, d, 2, c2);
    put_cut(r, d, 3, cs);
    put_cut(r, d, 4, cs);
    put_cut(r, d, 5, {{st.out_bits, 32}});
  }
  return res.value;
}

std::pair<std::string, std::string> unsupported(const DotParams& p) {
  if (p.align_width > 112)
    return {"pe.align_width", "the cost model traces alignment windows up to 112 bits, this unit's is " + std::to_string(p.align_width) +
                                  (is_bf16(p) && p.align_width == kBf16ExactWidth ? " (the exact BF16 window)" : "")};
  return {};
}

}  // namespace

extern const DotUnit kAlignedDot;
const DotUnit kAlignedDot{describe, trace, unsupported};

}  // namespace hifsim::dp::hw
