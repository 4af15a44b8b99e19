#include "cost/inventory.hpp"

#include "datapath/gemm.hpp"
#include "util/error.hpp"

namespace hifsim::cost {
namespace {

using fmt::Format;

int ceil_log2(int n) {
  int l = 0;
  while ((1 << l) < n) ++l;
  return l;
}

Component C(std::string name, Cls cls, int p1, int p2, int count, bool baseline, bool per_lane, std::string what) {
  Component c;
  c.name = std::move(name);
  c.cls = cls;
  c.p1 = p1;
  c.p2 = p2;
  c.count = count;
  c.baseline = baseline;
  c.per_lane = per_lane;
  c.what = std::move(what);
  return c;
}

bool is_mxfp8(Format f) {
  return f == Format::mxfp8_e4m3 || f == Format::mxfp8_e5m2 || f == Format::fp8_e4m3 || f == Format::fp8_e5m2;
}
bool is_e5m2(Format f) { return f == Format::mxfp8_e5m2 || f == Format::fp8_e5m2; }

// Sum width of the aligned units (hif8/bf16): window + sticky bit + sign + log2(lanes).
int aligned_sum_bits(const UnitSpec& s) {
  return s.align_width + (s.policy == dp::AlignPolicy::sticky ? 1 : 0) + 1 + ceil_log2(s.lanes);
}
// MXFP8: exact sum aligned to the lowest product exponent (docs/datapath.md unit 3).
int mxfp8_window(Format f) { return is_e5m2(f) ? 69 : 41; }

}  // namespace

bool has_cut(int stages, int cut) {
  // The hif4_dot64 table (docs/cosim.md): STAGES -> cut points c1..c5.
  static const bool t[6][5] = {
      {false, false, false, false, false},  // 0
      {false, false, true, false, false},   // 1
      {false, true, false, true, false},    // 2
      {false, true, true, true, false},     // 3
      {true, true, true, true, false},      // 4
      {true, true, true, true, true},       // 5
  };
  if (stages < 0 || stages > 5 || cut < 1 || cut > 5) throw Error("cost", "pipeline", "stages must be 0..5 and cuts 1..5");
  return t[stages][cut - 1];
}

int cut_bits(const UnitSpec& s, int cut) {
  const int n = s.lanes;
  switch (s.format) {
    case Format::hif4: {
      // side = {nan, X (8), SS (6)} = 15; E1_8 of both operands = 16 (rtl/hif4_dot64.sv)
      const int side = 15, e18 = 16;
      const int v[5] = {side + e18 + 64 * 9, side + e18 + 8 * 12, side + 17, 1 + 8 + 23, 32};
      return v[cut - 1];
    }
    case Format::nvfp4: {
      const int scales = 4 * 8 * 2;  // both operands' E4M3 scale codes
      const int v[5] = {64 * 9 + scales, 4 * 13 + scales, 4 * 21 + 4 * 6, 51 + 1, 32};
      return v[cut - 1];
    }
    case Format::mxfp4: {
      const int scales = 2 * 8 * 2;
      const int v[5] = {64 * 9 + scales, 2 * 14 + scales, 2 * 14 + 2 * 9, 42 + 9 + 1, 32};
      return v[cut - 1];
    }
    case Format::hif8: {
      const int prod = n * (8 + 7 + 1) + 2;  // sig, exponent, sign per lane + special flags
      const int sum = aligned_sum_bits(s) + 8 + 2;  // sum, window LSB exponent, flags
      const int v[5] = {prod, prod + 7, sum, sum, 32};
      return v[cut - 1];
    }
    case Format::bf16: {
      const int prod = n * (16 + 9 + 1) + 2;
      const int sum = aligned_sum_bits(s) + 10 + 2;
      const int v[5] = {prod, prod + 10, sum, sum, 32};
      return v[cut - 1];
    }
    default:
      if (is_mxfp8(s.format)) {
        const int eb = is_e5m2(s.format) ? 6 : 5;
        const int ps = is_e5m2(s.format) ? 6 : 8;
        const int prod = n * (ps + eb + 1) + 16 + 2;
        const int sum = mxfp8_window(s.format) + 1 + ceil_log2(n) + 9 + 1;
        const int v[5] = {prod, sum, sum, sum, 32};
        return v[cut - 1];
      }
      throw Error("cost", fmt::format_info(s.format).name, "has no dot-product unit in the cost model");
  }
}

UnitSpec default_unit_spec(Format f, int stages) {
  UnitSpec s;
  s.format = f;
  dp::GemmSpec g;
  g.format = f;
  s.lanes = dp::dot_width(g);
  const dp::AlignSpec a = dp::default_align(f);
  s.policy = a.policy;
  s.align_width = a.width;
  if (f == Format::hif8 && a.width == 0) s.align_width = dp::kHif8ExactWidth;
  if (f == Format::bf16 && a.width == 0) s.align_width = dp::kBf16ExactWidth;
  s.stages = stages;
  return s;
}

UnitSpec unit_spec(const cfg::UnitConfig& u) {
  const std::string where = u.source.empty() ? u.name : u.source;
  UnitSpec s;
  s.format = u.format;
  const dp::GemmSpec g = u.gemm_spec();
  s.lanes = dp::dot_width(g);
  const dp::AlignSpec a = dp::effective_align(g);
  s.policy = a.policy;
  s.align_width = a.width;
  if (u.format == Format::hif8 && a.width == 0) s.align_width = dp::kHif8ExactWidth;
  if (u.format == Format::bf16 && a.width == 0) s.align_width = dp::kBf16ExactWidth;
  if (u.pipeline_depth < 1 || u.pipeline_depth > 6)
    throw Error(where, "pe.pipeline_depth",
                "the cost model knows 0..5 dot-unit register ranks (pipeline_depth 1..6), got " + std::to_string(u.pipeline_depth));
  s.stages = static_cast<int>(u.pipeline_depth) - 1;
  if ((u.format == Format::hif8 || u.format == Format::bf16) && s.align_width > 112)
    throw Error(where, "pe.align_width",
                "the cost model traces alignment windows up to 112 bits, this unit's is " + std::to_string(s.align_width) +
                    (u.format == Format::bf16 && a.width == 0 ? " (the exact BF16 window)" : ""));
  s.acc = u.acc;
  if (u.acc.kind == dp::AccSpec::kulisch)
    throw Error(where, "pe.accumulator", "kulisch: the cost model has no area/energy model of the 768-bit accumulator");
  return s;
}

int operand_bits(Format f, int lanes) {
  return static_cast<int>(fmt::format_info(f).bits_per_value * lanes + 0.5);
}

std::vector<Component> dot_inventory(const UnitSpec& s) {
  std::vector<Component> v;
  const int n = s.lanes;
  auto add = [&](std::string name, Cls cls, int p1, int p2, int count, bool base, bool lane, std::string what) {
    v.push_back(C(std::move(name), cls, p1, p2, count, base, lane, std::move(what)));
  };
  switch (s.format) {
    case Format::hif4:
      add("s0.l3", Cls::mux, 4, 2, 128, false, true, "level-3 bit absorbed: m or 2m (4-bit 2:1 mux per element)");
      add("s1.prod", Cls::smul, 4, 0, 64, true, true, "64 sign-magnitude 4x4 products -> 9-bit two's complement");
      add("s2.tree", Cls::tree, 8, 9, 8, true, true, "8 group trees of 8 products (12-bit sums)");
      add("s3.shift", Cls::shift, 12, 2, 8, false, false, "8 level-2 shifts by 0..2 (12 -> 14 bits)");
      add("s4.tree", Cls::tree, 8, 14, 1, false, false, "8 -> 1 tree (17-bit I)");
      add("s5.smul", Cls::mul, 3, 3, 1, false, false, "E6M2 x E6M2 significand product (3x3 bits)");
      add("s5.exp", Cls::add, 8, 0, 2, false, false, "exponent sum EA + EB - 104");
      add("s6.mul", Cls::mul, 17, 6, 1, false, false, "the large integer multiply I x SS (17x6 -> 23 bits)");
      add("s7.abs", Cls::add, 23, 0, 1, true, false, "|big| (two's complement -> magnitude)");
      add("s7.norm", Cls::norm, 22, 0, 1, true, false, "leading-one detect + normalise into the FP32 significand");
      add("s7.exp", Cls::add, 8, 0, 1, true, false, "FP32 exponent X + n + 127");
      break;
    case Format::nvfp4:
      add("s0.dec", Cls::dec, 0, 0, 128, false, true, "E2M1 magnitude -> half units");
      add("s1.prod", Cls::smul, 4, 0, 64, true, true, "64 sign-magnitude 4x4 products -> 9-bit two's complement");
      add("s2.tree", Cls::tree, 16, 9, 4, true, true, "4 sub-block trees of 16 products (13-bit sums)");
      add("s3.sdec", Cls::mux, 4, 2, 8, false, false, "E4M3 scale significand decode (hidden bit), both operands");
      add("s3.smul", Cls::mul, 4, 4, 4, false, false, "4 E4M3 x E4M3 significand products (4x4 bits)");
      add("s3.exp", Cls::add, 5, 0, 4, false, false, "4 scale exponent sums tA + tB");
      add("s4.mul", Cls::mul, 13, 8, 4, false, false, "4 large integer multiplies S x ss (13x8 -> 21 bits)");
      add("s5.shift", Cls::shift, 21, 5, 4, false, false, "4 aligners: shift by tt + 18 (0..28) into 49 bits");
      add("s6.tree", Cls::tree, 4, 49, 1, false, false, "4-term adder of the aligned partial products (51 bits)");
      add("s7.abs", Cls::add, 51, 0, 1, true, false, "|T| (two's complement -> magnitude)");
      add("s7.norm", Cls::norm, 51, 0, 1, true, false, "leading-one detect + normalise");
      add("s7.round", Cls::add, 24, 0, 1, true, false, "RNE rounding increment of the FP32 significand");
      add("s7.exp", Cls::add, 8, 0, 1, true, false, "FP32 exponent");
      break;
    case Format::mxfp4:
      add("s0.dec", Cls::dec, 0, 0, 128, false, true, "E2M1 magnitude -> half units");
      add("s1.prod", Cls::smul, 4, 0, 64, true, true, "64 sign-magnitude 4x4 products -> 9-bit two's complement");
      add("s2.tree", Cls::tree, 32, 9, 2, true, true, "2 block trees of 32 products (14-bit sums)");
      add("s3.exp", Cls::add, 9, 0, 2, false, false, "2 E8M0 exponent sums xa + xb - 256");
      add("s4.cmp", Cls::add, 9, 0, 1, false, false, "exponent difference X0 - X1");
      add("s4.swap", Cls::mux, 14, 2, 2, false, false, "larger / smaller block sum");
      add("s4.shift", Cls::shift, 14, 5, 1, false, false, "aligner of the smaller block sum (41-bit window + sticky)");
      add("s4.add", Cls::add, 42, 0, 1, false, false, "two-term adder");
      add("s5.abs", Cls::add, 42, 0, 1, true, false, "|sum|");
      add("s5.norm", Cls::norm, 42, 0, 1, true, false, "leading-one detect + normalise");
      add("s5.round", Cls::add, 24, 0, 1, true, false, "RNE rounding increment");
      add("s5.exp", Cls::add, 9, 0, 1, true, false, "FP32 exponent");
      break;
    case Format::hif8: {
      const int W = s.align_width, S = ceil_log2(W), sum = aligned_sum_bits(s);
      add("s0.dec", Cls::dec, 1, 0, 2 * n, false, true, "HiF8 decode: dot field selects one of 5 exponent/mantissa layouts");
      add("s1.prod", Cls::mul, 4, 4, n, true, true, "significand products (4x4 bits)");
      add("s1.exp", Cls::add, 7, 0, n, true, true, "product exponents eA + eB");
      add("s2.max", Cls::max, n, 7, 1, true, false, "maximum product exponent (comparator tree)");
      add("s3.diff", Cls::add, 7, 0, n, true, true, "shift amounts Emax - pexp");
      add("s3.shift", Cls::shift, 8, S, n, true, true, "aligners of the 8-bit products into the W-bit window");
      add("s3.neg", Cls::mux, W + 1, 2, n, true, true, "conditional complement of the aligned terms (carry-in to the tree)");
      add("s4.tree", Cls::tree, n, W + 2, 1, true, false, "sum of the aligned terms");
      add("s5.abs", Cls::add, sum, 0, 1, true, false, "|S|");
      add("s5.norm", Cls::norm, sum, 0, 1, true, false, "leading-one detect + normalise");
      add("s5.round", Cls::add, 24, 0, 1, true, false, "RNE rounding increment");
      add("s5.exp", Cls::add, 8, 0, 1, true, false, "FP32 exponent");
      break;
    }
    case Format::bf16: {
      const int W = s.align_width, S = ceil_log2(W), sum = aligned_sum_bits(s);
      add("s0.dec", Cls::mux, 8, 2, 2 * n, true, true, "BF16 significand (hidden bit / subnormal)");
      add("s1.prod", Cls::mul, 8, 8, n, true, true, "significand products (8x8 bits)");
      add("s1.exp", Cls::add, 9, 0, n, true, true, "product exponents eA + eB");
      add("s2.max", Cls::max, n, 10, 1, true, false, "maximum product exponent (comparator tree)");
      add("s3.diff", Cls::add, 10, 0, n, true, true, "shift amounts Emax - pexp");
      add("s3.shift", Cls::shift, 16, S, n, true, true, "aligners of the 16-bit products into the W-bit window");
      add("s3.neg", Cls::mux, W + 1, 2, n, true, true, "conditional complement of the aligned terms (carry-in to the tree)");
      add("s4.tree", Cls::tree, n, W + 2, 1, true, false, "sum of the aligned terms");
      add("s5.abs", Cls::add, sum, 0, 1, true, false, "|S|");
      add("s5.norm", Cls::norm, sum, 0, 1, true, false, "leading-one detect + normalise");
      add("s5.round", Cls::add, 24, 0, 1, true, false, "RNE rounding increment");
      add("s5.exp", Cls::add, 10, 0, 1, true, false, "FP32 exponent");
      break;
    }
    default:
      if (is_mxfp8(s.format)) {
        const bool e5 = is_e5m2(s.format);
        const int sig = e5 ? 3 : 4, eb = e5 ? 6 : 5, Wn = mxfp8_window(s.format), sum = Wn + 1 + ceil_log2(n);
        add("s0.dec", Cls::mux, sig, 2, 2 * n, true, true, "FP8 significand (hidden bit / subnormal)");
        add("s1.prod", Cls::mul, sig, sig, n, true, true, "significand products");
        add("s1.exp", Cls::add, eb, 0, n, true, true, "product exponents");
        add("s2.shift", Cls::shift, 2 * sig, ceil_log2(Wn), n, true, true, "alignment to the lowest product exponent");
        add("s2.neg", Cls::mux, Wn, 2, n, true, true, "conditional complement (carry-in to the tree)");
        add("s2.tree", Cls::tree, n, Wn + 1, 1, true, false, "exact sum");
        add("s3.exp", Cls::add, 9, 0, 1, false, false, "E8M0 scale exponent sum");
        add("s4.abs", Cls::add, sum, 0, 1, true, false, "|sum|");
        add("s4.norm", Cls::norm, sum, 0, 1, true, false, "leading-one detect + normalise");
        add("s4.round", Cls::add, 24, 0, 1, true, false, "RNE rounding increment");
        add("s4.exp", Cls::add, 9, 0, 1, true, false, "FP32 exponent");
        break;
      }
      throw Error("cost", fmt::format_info(s.format).name, "has no dot-product unit in the cost model");
  }
  for (int c = 1; c <= 5; ++c)
    if (has_cut(s.stages, c))
      add("pipe.c" + std::to_string(c), Cls::reg, cut_bits(s, c), 0, 1, false, false, "pipeline register rank c" + std::to_string(c));
  return v;
}

std::vector<Component> acc_inventory(const UnitSpec& s) {
  if (s.acc.kind == dp::AccSpec::kulisch) throw Error("cost", "accumulator", "kulisch is not modelled");
  const int mb = s.acc.kind == dp::AccSpec::fp32 ? 23 : s.acc.mant_bits;
  const int rz = s.acc.kind == dp::AccSpec::fp32_reduced && s.acc.mode == dp::RoundMode::rz ? 1 : 0;
  return {C("acc.fpadd", Cls::fpadd, mb, rz, 1, true, false, "FP32-range adder (rtl/fp32_acc.sv, fitted directly)"),
          C("acc.reg", Cls::reg, 1 + 8 + mb, 0, 1, true, false, "accumulator register")};
}

std::vector<Component> quantizer_inventory(Format f, int lanes) {
  // One block of `lanes` high-precision (BF16-significand) values; hif4.md section 6 for HiF4.
  std::vector<Component> v;
  auto add = [&](std::string name, Cls cls, int p1, int p2, int count, std::string what) {
    v.push_back(C(std::move(name), cls, p1, p2, count, false, false, std::move(what)));
  };
  switch (f) {
    case Format::hif4:
      add("q.max", Cls::max, 64, 15, 1, "peak magnitudes (4 -> 8 -> 64 max tree)");
      add("q.scale", Cls::mul, 8, 8, 1, "Vmax x bf16(1/7)");
      add("q.e6m2", Cls::add, 8, 0, 2, "clamp and E6M2 rounding");
      add("q.rec", Cls::mux, 8, 4, 1, "reciprocal mantissa LUT");
      add("q.cmp_mul", Cls::mul, 8, 8, 24, "E1_8 / E1_16 threshold products (8 + 16)");
      add("q.cmp", Cls::add, 10, 0, 24, "threshold compares after exponent alignment");
      add("q.elem_mul", Cls::mul, 8, 8, 64, "|x| x REC per element");
      add("q.elem_shift", Cls::shift, 16, 4, 64, "shift by e8 + e16 + exponent difference");
      add("q.elem_round", Cls::add, 4, 0, 64, "round to 1/4 (half away) and saturate");
      add("q.reg", Cls::reg, 64 * 4 + 32, 0, 1, "output block register");
      break;
    case Format::nvfp4:
      add("q.max", Cls::max, 16, 15, 4, "sub-block peak magnitudes");
      add("q.scale", Cls::mul, 8, 8, 4, "amax x 1/6");
      add("q.e4m3", Cls::add, 8, 0, 4, "E4M3 scale rounding");
      add("q.rec", Cls::mux, 8, 16, 4, "reciprocal LUT of the scale significand");
      add("q.elem_mul", Cls::mul, 8, 8, 64, "x x 1/scale per element");
      add("q.elem_shift", Cls::shift, 16, 4, 64, "exponent alignment to E2M1");
      add("q.elem_round", Cls::add, 4, 0, 64, "RNE to E2M1 and saturate");
      add("q.reg", Cls::reg, 64 * 4 + 32, 0, 1, "output block register");
      break;
    case Format::mxfp4:
      add("q.max", Cls::max, 32, 8, 2, "block peak exponents");
      add("q.e8m0", Cls::add, 8, 0, 2, "E8M0 scale exponent");
      add("q.elem_exp", Cls::add, 8, 0, 64, "element exponent minus scale exponent");
      add("q.elem_shift", Cls::shift, 8, 3, 64, "alignment to E2M1");
      add("q.elem_round", Cls::add, 4, 0, 64, "RNE to E2M1 and saturate");
      add("q.reg", Cls::reg, 64 * 4 + 16, 0, 1, "output block register");
      break;
    case Format::hif8:
      add("q.elem_exp", Cls::add, 8, 0, lanes, "exponent -> dot-field class");
      add("q.elem_layout", Cls::mux, 8, 4, lanes, "field layout per exponent class");
      add("q.elem_round", Cls::add, 8, 0, lanes, "rounding of the mantissa");
      add("q.reg", Cls::reg, lanes * 8, 0, 1, "output block register");
      break;
    case Format::bf16:
      add("q.elem_round", Cls::add, 8, 0, lanes, "FP32 -> BF16 RNE");
      add("q.reg", Cls::reg, lanes * 16, 0, 1, "output block register");
      break;
    default:
      if (is_mxfp8(f)) {
        add("q.max", Cls::max, 32, 8, lanes / 32, "block peak exponents");
        add("q.e8m0", Cls::add, 8, 0, lanes / 32, "E8M0 scale exponent");
        add("q.elem_exp", Cls::add, 8, 0, lanes, "element exponent minus scale exponent");
        add("q.elem_shift", Cls::shift, 8, 3, lanes, "subnormal alignment");
        add("q.elem_round", Cls::add, 8, 0, lanes, "RNE and saturate");
        add("q.reg", Cls::reg, lanes * 8 + 8, 0, 1, "output block register");
        break;
      }
      throw Error("cost", fmt::format_info(f).name, "has no quantizer model");
  }
  return v;
}

std::vector<Component> residual_inventory(const UnitSpec& s, dp::ResidualKind kind) {
  std::vector<Component> v;
  for (Component c : dot_inventory(s)) {
    if (c.cls == Cls::reg) continue;
    if (kind == dp::ResidualKind::sparse24 && c.per_lane) {
      if (c.cls == Cls::tree) {
        c.p1 = std::max(2, c.p1 / 2);  // group trees see half the products
      } else {
        c.count = std::max(1, c.count / 2);
      }
    }
    c.name = "r." + c.name;
    v.push_back(c);
  }
  if (kind == dp::ResidualKind::sparse24)
    v.push_back(C("r.select", Cls::mux, 5, 4, s.lanes / 2, false, true, "2:4 select of the weight element by its 2-bit index"));
  return v;
}

double inventory_ge(const AreaCoeffs& c, const std::vector<Component>& inv, bool baseline_only, bool exclude_regs) {
  double g = 0;
  for (const Component& x : inv) {
    if (baseline_only && !x.baseline) continue;
    if (exclude_regs && x.cls == Cls::reg) continue;
    g += x.count * component_ge(c, x.cls, x.p1, x.p2);
  }
  return g;
}

}  // namespace hifsim::cost
