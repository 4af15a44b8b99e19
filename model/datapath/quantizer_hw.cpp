// The hardware of the block quantizers next to the MAC (docs/cost.md "Quantizer"): the HiF4
// quantizer (formats/hif4.cpp hif4_quantize_bf16; rtl/hif4_quantizer.sv, hif4.md section 6) and
// the analogous quantizers of the other formats (no RTL yet), one block of `lanes` values each.
#include "datapath/hw.hpp"
#include "formats/hif4.hpp"
#include "util/error.hpp"

namespace hifsim::dp::hw {
namespace {

using fmt::Format;

Component q(const char* name, Kind k, int p1, int p2, int count, const char* what) {
  return {name, k, p1, p2, count, false, false, what};
}

constexpr int kBf16Mag = 15;  // BF16 magnitude bits (the peaks compare them)

// ascend_a6: the RTL's ASCEND_A6 = 1 (--hif4-convention ascend-a6): every element product is
// rounded to BF16 before the element rounding, and its zero test decides the sign.
UnitDesc hif4_quantizer(bool ascend_a6) {
  const int n = fmt::kHif4Block, unit_bits = 8 * fmt::kHif4PackedBytes;
  UnitDesc d;
  d.rtl_top = "hif4_quantizer";
  d.rtl_params = {{"STAGES", 0}, {"ASCEND_A6", ascend_a6 ? 1 : 0}};
  d.label = "hif4 quantizer x64";
  // The RTL's ranks: after q1 (peaks), q2 (scale), q3 (level bits), q4 (the unit); the 64 BF16
  // inputs travel with the data to q4.
  d.cut_masks = {0b0000, 0b0010, 0b0101, 0b0111, 0b1111};
  const int x = 16 * n, peaks = (16 + 8 + 1) * kBf16Mag, scale = 7 + 8 + 8;
  d.cuts = {{"q1", "u_cut_q1", 2 + peaks + x},
            {"q2", "u_cut_q2", 1 + scale + 24 * kBf16Mag + x},
            {"q3", "u_cut_q3", 1 + scale + 24 + x},
            {"q4", "u_cut_q4", unit_bits}};
  d.parts = {
      q("q.max", Kind::max, 64, 15, 1, "peak magnitudes (4 -> 8 -> 64 max tree)"),
      q("q.scale", Kind::mul, 8, 8, 1, "Vmax x bf16(1/7)"),
      q("q.e6m2", Kind::add, 8, 0, 2, "clamp and E6M2 rounding"),
      q("q.rec", Kind::mux, 8, 4, 1, "reciprocal mantissa LUT"),
      q("q.cmp_mul", Kind::mul, 8, 8, 24, "E1_8 / E1_16 threshold products (8 + 16)"),
      q("q.cmp", Kind::add, 10, 0, 24, "threshold compares after exponent alignment"),
      q("q.elem_mul", Kind::mul, 8, 8, 64, "|x| x REC per element"),
      q("q.elem_shift", Kind::shift, 16, 4, 64, "shift by e8 + e16 + exponent difference"),
      q("q.elem_round", Kind::add, 4, 0, 64, "round to 1/4 (half away) and saturate"),
  };
  if (ascend_a6) {
    d.parts.push_back(q("q.elem_bf16", Kind::add, 9, 0, 64, "A6: |x| x scale rounded to BF16 (8 significant bits)"));
    d.parts.push_back(q("q.elem_zero", Kind::add, 17, 0, 64, "A6: zero test of the BF16 product (the sign's)"));
  }
  // The output block register: the RTL's last rank (u_cut_q4).
  d.parts.push_back(q("q.reg", Kind::reg, unit_bits, 0, 1, "output block register"));
  d.operand_bits = x;
  d.cut_rule = "hif4_quantizer";
  d.rtl_signals = {{"q1_peak", peaks}, {"q2_scale", scale}, {"q3_e1", 24}, {"q4_unit", unit_bits}};
  return d;
}

std::vector<Component> nvfp4_parts(int) {
  return {q("q.max", Kind::max, 16, 15, 4, "sub-block peak magnitudes"),
          q("q.scale", Kind::mul, 8, 8, 4, "amax x 1/6"),
          q("q.e4m3", Kind::add, 8, 0, 4, "E4M3 scale rounding"),
          q("q.rec", Kind::mux, 8, 16, 4, "reciprocal LUT of the scale significand"),
          q("q.elem_mul", Kind::mul, 8, 8, 64, "x x 1/scale per element"),
          q("q.elem_shift", Kind::shift, 16, 4, 64, "exponent alignment to E2M1"),
          q("q.elem_round", Kind::add, 4, 0, 64, "RNE to E2M1 and saturate"),
          q("q.reg", Kind::reg, 64 * 4 + 32, 0, 1, "output block register")};
}
std::vector<Component> mxfp4_parts(int) {
  return {q("q.max", Kind::max, 32, 8, 2, "block peak exponents"),
          q("q.e8m0", Kind::add, 8, 0, 2, "E8M0 scale exponent"),
          q("q.elem_exp", Kind::add, 8, 0, 64, "element exponent minus scale exponent"),
          q("q.elem_shift", Kind::shift, 8, 3, 64, "alignment to E2M1"),
          q("q.elem_round", Kind::add, 4, 0, 64, "RNE to E2M1 and saturate"),
          q("q.reg", Kind::reg, 64 * 4 + 16, 0, 1, "output block register")};
}
std::vector<Component> hif8_parts(int lanes) {
  return {q("q.elem_exp", Kind::add, 8, 0, lanes, "exponent -> dot-field class"),
          q("q.elem_layout", Kind::mux, 8, 4, lanes, "field layout per exponent class"),
          q("q.elem_round", Kind::add, 8, 0, lanes, "rounding of the mantissa"),
          q("q.reg", Kind::reg, lanes * 8, 0, 1, "output block register")};
}
std::vector<Component> bf16_parts(int lanes) {
  return {q("q.elem_round", Kind::add, 8, 0, lanes, "FP32 -> BF16 RNE"),
          q("q.reg", Kind::reg, lanes * 16, 0, 1, "output block register")};
}
std::vector<Component> mxfp8_parts(int lanes) {
  return {q("q.max", Kind::max, 32, 8, lanes / 32, "block peak exponents"),
          q("q.e8m0", Kind::add, 8, 0, lanes / 32, "E8M0 scale exponent"),
          q("q.elem_exp", Kind::add, 8, 0, lanes, "element exponent minus scale exponent"),
          q("q.elem_shift", Kind::shift, 8, 3, lanes, "subnormal alignment"),
          q("q.elem_round", Kind::add, 8, 0, lanes, "RNE and saturate"),
          q("q.reg", Kind::reg, lanes * 8 + 8, 0, 1, "output block register")};
}

}  // namespace

UnitDesc describe_quantizer(Format f, int lanes, bool hif4_ascend_a6) {
  if (f == Format::hif4) return hif4_quantizer(hif4_ascend_a6);
  static const std::pair<Format, std::vector<Component> (*)(int)> table[] = {
      {Format::nvfp4, nvfp4_parts},      {Format::mxfp4, mxfp4_parts},      {Format::hif8, hif8_parts},
      {Format::bf16, bf16_parts},        {Format::mxfp8_e4m3, mxfp8_parts}, {Format::mxfp8_e5m2, mxfp8_parts},
      {Format::fp8_e4m3, mxfp8_parts},   {Format::fp8_e5m2, mxfp8_parts},
  };
  for (const auto& [g, parts] : table) {
    if (g != f) continue;
    UnitDesc d;
    d.label = std::string(fmt::format_info(f).name) + " quantizer x" + std::to_string(lanes);
    d.cut_masks = {0};
    d.parts = parts(lanes);
    return d;
  }
  throw Error("cost", fmt::format_info(f).name, "has no quantizer model");
}

}  // namespace hifsim::dp::hw
