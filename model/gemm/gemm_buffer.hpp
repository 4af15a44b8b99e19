// Large GEMM buffers (packed operands, results) without the serial cost of their first touch:
// util/uninit_buffer.hpp (uninitialized, huge-page advised), under the engine's name.
#pragma once
#include "util/uninit_buffer.hpp"

namespace hifsim::dp {

template <class T>
using Buffer = UninitBuffer<T>;

}  // namespace hifsim::dp
