// Row packing of the int8 family, compiled per CPU variant like the tile kernels (the loops
// are written for the compiler to vectorise with that variant's instructions). Included only
// by gemm_variant_*.cpp (see gemm_simd.hpp).
#pragma once
#include <cstddef>
#include <cstdint>

namespace hifsim::dp::HIFSIM_VARIANT_NS {

// One row of HiF4 codes -> the unit's integers q = +-(m << (E1_16 + E1_8)) (hif4_dot.hpp s0
// with the level-2 shift folded in), plus `bias` (0 for A; tile::kHif4Bias for B).
inline void hif4_row_ints(const uint16_t* codes, const uint8_t* l2, const uint16_t* l3, size_t nblk, int bias,
                          int8_t* out) {
  for (size_t b = 0; b < nblk; ++b) {
    const uint32_t bits2 = l2[b], bits3 = l3[b];
    const uint16_t* c = codes + b * 64;
    int8_t* q = out + b * 64;
    for (int k = 0; k < 64; ++k) {
      const uint32_t sh = ((bits2 >> (k >> 3)) & 1u) + ((bits3 >> (k >> 2)) & 1u);
      const int32_t m = static_cast<int32_t>((c[k] & 7u) << sh);
      q[k] = static_cast<int8_t>(((c[k] & 8u) ? -m : m) + bias);
    }
  }
}

// One row of E2M1 codes -> half units (|q| <= 12), plus `bias`.
inline void e2m1_row_ints(const uint16_t* codes, size_t K, int bias, int8_t* out) {
  for (size_t k = 0; k < K; ++k) {
    const uint32_t c = codes[k];
    const uint32_t e = (c >> 1) & 3u, m = c & 1u;
    // Half units: 0, 1, 2, 3, 4, 6, 8, 12 = (2 + m) << (e - 1) for e >= 1, m for e = 0.
    const int32_t mag = e == 0 ? static_cast<int32_t>(m) : static_cast<int32_t>((2u + m) << (e - 1));
    out[k] = static_cast<int8_t>(((c & 8u) ? -mag : mag) + bias);
  }
}

}  // namespace hifsim::dp::HIFSIM_VARIANT_NS
