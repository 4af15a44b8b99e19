// Fast quantize-dequantize paths (branch-free, vectorisable loops). Each returns exactly the
// bits of dequantize(quantize(...)) -- tests/formats/test_qdq_fast.cpp compares them -- and
// returns false when it does not handle the format/options (the caller then takes the
// reference path).
#pragma once
#include <cstddef>

#include "formats/tensor.hpp"

namespace hifsim::fmt {

bool qdq_fast(Format f, const float* x, float* y, size_t rows, size_t cols, const QuantOptions& o);

}  // namespace hifsim::fmt
