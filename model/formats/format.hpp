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

// ---- The per-format record: how a format is built and which unit computes it ----------------
// Every behaviour that differs between formats outside model/formats (which decoder reads an
// element, which dot-product unit and how many lanes, which scales and when they apply, how
// many bytes a packed block takes) is looked up in this record, never decided by a
// `switch (format)` of its own. Adding a format means a FormatInfo row, a FormatTraits row and
// its codec; the code that consumes the record (the GEMM engine, the timing core, the cost
// model, the CLI) does not change. tests/formats/test_format_traits.cpp checks every row
// against the codecs.

// A code that turns bits into a value: the elements of a format and its scale codes. The
// integer form the datapath multiplies (datapath/element.hpp) has one decoder per code.
enum class Code : uint8_t { none, s1p2, e2m1, e4m3, e5m2, hif8, bf16, e6m2, e8m0 };

// The bit-exact dot-product unit of model/datapath (and its RTL module, same name) that
// computes a tensor format's dot products.
enum class DotUnit : uint8_t { none, hif4_dot64, nvfp4_dot64, mxfp4_dot64, mxfp8_dot32, hif8_dot, bf16_dot64 };

struct MiniFloatSpec;  // formats/minifloat.hpp

struct FormatTraits {
  Format id;
  Code element;                     // the code of each element
  const MiniFloatSpec* minifloat;   // E2M1 / E4M3 / E5M2 elements: their spec; else nullptr
  Code scale;                       // the block's scale code: e6m2 (HiF4 level 1, with its 8 + 16
                                    // micro-exponent bits), e4m3 (NVFP4), e8m0 (MX); none
  bool tensor_scale;                // an FP32 per-tensor scale, applied in the GEMM epilogue (NVFP4)
  DotUnit unit;                     // tensor formats: the unit computing their dot products
  unsigned unit_lanes;              // elements per call of that unit (hif8: default of the
                                    // configurable width, 16 | 32 | 64)
  bool unit_scales;                 // plain FP8 runs on the MXFP8 unit with every scale fixed
                                    // to E8M0 127 (2^0): one scale operation per dot
  unsigned packed_record_bytes;     // bytes of one block in the packed container (packed.hpp)
  float (*decode)(uint8_t);         // formats with a code table: code -> value (else nullptr)
  uint8_t (*encode)(float);         // ... and value -> code with the format's default rule
};

const FormatTraits& format_traits(Format f);
// "hif4_dot64", ... (the model's unit and its RTL module); "none".
const char* dot_unit_name(DotUnit u);

const std::vector<FormatInfo>& all_formats();
const FormatInfo& format_info(Format f);
std::optional<Format> parse_format(std::string_view name);
std::string tensor_format_names();  // "hif8, hif4, ..." for messages
std::string code_format_names();

// Formats with a code table (8-bit or 4-bit element or scale codes): format_traits(f).decode.
bool has_code_table(Format f);
// Element/scale code -> value, and value -> code with the format's default rule
// (used by `hifsim table` and the exhaustive round-trip tests).
float code_decode(Format f, uint8_t code);
uint8_t code_encode(Format f, float x);

}  // namespace hifsim::fmt
