// Floating-point addition with a configurable significand precision and FP32's exponent
// range: the adder of the FP32 accumulator and of its reduced-mantissa variants.
// fp_add(a, b, 24, rne) is IEEE-754 binary32 addition (tests compare it with the host FPU).
#pragma once
#include "datapath/exact.hpp"

namespace hifsim::dp {

// a + b rounded once to `precision` significant bits (a and b are any FP32 values).
// Zero results: +0, except (-0) + (-0) = -0 (IEEE, for both RNE and RZ). NaN -> 0x7FC00000.
float fp_add(float a, float b, int precision = 24, RoundMode mode = RoundMode::rne);

// x rounded to `precision` bits (used to bring an FP32 input into a reduced-precision register).
float fp_round(float x, int precision, RoundMode mode);

}  // namespace hifsim::dp
