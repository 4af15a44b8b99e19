// The random Hadamard transform of the training recipes (docs/training.md, "Random Hadamard
// transform"): both GEMM operands multiplied along K by the same block-diagonal matrix
// diag(H_N D, H_N D, ...), H_N the N x N Sylvester Hadamard matrix scaled by 1/sqrt(N) and
// D = diag(signs), so (H D a) . (H D b) = a . b exactly in real arithmetic.
//
// Bit-exact definition, per row and per block of N elements along K, in FP32:
//   1. v_j = x_j with its sign flipped where sign bit j is 1 (exact);
//   2. log2(N) butterfly stages h = 1, 2, 4, ..., N/2: for every i with (i & h) == 0,
//      (v_i, v_{i+h}) <- (v_i + v_{i+h}, v_i - v_{i+h}), each an FP32 add rounded to nearest even;
//   3. y_j = v_j * c_N, c_N = RNE_fp32(1/sqrt(N)) (0.25 and 0.125 for N = 16, 64: exact).
// Sign bit j = bit j of threefry2x32_20(rht_seed, 0, kRhtStream) (formats/stochastic.hpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace hifsim::fmt {

constexpr uint32_t kRhtStream = 0xFFFFFFFFu;  // the counter word reserved for the sign vector

enum class RhtSigns { random, none };  // none: the plain (deterministic) Hadamard transform

struct RhtSpec {
  unsigned n = 0;                      // 0 = off; else 16, 32 or 64
  uint64_t seed = 0;                   // --rht-seed
  RhtSigns signs = RhtSigns::random;
  bool on() const { return n != 0; }
};

// The N sign bits (bit j set: element j of every block is negated).
uint64_t rht_sign_bits(const RhtSpec& s);
// FP32 c_N = RNE(1/sqrt(N)).
float rht_scale(unsigned n);

// Throws hifsim::Error: --rht not 0/16/32/64, or cols (the K of `what`) not a multiple of N.
void validate_rht(const RhtSpec& s, size_t cols, const std::string& what);

// y = x transformed along each row (rows x cols, cols % N == 0); y may equal x. Vectorised
// (8 rows side by side) with the same bits as rht_rows_reference for every instruction set.
void rht_rows(const RhtSpec& s, const float* x, float* y, size_t rows, size_t cols, unsigned threads = 0);
// t (cols x rows) = rht_rows of the transpose of x (rows x cols): x transformed along its columns
// and transposed in one pass, the same bits (wgrad's operands, quantized along T). Returns false
// and writes nothing when it does not handle the case (transform off, cols not a multiple of 8,
// no AVX2); throws as validate_rht when rows is not a multiple of N.
bool rht_transpose_fast(const RhtSpec& s, const float* x, float* t, size_t rows, size_t cols, unsigned threads = 0);
// One row at a time, the definition above written out (tests compare the two).
void rht_rows_reference(const RhtSpec& s, const float* x, float* y, size_t rows, size_t cols);

}  // namespace hifsim::fmt
