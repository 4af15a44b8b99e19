// The format table: one entry per format hifsim knows, with every parameter the rest of
// the code needs (FPnew-style: adding a format means adding a row here and its codec).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "formats/rounding.hpp"

namespace hifsim::fmt {

enum class Format : uint8_t {
  // Tensor formats: `hifsim quantize` and `hifsim gemm` accept these.
  hif8, hif4, mxfp4, mxfp8_e4m3, mxfp8_e5m2, nvfp4, fp8_e4m3, fp8_e5m2, bf16,
  // Code formats: elements and scales on their own (`hifsim table`).
  fp4_e2m1, s1p2, e6m2, e8m0,
};

struct FormatInfo {
  Format id;
  const char* name;         // command-line name
  const char* summary;      // one line for --help
  bool tensor;              // a tensor format (quantize, gemm)
  unsigned code_bits;       // bits per element code (4, 8 or 16)
  unsigned block;           // elements sharing scales (1 = elementwise)
  double bits_per_value;    // storage including block metadata
  Rounding default_rounding;
  unsigned roundings;       // bitmask over Rounding values accepted for elements
  bool saturate_option;     // --saturate changes the result
};

inline constexpr unsigned rbit(Rounding r) { return 1u << static_cast<unsigned>(r); }

const std::vector<FormatInfo>& all_formats();
const FormatInfo& format_info(Format f);
std::optional<Format> parse_format(std::string_view name);
std::string tensor_format_names();  // "hif8, hif4, ..." for messages
std::string code_format_names();

// Formats with a code table (8-bit or 4-bit element or scale codes).
bool has_code_table(Format f);
// Element/scale code -> value, and value -> code with the format's default rule
// (used by `hifsim table` and the exhaustive round-trip tests).
float code_decode(Format f, uint8_t code);
uint8_t code_encode(Format f, float x);

}  // namespace hifsim::fmt
