// Element-wise code conversion: float32 values <-> element or scale codes, one code per value.
// Used by `hifsim encode` / `hifsim decode` (the command-line interface the external oracle
// tests drive) and by the element-wise tensor formats (hif8, fp8-*, bf16) in tensor.cpp.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "formats/format.hpp"
#include "formats/tensor.hpp"

namespace hifsim::fmt {

// Formats `hifsim encode/decode` accept: every format with a code table plus bf16 (16-bit codes).
bool is_code_format(Format f);
std::string encode_format_names();  // for messages and --help
// Roundings accepted by encode for f (bitmask over Rounding) and its default.
unsigned code_roundings(Format f);
Rounding code_default_rounding(Format f);
bool code_has_saturate(Format f);  // hif8, fp8-*: --saturate changes the result
// True when f cannot take NaN or +-Inf inputs at all (fp4-e2m1, s1p2): encode rejects them.
bool code_rejects_nonfinite(Format f);

// Checks rounding/saturate against f (throws hifsim::Error naming the option and the reason).
void validate_code_options(Format f, const QuantOptions& o);

// One code. `index` keys the stochastic-rounding stream (counter_random(seed, format, index)),
// so the result depends only on (seed, format, index, x) and never on threads or order.
uint16_t encode_code(Format f, float x, Rounding r, const QuantOptions& o, uint64_t index);
// The same with the element's random word given (the stochastic word of sr_rbits, or the hybrid
// draw): what encode_code computes from `index` first.
uint16_t encode_code_with(Format f, float x, Rounding r, const QuantOptions& o, uint64_t rbits);
float decode_code(Format f, uint16_t code);

// n values; multithreaded (o.threads), results independent of the thread count. Throws
// hifsim::Error naming `where` and the first offending element for NaN/Inf into a format
// that rejects them.
void encode_codes(Format f, const float* x, size_t n, const QuantOptions& o, uint16_t* codes,
                  const std::string& where = "input");
// Throws for a code out of range (a 4-bit format given a value > 15).
void decode_codes(Format f, const uint16_t* codes, size_t n, float* out, const std::string& where = "input");

}  // namespace hifsim::fmt
