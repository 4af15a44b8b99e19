// The hardware of the OCP MX dot products (mx_dot.hpp): MXFP4 64-wide (rtl/mxfp4_dot64.sv) and
// MXFP8 32-wide (rtl/mxfp8_dot32.sv; plain FP8 GEMMs run on it with both scales 127).
#include <algorithm>
#include <climits>
#include <cstdlib>

#include "datapath/element.hpp"
#include "datapath/hw.hpp"
#include "datapath/hw_text.hpp"
#include "datapath/mx_dot.hpp"
#include "formats/mx.hpp"

namespace hifsim::dp::hw {
namespace {

const std::vector<uint32_t> kCutMasks = {0b00000, 0b00100, 0b01010, 0b01110, 0b01111, 0b11111};

uint64_t mag(int v) { return static_cast<uint64_t>(v < 0 ? -v : v); }

// ---- MXFP4: two 32-element E2M1 blocks with E8M0 scales ----

constexpr int kMx4Elems = 64;
constexpr int kMx4Blocks = kMx4Elems / fmt::kMxBlock;
constexpr int kMx4Mag = 4;       // E2M1 magnitude in half units, <= 12
constexpr int kMx4WP = 9;        // product, <= 144
constexpr int kMx4WSum = 14;     // block sum, <= 4608
constexpr int kMx4WX = 9;
constexpr int kMx4Window = 41;   // the larger sum at bit 27 plus the smaller one shifted down

std::vector<Component> mx4_parts() {
  return {
      {"s0.dec", Kind::dec, 0, 0, 2 * kMx4Elems, false, true, "E2M1 magnitude -> half units"},
      {"s1.prod", Kind::smul, kMx4Mag, 0, kMx4Elems, true, true, "64 sign-magnitude 4x4 products -> 9-bit two's complement"},
      {"s2.tree", Kind::tree, fmt::kMxBlock, kMx4WP, kMx4Blocks, true, true, "2 block trees of 32 products (14-bit sums)"},
      {"s3.exp", Kind::add, kMx4WX, 0, kMx4Blocks, false, false, "2 E8M0 exponent sums xa + xb - 256"},
      {"s4.cmp", Kind::add, kMx4WX, 0, 1, false, false, "exponent difference X0 - X1"},
      {"s4.swap", Kind::mux, kMx4WSum, 2, 2, false, false, "larger / smaller block sum"},
      {"s4.shift", Kind::shift, kMx4WSum, 5, 1, false, false, "aligner of the smaller block sum (41-bit window + sticky)"},
      {"s4.add", Kind::add, kMx4Window + 1, 0, 1, false, false, "two-term adder"},
      {"s5.abs", Kind::add, kMx4Window + 1, 0, 1, true, false, "|sum|"},
      {"s5.norm", Kind::norm, kMx4Window + 1, 0, 1, true, false, "leading-one detect + normalise"},
      {"s5.round", Kind::add, 24, 0, 1, true, false, "RNE rounding increment"},
      {"s5.exp", Kind::add, kMx4WX, 0, 1, true, false, "FP32 exponent"},
  };
}

UnitDesc mx4_describe(const DotParams& p) {
  UnitDesc d;
  d.rtl_top = "mxfp4_dot64";
  d.rtl_params = {{"STAGES", p.stages}};
  d.label = "mxfp4 x" + std::to_string(kMx4Elems);
  d.stages = p.stages;
  d.cut_masks = kCutMasks;
  const int scales = kMx4Blocks * 8 * 2;
  d.cuts = {{"s1", "u_cut_s1", kMx4Elems * kMx4WP + scales},
            {"s2", "u_cut_s2", kMx4Blocks * kMx4WSum + scales},
            {"s3", "", kMx4Blocks * kMx4WSum + kMx4Blocks * kMx4WX},
            {"s4", "u_cut_s4a", kMx4Window + 1 + kMx4WX + 1},
            {"s5", "u_cut_s4b", 32}};
  d.parts = mx4_parts();
  d.operand_bits = kMx4Elems * 4 + kMx4Blocks * 8;
  return d;
}

float mx4_trace(const UnitDesc& d, const DotParams&, const fmt::QTensor& A, size_t m, const fmt::QTensor& Bq, size_t n,
                size_t blk, NetSink& r) {
  const size_t nb = A.blocks_per_row();
  const uint16_t* ca = A.codes.data() + m * A.padded_cols + blk * kMx4Elems;
  const uint16_t* cb = Bq.codes.data() + n * Bq.padded_cols + blk * kMx4Elems;
  const uint8_t* sa = A.scales.data() + m * nb + blk * kMx4Blocks;
  const uint8_t* sb = Bq.scales.data() + n * nb + blk * kMx4Blocks;
  uint8_t a8[kMx4Elems], b8[kMx4Elems];
  for (int k = 0; k < kMx4Elems; ++k) a8[k] = static_cast<uint8_t>(ca[k]), b8[k] = static_cast<uint8_t>(cb[k]);
  Mxfp4DotStages st;
  const DotResult res = Mxfp4Dot64::compute(a8, sa, b8, sb, &st);
  for (int k = 0; k < kMx4Elems; ++k) r.net("in.operands", a8[k], 4);
  for (int j = 0; j < kMx4Blocks; ++j) r.net("in.operands", sa[j], 8);
  for (int k = 0; k < kMx4Elems; ++k) r.net("in.operands", b8[k], 4);
  for (int j = 0; j < kMx4Blocks; ++j) r.net("in.operands", sb[j], 8);
  for (int k = 0; k < kMx4Elems; ++k) {
    r.net("s0.dec", a8[k] & 7, 3);
    r.net("s0.dec", mag(st.a_a[k]), kMx4Mag);
    r.net("s0.dec", b8[k] & 7, 3);
    r.net("s0.dec", mag(st.a_b[k]), kMx4Mag);
    r.net("s1.prod", mag(st.a_a[k]), kMx4Mag);
    r.net("s1.prod", mag(st.a_b[k]), kMx4Mag);
    r.net("s1.prod", ((a8[k] ^ b8[k]) >> 3) & 1, 1);
    r.net("s1.prod", st.p[k], kMx4WP);
  }
  const uint32_t out = st.out_bits;
  for (int b = 0; b < kMx4Blocks; ++b)
    put_tree(r, "s2.tree", std::vector<i128>(st.p + fmt::kMxBlock * b, st.p + fmt::kMxBlock * (b + 1)), kMx4WP);
  for (int b = 0; b < kMx4Blocks; ++b) {
    r.net("s3.exp", sa[b], 8);
    r.net("s3.exp", sb[b], 8);
    r.net("s3.exp", st.exp[b], kMx4WX);
  }
  const int dx = st.exp[0] - st.exp[1];
  r.net("s4.cmp", st.exp[0], kMx4WX);
  r.net("s4.cmp", st.exp[1], kMx4WX);
  r.net("s4.cmp", dx, kMx4WX);
  const bool first_big = dx >= 0;
  const i128 big = first_big ? st.block_sum[0] : st.block_sum[1];
  const i128 small = first_big ? st.block_sum[1] : st.block_sum[0];
  r.net("s4.swap", st.block_sum[0], kMx4WSum);
  r.net("s4.swap", st.block_sum[1], kMx4WSum);
  r.net("s4.swap", big, kMx4WSum);
  r.net("s4.swap", small, kMx4WSum);
  const int ad = std::min(std::abs(dx), 63);
  // 41-bit window: the larger sum at bit 27, the smaller shifted right by the exponent difference.
  const i128 aligned = ad <= 27 ? small * (i128(1) << (27 - ad)) : (small >> (ad - 27));
  r.net("s4.shift", small, kMx4WSum);
  r.net("s4.shift", std::min(ad, 31), 5);
  r.net("s4.shift", aligned, kMx4Window);
  const i128 bigx = big * (i128(1) << 27), sum = bigx + aligned;
  r.net("s4.add", bigx, kMx4Window);
  r.net("s4.add", aligned, kMx4Window);
  r.net("s4.add", sum, kMx4Window + 1);
  const int xh = first_big ? st.exp[0] : st.exp[1];
  put_fp32_conversion(r, "s5.abs", "s5.norm", "s5.round", "s5.exp", sum, kMx4Window + 1, xh, kMx4WX, out);
  std::vector<Field> sc;
  for (int b = 0; b < kMx4Blocks; ++b) sc.push_back({(i128(sb[b]) << 8) | sa[b], 16});
  std::vector<Field> c1 = sc, c2 = sc;
  for (int k = 0; k < kMx4Elems; ++k) c1.push_back({st.p[k], kMx4WP});
  for (int b = 0; b < kMx4Blocks; ++b) c2.push_back({st.block_sum[b], kMx4WSum});
  put_cut(r, d, 1, c1);
  put_cut(r, d, 2, c2);
  put_cut(r, d, 3, {{st.block_sum[0], kMx4WSum}, {st.block_sum[1], kMx4WSum}, {st.exp[0], kMx4WX}, {st.exp[1], kMx4WX}});
  put_cut(r, d, 4, {{sum, kMx4Window + 1}, {xh, kMx4WX}, {st.nan, 1}});
  put_cut(r, d, 5, {{out, 32}});
  return res.value;
}

// ---- MXFP8 / FP8: one 32-element block of E4M3 or E5M2 elements ----

bool e5m2(fmt::Format f) { return f == fmt::Format::mxfp8_e5m2 || f == fmt::Format::fp8_e5m2; }
bool has_scale(fmt::Format f) { return f == fmt::Format::mxfp8_e4m3 || f == fmt::Format::mxfp8_e5m2; }

struct Mx8Widths {
  int sig, ebits, pbits, window, sum;  // element significand, product exponent, product, window, sum bits
};
Mx8Widths mx8_widths(fmt::Format f, int lanes) {
  const bool e5 = e5m2(f);
  Mx8Widths w;
  w.sig = e5 ? 3 : 4;
  w.ebits = e5 ? 6 : 5;
  w.pbits = 2 * w.sig;
  w.window = e5 ? 69 : 41;  // the exact sum aligned to the lowest product exponent
  w.sum = w.window + 1 + ceil_log2(lanes);
  return w;
}

UnitDesc mx8_describe(const DotParams& p) {
  const Mx8Widths w = mx8_widths(p.format, p.lanes);
  const int n = p.lanes;
  UnitDesc d;
  d.rtl_top = "mxfp8_dot32";
  d.rtl_params = {{"E5M2", e5m2(p.format) ? 1 : 0}, {"STAGES", p.stages}};
  d.label = std::string(fmt::format_info(p.format).name) + " x" + std::to_string(n);
  d.stages = p.stages;
  d.cut_masks = kCutMasks;
  const int prod = n * (w.pbits + w.ebits + 1) + 16 + 2;
  const int sum = w.sum + 9 + 1;
  d.cuts = {{"s1", "u_cut_s1", prod}, {"s2", "u_cut_s2", sum}, {"s3", "", sum}, {"s3", "", sum}, {"s4", "u_cut_s4", 32}};
  d.parts = {
      {"s0.dec", Kind::mux, w.sig, 2, 2 * n, true, true, "FP8 significand (hidden bit / subnormal)"},
      {"s1.prod", Kind::mul, w.sig, w.sig, n, true, true, "significand products"},
      {"s1.exp", Kind::add, w.ebits, 0, n, true, true, "product exponents"},
      {"s2.shift", Kind::shift, w.pbits, ceil_log2(w.window), n, true, true, "alignment to the lowest product exponent"},
      {"s2.neg", Kind::mux, w.window, 2, n, true, true, "conditional complement (carry-in to the tree)"},
      {"s2.tree", Kind::tree, n, w.window + 1, 1, true, false, "exact sum"},
      {"s3.exp", Kind::add, 9, 0, 1, false, false, "E8M0 scale exponent sum"},
      {"s4.abs", Kind::add, w.sum, 0, 1, true, false, "|sum|"},
      {"s4.norm", Kind::norm, w.sum, 0, 1, true, false, "leading-one detect + normalise"},
      {"s4.round", Kind::add, 24, 0, 1, true, false, "RNE rounding increment"},
      {"s4.exp", Kind::add, 9, 0, 1, true, false, "FP32 exponent"},
  };
  d.operand_bits = n * 8 + (has_scale(p.format) ? 8 : 0);
  return d;
}

float mx8_trace(const UnitDesc& d, const DotParams& p, const fmt::QTensor& A, size_t m, const fmt::QTensor& Bq, size_t n,
                size_t blk, NetSink& r) {
  const int N = p.lanes;
  const Mx8Widths w = mx8_widths(p.format, N);
  const bool e5 = e5m2(p.format), scaled = has_scale(p.format);
  const uint16_t* ca = A.codes.data() + m * A.padded_cols + blk * static_cast<size_t>(N);
  const uint16_t* cb = Bq.codes.data() + n * Bq.padded_cols + blk * static_cast<size_t>(N);
  uint8_t a8[64], b8[64];
  for (int k = 0; k < N; ++k) a8[k] = static_cast<uint8_t>(ca[k]), b8[k] = static_cast<uint8_t>(cb[k]);
  uint8_t xa = 127, xb = 127;
  if (scaled) {
    const size_t nb = A.blocks_per_row();
    xa = A.scales[m * nb + blk], xb = Bq.scales[n * nb + blk];
  }
  Mxfp8DotStages st;
  const DotResult res = Mxfp8Dot32::compute(e5 ? fmt::kE5M2 : fmt::kE4M3, a8, xa, b8, xb, &st);
  for (int k = 0; k < N; ++k) r.net("in.operands", a8[k], 8);
  if (scaled) r.net("in.operands", xa, 8);
  for (int k = 0; k < N; ++k) r.net("in.operands", b8[k], 8);
  if (scaled) r.net("in.operands", xb, 8);
  std::vector<i128> terms(static_cast<size_t>(N));
  for (int k = 0; k < N; ++k) {
    const Elem x = e5 ? decode_e5m2(a8[k]) : decode_e4m3(a8[k]);
    const Elem y = e5 ? decode_e5m2(b8[k]) : decode_e4m3(b8[k]);
    r.net("s0.dec", a8[k], 8);
    r.net("s0.dec", x.sig, w.sig);
    r.net("s0.dec", x.exp, w.ebits - 1);
    r.net("s0.dec", b8[k], 8);
    r.net("s0.dec", y.sig, w.sig);
    r.net("s0.dec", y.exp, w.ebits - 1);
    r.net("s1.prod", x.sig, w.sig);
    r.net("s1.prod", y.sig, w.sig);
    r.net("s1.prod", st.prod_sig[k], w.pbits);
    r.net("s1.exp", x.exp, w.ebits - 1);
    r.net("s1.exp", y.exp, w.ebits - 1);
    r.net("s1.exp", st.prod_exp[k], w.ebits);
    const i128 t = st.prod_sig[k] ? i128(st.prod_sig[k]) << (st.prod_exp[k] - st.min_exp) : 0;
    terms[static_cast<size_t>(k)] = st.prod_neg[k] ? -t : t;
    r.net("s2.shift", st.prod_sig[k], w.pbits);
    r.net("s2.shift", t, w.window);
    r.net("s2.neg", t, w.window);
    r.net("s2.neg", terms[static_cast<size_t>(k)], w.window);
  }
  const i128 sum = put_tree(r, "s2.tree", terms, w.window + 1);
  r.net("s3.exp", xa, 8);
  r.net("s3.exp", xb, 8);
  r.net("s3.exp", st.scale_exp, 9);
  put_fp32_conversion(r, "s4.abs", "s4.norm", "s4.round", "s4.exp", sum, w.sum, st.min_exp, 9, st.out_bits);
  std::vector<Field> c1;
  for (int k = 0; k < N; ++k) {
    c1.push_back({st.prod_sig[k], w.pbits});
    c1.push_back({st.prod_exp[k], w.ebits});
    c1.push_back({st.prod_neg[k] ? 1 : 0, 1});
  }
  c1.push_back({(i128(xb) << 8) | xa, 16});
  c1.push_back({0, 2});
  const std::vector<Field> cs = {{sum, w.sum}, {st.min_exp, 9}, {0, 1}};
  put_cut(r, d, 1, c1);
  put_cut(r, d, 2, cs);
  put_cut(r, d, 3, cs);
  put_cut(r, d, 4, cs);
  put_cut(r, d, 5, {{st.out_bits, 32}});
  return res.value;
}

std::pair<std::string, std::string> supported(const DotParams&) { return {}; }

}  // namespace

extern const DotUnit kMxfp4Dot64;
extern const DotUnit kMxfp8Dot32;
const DotUnit kMxfp4Dot64{mx4_describe, mx4_trace, supported};
const DotUnit kMxfp8Dot32{mx8_describe, mx8_trace, supported};

}  // namespace hifsim::dp::hw
