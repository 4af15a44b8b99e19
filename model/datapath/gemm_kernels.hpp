// Packed GEMM kernels (internal to the engine). Operands are repacked once into the integer
// forms the units compute with; the kernels then reproduce the units' results exactly
// (tests/datapath/test_gemm.cpp checks every kernel against the unit-by-unit reference).
#pragma once
#include <cstdint>
#include <vector>

#include "datapath/gemm.hpp"

namespace hifsim::dp {

// HiF4: per 64-block, the 64 elements with both micro-exponent levels folded in,
// q[k] = +-(m << (E1_16 + E1_8)) (|q| <= 28, so int8), and the scale as an exact float
// f = (4+M) * 2^(E-52) (NaN for 0xFF). Then Dot = (sum qA*qB) * fA * fB, every step exact.
struct Hif4Packed {
  size_t rows = 0, nblk = 0;
  std::vector<int8_t> q;        // rows x nblk x 64
  std::vector<float> scale;     // rows x nblk
  std::vector<uint8_t> e6m2;    // rows x nblk (for the exact value)
};
Hif4Packed pack_hif4(const fmt::QTensor& t);

bool packed_kernel_supports(const GemmSpec& s);
// HiF8, BF16, MXFP8 and FP8 (gemm_float_elems.cpp).
void gemm_float_elems(const fmt::QTensor& A, const fmt::QTensor& B, const GemmSpec& s, float* C);
bool avx2_kernel_supports(const GemmSpec& s);
void gemm_packed(const fmt::QTensor& A, const fmt::QTensor& B, const GemmSpec& s, bool avx2, float* C);

#if HIFSIM_HAVE_AVX2_KERNELS
// C[m, n0..n0+7] for rows m of A and 8 consecutive rows of B, FP32 RNE accumulation from +0.
// sb8: B's scales transposed as nblk x 8. Defined in gemm_hif4_avx2.cpp (compiled with -mavx2).
void hif4_avx2_row_x8(const int8_t* qa, const float* sa, const int8_t* const qb[8], const float* sb8, size_t nblk,
                      float* out8);
#endif

}  // namespace hifsim::dp
