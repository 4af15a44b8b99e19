// The hardware of the NVFP4 64-element dot product (nvfp4_dot.hpp; rtl/nvfp4_dot64.sv): its
// components, pipeline cut points and the nets its trace reports, every width from
// Nvfp4DotBounds.
#include <algorithm>

#include "datapath/element.hpp"
#include "datapath/hw.hpp"
#include "datapath/hw_text.hpp"
#include "datapath/nvfp4_dot.hpp"
#include "formats/bits.hpp"
#include "formats/nvfp4.hpp"

namespace hifsim::dp::hw {
namespace {

using B = Nvfp4DotBounds;
constexpr int kElems = 64;
constexpr int kSub = kElems / fmt::kNvfp4Block;           // sub-blocks, one E4M3 scale each per operand
constexpr int kPerSub = fmt::kNvfp4Block;
constexpr int kMag = unsigned_bits(B::a);
constexpr int kWA = 1 + kMag;
constexpr int kWP = signed_bits(B::p);
constexpr int kWSub = signed_bits(B::sub);
constexpr int kWSS = unsigned_bits(B::ss);
constexpr int kWTT = std::max(signed_bits(-B::tt_min), signed_bits(B::tt_max));
constexpr int kAlignOffset = -B::tt_min;                   // shift = tt + 18 >= 0
constexpr int kShiftBits = unsigned_bits(B::tt_max - B::tt_min);
constexpr int kScaleSig = unsigned_bits(15);               // E4M3 significand with its hidden bit
constexpr int kScaleExp = 5;                               // E4M3 t = -9..5
constexpr int kLsbExp = B::lsb_exp;
constexpr long long kMaxAligned = static_cast<long long>(B::partial) << (B::tt_max - B::tt_min);
constexpr int kWPartial = signed_bits(B::partial);
constexpr int kWAligned = signed_bits(kMaxAligned);
constexpr int kWTotal = signed_bits(kSub * kMaxAligned);
constexpr int kSideJ = 1 + kWTT + kWSS;                    // per sub-block {scale sign, tt, ss}
constexpr int kSide = 1 + kSub * kSideJ;                   // + the NaN flag: computed first, carried along

// The RTL's cut table (rtl/nvfp4_dot64.sv): STAGES -> ranks after s1, s2, s4, s6, s7.
const std::vector<uint32_t> kCutMasks = {0b00000, 0b00100, 0b01010, 0b01110, 0b01111, 0b11111};

std::vector<Component> parts() {
  const std::string j = std::to_string(kSub);
  return {
      {"s0.dec", Kind::dec, 0, 0, 2 * kElems, false, true, "E2M1 magnitude -> half units"},
      {"s1.prod", Kind::smul, kMag, 0, kElems, true, true,
       std::to_string(kElems) + " sign-magnitude 4x4 products -> " + std::to_string(kWP) + "-bit two's complement"},
      {"s2.tree", Kind::tree, kPerSub, kWP, kSub, true, true,
       j + " sub-block trees of " + std::to_string(kPerSub) + " products (" + std::to_string(kWSub) + "-bit sums)"},
      {"s3.sdec", Kind::mux, kScaleSig, 2, 2 * kSub, false, false, "E4M3 scale significand decode (hidden bit), both operands"},
      {"s3.smul", Kind::mul, kScaleSig, kScaleSig, kSub, false, false, j + " E4M3 x E4M3 significand products (4x4 bits)"},
      {"s3.exp", Kind::add, kScaleExp, 0, kSub, false, false, j + " scale exponent sums tA + tB"},
      {"s4.mul", Kind::mul, kWSub, kWSS, kSub, false, false,
       j + " large integer multiplies S x ss (" + std::to_string(kWSub) + "x" + std::to_string(kWSS) + " -> " +
           std::to_string(kWPartial) + " bits)"},
      {"s5.shift", Kind::shift, kWPartial, kShiftBits, kSub, false, false,
       j + " aligners: shift by tt + " + std::to_string(kAlignOffset) + " (0.." + std::to_string(B::tt_max - B::tt_min) +
           ") into " + std::to_string(kWAligned) + " bits"},
      {"s6.tree", Kind::tree, kSub, kWAligned, 1, false, false,
       j + "-term adder of the aligned partial products (" + std::to_string(kWTotal) + " bits)"},
      {"s7.abs", Kind::add, kWTotal, 0, 1, true, false, "|T| (two's complement -> magnitude)"},
      {"s7.norm", Kind::norm, kWTotal, 0, 1, true, false, "leading-one detect + normalise"},
      {"s7.round", Kind::add, 24, 0, 1, true, false, "RNE rounding increment of the FP32 significand"},
      {"s7.exp", Kind::add, 8, 0, 1, true, false, "FP32 exponent"},
  };
}

std::vector<StageRow> stage_table() {
  return {
      {"s0", "E2M1 in half units `a[k]`", "\\|a\\| <= " + grouped(B::a), std::to_string(kWA) + "-bit signed"},
      {"s1", "`p[k] = aA[k] * aB[k]` (quarter units)", "\\|p\\| <= " + grouped(B::p), std::to_string(kWP) + "-bit signed"},
      {"s2", "`S[j] = Σ_{16} p`", "\\|S\\| <= " + grouped(B::sub), std::to_string(kWSub) + "-bit signed"},
      {"s3", "`ss[j] = sigA * sigB`, `tt[j] = tA + tB` (E4M3 = sig * 2^t, sig <= 15, t in -9..5)",
       "ss <= " + grouped(B::ss) + "; tt " + grouped(B::tt_min) + ".." + grouped(B::tt_max),
       std::to_string(kWSS) + "-bit; " + std::to_string(kWTT) + "-bit signed"},
      {"s4", "`P[j] = S[j] * ss[j]`", "\\|P\\| <= " + grouped(B::partial), std::to_string(kWPartial) + "-bit signed"},
      {"s5", "`Q[j] = P[j] << (tt[j] + " + std::to_string(kAlignOffset) + ")` (align to weight 2^" + std::to_string(kLsbExp) + ")",
       "\\|Q\\| <= " + grouped(B::partial) + " * 2^" + std::to_string(B::tt_max - B::tt_min), std::to_string(kWAligned) + "-bit signed"},
      {"s6", "`T = Σ_j Q[j]`", "\\|T\\| <= " + std::to_string(kSub) + " * " + grouped(B::partial) + " * 2^" +
                                    std::to_string(B::tt_max - B::tt_min), std::to_string(kWTotal) + "-bit signed"},
      {"s7", "`out = RNE_fp32(T * 2^" + std::to_string(kLsbExp) + ")`", "", "the single rounding"},
  };
}

std::vector<PkgConst> pkg() {
  return {
      {"NV_SUBBLOCKS", kSub, "16 elements each, one E4M3 scale per operand"},
      {"NV_W_P", kWP, "s1 p[k] = aA * aB (quarter units), two's complement"},
      {"NV_W_SUB", kWSub, "s2 S[j] = sum of 16 products"},
      {"NV_W_SS", kWSS, "s3 ss[j] = sigA * sigB, unsigned"},
      {"NV_W_TT", kWTT, "s3 tt[j] = tA + tB, two's complement"},
      {"NV_W_PARTIAL", kWPartial, "s4 P[j] = S[j] * ss[j]"},
      {"NV_W_ALIGNED", kWAligned, "s5 Q[j] = P[j] << (tt[j] + NV_ALIGN_OFFSET)"},
      {"NV_W_TOTAL", kWTotal, "s6 T = sum of Q[j]"},
      {"NV_ALIGN_OFFSET", kAlignOffset, "shift = tt + NV_ALIGN_OFFSET >= 0"},
      {"NV_LSB_EXP", kLsbExp, "s7 out = RNE_fp32(T * 2^NV_LSB_EXP)"},
      {"NV_MAX_A", B::a, ""},
      {"NV_MAX_P", B::p, ""},
      {"NV_MAX_SUB", B::sub, ""},
      {"NV_MAX_SS", B::ss, ""},
      {"NV_MAX_PARTIAL", B::partial, ""},
      {"NV_TT_MIN", B::tt_min, ""},
      {"NV_TT_MAX", B::tt_max, ""},
  };
}

UnitDesc describe(const DotParams& p) {
  UnitDesc d;
  d.rtl_top = "nvfp4_dot64";
  d.rtl_params = {{"STAGES", p.stages}};
  d.label = "nvfp4 x" + std::to_string(kElems);
  d.stages = p.stages;
  d.cut_rule = "nvfp4_dot64";
  d.cut_masks = kCutMasks;
  d.cuts = {{"s1", "u_cut_s1", kSide + kElems * kWP},
            {"s2", "u_cut_s2", kSide + kSub * kWSub},
            {"s4", "u_cut_s4", 1 + kSub * kWTT + kSub * kWPartial},
            {"s6", "u_cut_s6", 1 + kWTotal},
            {"s7", "u_cut_s7", 32}};
  d.parts = parts();
  d.operand_bits = kElems * 4 + kSub * 8;
  d.rtl_signals = {{"s1_p", kElems * kWP},    {"s1_side", kSide}, {"s2_sub", kSub * kWSub},
                   {"s4_part", kSub * kWPartial}, {"s4_tt", kSub * kWTT}, {"s6_total", kWTotal}};
  d.stage_table = stage_table();
  d.pkg = pkg();
  return d;
}

float trace(const UnitDesc& d, const DotParams&, const fmt::QTensor& A, size_t m, const fmt::QTensor& Bq, size_t n, size_t blk,
            NetSink& r) {
  const BlockOperands o = block_operands(A, m, Bq, n, blk, kElems, 4, kSub, r);
  const uint8_t *sa = o.sa, *sb = o.sb;
  Nvfp4DotStages st;
  const DotResult res = Nvfp4Dot64::compute(o.a8, sa, o.b8, sb, &st);
  put_fp4_products(r, "s0.dec", o.a8, o.b8, st.a_a, st.a_b, st.p, kElems, kMag, kWP);
  for (int j = 0; j < kSub; ++j) put_tree(r, "s2.tree", std::vector<i128>(st.p + kPerSub * j, st.p + kPerSub * (j + 1)), kWP);
  for (int j = 0; j < kSub; ++j) {
    const Elem x = decode_e4m3(sa[j]), y = decode_e4m3(sb[j]);
    r.net("s3.sdec", sa[j] & 0x7F, 7);
    r.net("s3.sdec", x.sig, kScaleSig);
    r.net("s3.sdec", sb[j] & 0x7F, 7);
    r.net("s3.sdec", y.sig, kScaleSig);
    r.net("s3.smul", x.sig, kScaleSig);
    r.net("s3.smul", y.sig, kScaleSig);
    r.net("s3.smul", st.ss[j], kWSS);
    r.net("s3.exp", x.exp, kScaleExp);
    r.net("s3.exp", y.exp, kScaleExp);
    r.net("s3.exp", st.tt[j], kWTT);
    r.net("s4.mul", st.sub[j], kWSub);
    r.net("s4.mul", st.ss[j], kWSS);
    r.net("s4.mul", st.partial[j], kWPartial);
    r.net("s5.shift", st.partial[j], kWPartial);
    r.net("s5.shift", st.tt[j] + kAlignOffset, kShiftBits);
    r.net("s5.shift", st.aligned[j], kWAligned);
  }
  put_tree(r, "s6.tree", std::vector<i128>(st.aligned, st.aligned + kSub), kWAligned);
  put_fp32_conversion(r, "s7.abs", "s7.norm", "s7.round", "s7.exp", st.total, kWTotal, kLsbExp, 8, st.out_bits);
  // The ranks carry exactly the RTL's fields (rtl/nvfp4_dot64.sv).
  i128 side = st.nan;
  for (int j = kSub - 1; j >= 0; --j) {
    const bool neg = decode_e4m3(sa[j]).neg != decode_e4m3(sb[j]).neg;
    side = (side << kSideJ) | (i128(neg) << (kWTT + kWSS)) | (i128(st.tt[j] & ((1 << kWTT) - 1)) << kWSS) | st.ss[j];
  }
  std::vector<Field> c1{{side, kSide}}, c2{{side, kSide}}, c3{{st.nan, 1}};
  for (int k = 0; k < kElems; ++k) c1.push_back({st.p[k], kWP});
  for (int j = 0; j < kSub; ++j) c2.push_back({st.sub[j], kWSub});
  for (int j = 0; j < kSub; ++j) c3.push_back({st.tt[j], kWTT});
  for (int j = 0; j < kSub; ++j) c3.push_back({st.partial[j], kWPartial});
  put_cut(r, d, 1, c1);
  put_cut(r, d, 2, c2);
  put_cut(r, d, 3, c3);
  put_cut(r, d, 4, {{st.nan, 1}, {st.total, kWTotal}});
  put_cut(r, d, 5, {{st.out_bits, 32}});
  return res.value;
}

std::pair<std::string, std::string> supported(const DotParams&) { return {}; }

}  // namespace

extern const DotUnitHw kNvfp4Dot64;
const DotUnitHw kNvfp4Dot64{describe, trace, supported};

}  // namespace hifsim::dp::hw
