// Helpers shared by the dot-unit tests (test_<unit>.cpp): the vector count, random FP4 E2M1
// operands and exact references built with Boost.Multiprecision (exact_ref.hpp).
#pragma once
#include <cstdint>

#include "common/test_env.hpp"
#include "exact_ref.hpp"
#include "formats/minifloat.hpp"
#include "util/rng.hpp"

namespace hifsim::test {

inline const int kRandomVectors = static_cast<int>(scaled(100000));
constexpr uint32_t kNaN = 0x7FC00000u;

// 64 random FP4 E2M1 element codes (all 16, NaN-free) for each operand of an NVFP4/MXFP4 unit,
// drawn in pairs (a[k] then b[k]) so that a seed always gives the same vectors.
inline void random_e2m1_pairs(SplitMix64& rng, uint8_t* ca, uint8_t* cb) {
  for (int k = 0; k < 64; ++k) {
    ca[k] = static_cast<uint8_t>(rng.below(16));
    cb[k] = static_cast<uint8_t>(rng.below(16));
  }
}

// Exact dot of the FP4 E2M1 elements k = from .. from + n - 1 of two operands (one scale block).
inline ref::Dy e2m1_block_dot(const uint8_t* ca, const uint8_t* cb, int from, int n) {
  ref::Dy s;
  for (int k = from; k < from + n; ++k)
    s = ref::add(s, ref::mul(ref::from_float(fmt::minifloat_decode(fmt::kE2M1, ca[k])),
                             ref::from_float(fmt::minifloat_decode(fmt::kE2M1, cb[k]))));
  return s;
}

// The E8M0 scale 2^(s - 127) as an exact value.
inline ref::Dy e8m0_dy(uint8_t s) {
  ref::Dy d;
  d.n = 1;
  d.e = static_cast<int>(s) - 127;
  return d;
}

}  // namespace hifsim::test
