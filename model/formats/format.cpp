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
     R::nearest_away, kNearest | rbit(R::stochastic), false},
    {Format::mxfp4, "mxfp4", "OCP MXFP4, 32 x E2M1 + E8M0", true, 4, 32, 4.25, R::nearest_even,
     kNearest | rbit(R::stochastic), false},
    {Format::mxfp8_e4m3, "mxfp8-e4m3", "OCP MXFP8, 32 x E4M3 + E8M0", true, 8, 32, 8.25, R::nearest_even,
     kNearest | rbit(R::stochastic), false},
    {Format::mxfp8_e5m2, "mxfp8-e5m2", "OCP MXFP8, 32 x E5M2 + E8M0", true, 8, 32, 8.25, R::nearest_even,
     kNearest | rbit(R::stochastic), false},
    {Format::nvfp4, "nvfp4", "NVIDIA NVFP4, 16 x E2M1 + E4M3 block scale + FP32 tensor scale", true, 4, 16, 4.5,
     R::nearest_even, rbit(R::nearest_even) | rbit(R::stochastic), false},
    {Format::fp8_e4m3, "fp8-e4m3", "OCP FP8 E4M3 (fn: no Inf, NaN 0x7F)", true, 8, 1, 8.0, R::nearest_even,
     kNearest | rbit(R::toward_zero) | rbit(R::stochastic), true},
    {Format::fp8_e5m2, "fp8-e5m2", "OCP FP8 E5M2", true, 8, 1, 8.0, R::nearest_even,
     kNearest | rbit(R::toward_zero) | rbit(R::stochastic), true},
    {Format::bf16, "bf16", "bfloat16", true, 16, 1, 16.0, R::nearest_even,
     rbit(R::nearest_even) | rbit(R::toward_zero) | rbit(R::stochastic), false},
    {Format::fp4_e2m1, "fp4-e2m1", "FP4 E2M1 element (MXFP4/NVFP4)", false, 4, 1, 4.0, R::nearest_even, kNearest,
     false},
    {Format::s1p2, "s1p2", "S1P2 element of HiF4 (sign + 1.2 fixed point)", false, 4, 1, 4.0, R::nearest_away,
     kNearest, false},
    {Format::e6m2, "e6m2", "E6M2 scale of HiF4 (unsigned, bias 48, NaN 0xFF)", false, 8, 1, 8.0, R::nearest_even,
     rbit(R::nearest_even), false},
    {Format::e8m0, "e8m0", "E8M0 scale of MX (power of two, bias 127, NaN 0xFF)", false, 8, 1, 8.0,
     R::nearest_away, rbit(R::nearest_away), false},
};

// Code-table entries: the codecs with their default rule, as plain function pointers.
float dec_hif8(uint8_t c) { return hif8_decode(c); }
uint8_t enc_hif8(float x) { return hif8_encode(x); }
float dec_e4m3(uint8_t c) { return minifloat_decode(kE4M3, c); }
uint8_t enc_e4m3(float x) { return minifloat_encode(kE4M3, x); }
float dec_e5m2(uint8_t c) { return minifloat_decode(kE5M2, c); }
uint8_t enc_e5m2(float x) { return minifloat_encode(kE5M2, x); }
float dec_e2m1(uint8_t c) { return minifloat_decode(kE2M1, c & 0xF); }
uint8_t enc_e2m1(float x) { return minifloat_encode(kE2M1, x); }
float dec_s1p2(uint8_t c) { return s1p2_decode(c & 0xF); }
uint8_t enc_s1p2(float x) { return s1p2_encode(x); }
float dec_e6m2(uint8_t c) { return e6m2_decode(c); }
uint8_t enc_e6m2(float x) { return e6m2_encode(x); }
float dec_e8m0(uint8_t c) { return e8m0_decode(c); }
uint8_t enc_e8m0(float x) { return e8m0_encode(x); }

using C = Code;
using U = DotUnit;
// Packed block bytes: HiF4 = 64 x 4 bits + E6M2 + 8 + 16 micro-exponent bits = 36; MXFP4 = 32 x
// 4 bits + E8M0 = 17; MXFP8 = 32 + 1 = 33; NVFP4 = 16 x 4 bits + E4M3 = 9 (docs/formats.md).
const std::vector<FormatTraits> kTraits = {
    // id                  element   minifloat scale    tensor  unit            lanes unit_sc packed decode    encode
    {Format::hif8,         C::hif8,  nullptr, C::none,  false, U::hif8_dot,     64, false, 1,  dec_hif8, enc_hif8},
    {Format::hif4,         C::s1p2,  nullptr, C::e6m2,  false, U::hif4_dot64,   64, false, 36, nullptr,  nullptr},
    {Format::mxfp4,        C::e2m1,  &kE2M1,  C::e8m0,  false, U::mxfp4_dot64,  64, false, 17, nullptr,  nullptr},
    {Format::mxfp8_e4m3,   C::e4m3,  &kE4M3,  C::e8m0,  false, U::mxfp8_dot32,  32, false, 33, nullptr,  nullptr},
    {Format::mxfp8_e5m2,   C::e5m2,  &kE5M2,  C::e8m0,  false, U::mxfp8_dot32,  32, false, 33, nullptr,  nullptr},
    {Format::nvfp4,        C::e2m1,  &kE2M1,  C::e4m3,  true,  U::nvfp4_dot64,  64, false, 9,  nullptr,  nullptr},
    {Format::fp8_e4m3,     C::e4m3,  &kE4M3,  C::none,  false, U::mxfp8_dot32,  32, true,  1,  dec_e4m3, enc_e4m3},
    {Format::fp8_e5m2,     C::e5m2,  &kE5M2,  C::none,  false, U::mxfp8_dot32,  32, true,  1,  dec_e5m2, enc_e5m2},
    {Format::bf16,         C::bf16,  nullptr, C::none,  false, U::bf16_dot64,   64, false, 2,  nullptr,  nullptr},
    {Format::fp4_e2m1,     C::e2m1,  &kE2M1,  C::none,  false, U::none,         0,  false, 1,  dec_e2m1, enc_e2m1},
    {Format::s1p2,         C::s1p2,  nullptr, C::none,  false, U::none,         0,  false, 1,  dec_s1p2, enc_s1p2},
    {Format::e6m2,         C::e6m2,  nullptr, C::none,  false, U::none,         0,  false, 1,  dec_e6m2, enc_e6m2},
    {Format::e8m0,         C::e8m0,  nullptr, C::none,  false, U::none,         0,  false, 1,  dec_e8m0, enc_e8m0},
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

const FormatTraits& format_traits(Format f) {
  for (const auto& t : kTraits)
    if (t.id == f) return t;
  throw std::logic_error("format_traits: unknown format id");
}

const char* dot_unit_name(DotUnit u) {
  static const char* const kNames[] = {"none",        "hif4_dot64", "nvfp4_dot64", "mxfp4_dot64",
                                       "mxfp8_dot32", "hif8_dot",   "bf16_dot64"};
  return kNames[static_cast<unsigned>(u)];
}

bool has_code_table(Format f) { return format_traits(f).decode != nullptr; }

float code_decode(Format f, uint8_t c) {
  const FormatTraits& t = format_traits(f);
  if (!t.decode) throw std::logic_error("code_decode: format has no code table");
  return t.decode(c);
}

uint8_t code_encode(Format f, float x) {
  const FormatTraits& t = format_traits(f);
  if (!t.encode) throw std::logic_error("code_encode: format has no code table");
  return t.encode(x);
}

}  // namespace hifsim::fmt
