#include "formats/format.hpp"

#include <stdexcept>

#include "formats/hif8.hpp"
#include "formats/minifloat.hpp"
#include "formats/s1p2.hpp"
#include "formats/scales.hpp"

namespace hifsim::fmt {
namespace {
using R = Rounding;
constexpr unsigned kNearest = rbit(R::nearest_even) | rbit(R::nearest_away);

const std::vector<FormatInfo> kFormats = {
    {Format::hif8, "hif8", "HiFloat8, tapered 8-bit float (TA rounding, Inf above 40960)", true, 8, 1, 8.0,
     R::nearest_away, kNearest | rbit(R::toward_zero) | rbit(R::stochastic) | rbit(R::hybrid), true},
    {Format::hif4, "hif4", "HiFloat4, 64 x S1P2 + E6M2 + 8 + 16 micro-exponent bits", true, 4, 64, 4.5,
     R::nearest_away, kNearest, false},
    {Format::mxfp4, "mxfp4", "OCP MXFP4, 32 x E2M1 + E8M0", true, 4, 32, 4.25, R::nearest_even, kNearest, false},
    {Format::mxfp8_e4m3, "mxfp8-e4m3", "OCP MXFP8, 32 x E4M3 + E8M0", true, 8, 32, 8.25, R::nearest_even, kNearest,
     false},
    {Format::mxfp8_e5m2, "mxfp8-e5m2", "OCP MXFP8, 32 x E5M2 + E8M0", true, 8, 32, 8.25, R::nearest_even, kNearest,
     false},
    {Format::nvfp4, "nvfp4", "NVIDIA NVFP4, 16 x E2M1 + E4M3 block scale + FP32 tensor scale", true, 4, 16, 4.5,
     R::nearest_even, rbit(R::nearest_even), false},
    {Format::fp8_e4m3, "fp8-e4m3", "OCP FP8 E4M3 (fn: no Inf, NaN 0x7F)", true, 8, 1, 8.0, R::nearest_even,
     kNearest | rbit(R::toward_zero) | rbit(R::stochastic), true},
    {Format::fp8_e5m2, "fp8-e5m2", "OCP FP8 E5M2", true, 8, 1, 8.0, R::nearest_even,
     kNearest | rbit(R::toward_zero) | rbit(R::stochastic), true},
    {Format::bf16, "bf16", "bfloat16", true, 16, 1, 16.0, R::nearest_even,
     rbit(R::nearest_even) | rbit(R::toward_zero), false},
    {Format::fp4_e2m1, "fp4-e2m1", "FP4 E2M1 element (MXFP4/NVFP4)", false, 4, 1, 4.0, R::nearest_even, kNearest,
     false},
    {Format::s1p2, "s1p2", "S1P2 element of HiF4 (sign + 1.2 fixed point)", false, 4, 1, 4.0, R::nearest_away,
     kNearest, false},
    {Format::e6m2, "e6m2", "E6M2 scale of HiF4 (unsigned, bias 48, NaN 0xFF)", false, 8, 1, 8.0, R::nearest_even,
     rbit(R::nearest_even), false},
    {Format::e8m0, "e8m0", "E8M0 scale of MX (power of two, bias 127, NaN 0xFF)", false, 8, 1, 8.0,
     R::nearest_away, rbit(R::nearest_away), false},
};

std::string names(bool tensor) {
  std::string s;
  for (const auto& f : kFormats) {
    if (tensor ? !f.tensor : !has_code_table(f.id)) continue;
    if (!s.empty()) s += ", ";
    s += f.name;
  }
  return s;
}
}  // namespace

const std::vector<FormatInfo>& all_formats() { return kFormats; }

const FormatInfo& format_info(Format f) {
  for (const auto& i : kFormats)
    if (i.id == f) return i;
  throw std::logic_error("format_info: unknown format id");
}

std::optional<Format> parse_format(std::string_view name) {
  for (const auto& i : kFormats)
    if (name == i.name) return i.id;
  if (name == "e2m1") return Format::fp4_e2m1;
  if (name == "e4m3") return Format::fp8_e4m3;
  if (name == "e5m2") return Format::fp8_e5m2;
  return std::nullopt;
}

std::string tensor_format_names() { return names(true); }
std::string code_format_names() { return names(false); }

bool has_code_table(Format f) {
  switch (f) {
    case Format::hif8: case Format::fp8_e4m3: case Format::fp8_e5m2: case Format::fp4_e2m1:
    case Format::s1p2: case Format::e6m2: case Format::e8m0:
      return true;
    default:
      return false;
  }
}

float code_decode(Format f, uint8_t c) {
  switch (f) {
    case Format::hif8: return hif8_decode(c);
    case Format::fp8_e4m3: return minifloat_decode(kE4M3, c);
    case Format::fp8_e5m2: return minifloat_decode(kE5M2, c);
    case Format::fp4_e2m1: return minifloat_decode(kE2M1, c & 0xF);
    case Format::s1p2: return s1p2_decode(c & 0xF);
    case Format::e6m2: return e6m2_decode(c);
    case Format::e8m0: return e8m0_decode(c);
    default: throw std::logic_error("code_decode: format has no code table");
  }
}

uint8_t code_encode(Format f, float x) {
  switch (f) {
    case Format::hif8: return hif8_encode(x);
    case Format::fp8_e4m3: return minifloat_encode(kE4M3, x);
    case Format::fp8_e5m2: return minifloat_encode(kE5M2, x);
    case Format::fp4_e2m1: return minifloat_encode(kE2M1, x);
    case Format::s1p2: return s1p2_encode(x);
    case Format::e6m2: return e6m2_encode(x);
    case Format::e8m0: return e8m0_encode(x);
    default: throw std::logic_error("code_encode: format has no code table");
  }
}

}  // namespace hifsim::fmt
