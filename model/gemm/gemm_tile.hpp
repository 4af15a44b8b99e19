// The interface between the GEMM driver (gemm_driver.cpp, portable C++) and the tile kernels
// compiled once per CPU variant (gemm_variant_*.cpp). Plain structs of raw pointers only: the
// variant translation units are compiled with their own target flags and must not share any
// inline function or template instance with the rest of the library (a shared one could be
// emitted with AVX-512 instructions and picked by the linker for a CPU without them).
//
// Two kernel families (docs/performance.md):
//   int8  HiF4, NVFP4, MXFP4: elements as small integers, the block's exact integer dot
//         product (vpdpbusd / vpmaddubsw), then the block scales applied exactly.
//   fp    MXFP8, FP8, HiF8, BF16: elements as doubles, the block's products summed in double
//         (exact products; the sum is exact or its rounding to FP32 is verified), then the
//         exact scale; blocks whose FP32 value cannot be proven are recomputed by the unit.
#pragma once
#include <cstddef>
#include <cstdint>

namespace hifsim::dp::tile {

// Unsigned bias added to B's int8 codes so that vpdpbusd (unsigned x signed) applies; every
// A row carries -bias * (sum of its codes) per sub-block to undo it exactly.
constexpr int kHif4Bias = 28;  // |q| <= 28 -> 0..56
constexpr int kE2m1Bias = 12;  // |q| <= 12 -> 0..24

// ---- int8 family ----
// A rows (already offset to the tile's first row; row stride K bytes / nblk or nsub entries).
struct Int8A {
  const int8_t* q = nullptr;        // [rows][K]
  const int32_t* corr = nullptr;    // [rows][nsub]  -bias * sum of the row's codes in the sub-block
  const float* fscale = nullptr;    // hif4: [rows][nblk]  (4+M) * 2^(E-52), NaN for the NaN code
  const double* dscale = nullptr;   // nvfp4, mxfp4: [rows][nsub]  the sub-block scale's value
  const int32_t* gap = nullptr;     // mxfp4: [rows][nblk]  x0 - x1 of the two E8M0 codes
  // nvfp4, mxfp4: the sub-block scales of a 64-block as small integers over one power of two,
  // dscale[s] = ifac[s] * fbase[blk] (nvfp4: ifac = signed significand << exponent offset,
  // |ifac| <= kE2m1MaxFactor; mxfp4: ifac = the shift, <= kMxMaxShift). fbase is NaN where the
  // block's scales do not fit (a NaN scale, too wide a span): those blocks take dscale.
  const int32_t* ifac = nullptr;    // [rows][nsub]
  const float* fbase = nullptr;     // [rows][nblk]
};
// One panel of NR columns of B.
struct Int8B {
  const uint8_t* q = nullptr;       // [nblk][16 groups of 4 k][NR][4]  code + bias
  const float* fscale = nullptr;    // hif4: [nblk][NR]
  const double* dscale = nullptr;   // [nsub][NR]
  const int32_t* gap = nullptr;     // mxfp4: [nblk][NR]
  const int32_t* ifac = nullptr;    // [nsub][NR]
  const float* fbase = nullptr;     // [nblk][NR]
};
// Bounds of the integer scale factors: |sum_j S_j * fA_j * fB_j| < 2^31 with |S_j| <= 16 * 144
// (NVFP4, 4 sub-blocks: 4 * 2304 * 480^2 < 2^31) and 32 * 144 (MXFP4, 2 sub-blocks:
// 2 * 4608 * 2^(8 + 8) < 2^31), so the block's integer sum is exact in int32.
constexpr int kE2m1MaxFactor = 480;  // 15 << 5
constexpr int kMxMaxShift = 8;

// ---- fp family ----
// Widest alignment window whose windowed sum of w terms (each < 2^(W+1)) is exact in a
// double: 2^(W + 1 + log2 w) <= 2^53.
constexpr int max_double_window(int w) { return 52 - (w <= 16 ? 4 : w <= 32 ? 5 : 6); }

struct FpA {
  const double* x = nullptr;        // [K][MR] element values (exact) of the tile's MR rows
  const double* scale = nullptr;    // [rows][nblk]  2^(x-127) for MX formats (NaN code -> NaN), else 1
  const double* norm = nullptr;     // [rows][nblk]  L2 norm of the block's finite elements * scale
  const double* wmax = nullptr;     // [rows][nblk]  2^(largest element exponent) * scale (window bound)
  const double* spanf = nullptr;    // [rows][nblk]  2^(largest - smallest exponent of nonzero finite elements)
  // Narrow windows only (fp_window kernels):
  const double* e = nullptr;        // [K][MR]  element exponent (value = sig * 2^e), -inf for zero
  const uint8_t* special = nullptr; // [rows][nblk]  the block has a NaN or Inf element
};
struct FpB {
  const double* x = nullptr;        // [K][NR]
  const double* scale = nullptr;    // [nblk][NR]
  const double* norm = nullptr;     // [nblk][NR]  includes the factor 2^-45 of the error bound
  const double* wmax = nullptr;     // [nblk][NR]  includes 2^(pbits + log2(w) + 1 - W)
  const double* spanf = nullptr;    // [nblk][NR]
  const double* e = nullptr;        // [K][NR]
  const uint8_t* special = nullptr; // [nblk][NR]
};

// The fp family on integers (gemm_kernels_fpi.hpp; FP32 accumulator): per operand block the
// elements as int16 over one power of two, value_k = q_k * 2^e (e = the lowest set bit of the
// block's nonzero elements plus the MX scale exponent), with the block's L2 norm of q (rounded
// up). Blocks without that form (a NaN/Inf element, a NaN scale, |q| > 32767) have
// norm +Inf: every output they touch goes to the unit.
struct FpiA {
  const int16_t* q = nullptr;      // [rows][K]
  const int32_t* e = nullptr;      // [rows][nblk]
  const float* norm = nullptr;     // [rows][nblk]
};
struct FpiB {
  const int16_t* q = nullptr;      // [K / 2][NR][2]: pairs of consecutive k per column
  const int32_t* e = nullptr;      // [nblk][NR]
  const float* norm = nullptr;     // [nblk][NR]
};
// |sum_k qA_k qB_k| <= |qA|_2 |qB|_2 (Cauchy-Schwarz); with the float product of the norms at
// most this (2^31 - 2^8: its rounding error is below 2^-24 relative), the true product is below
// 2^31, so the block's integer sum is exact in int32 (intermediate wrap-around cancels).
constexpr float kFpiNormLimit = 0x1.fffffcp30f;
constexpr int kFpiMaxQ = 32767;  // int16 elements
constexpr int kFpiMaxD = 14;     // an int16 form's bits span at most 15 binades: d = top - lowest <= 14
// Operand blocks without an int16 form send their outputs to scalar code (about 100x the cost
// of a block in the kernel, gemm_fpi_exact.hpp): above this share of A's plus B's blocks the
// GEMM takes the double kernel instead (gemm_driver.cpp).
constexpr double kFpiMaxWideShare = 1.0 / 1024;

enum EmitStatus : uint8_t { kRecompute = 0, kRounds = 1, kExact = 2 };

// Exact fallback: the unit's FP32 result for block `blk` of output (m, n).
using FixupFn = float (*)(const void* ctx, size_t m, size_t n, size_t blk);

struct Call {
  size_t K = 0, nblk = 0;     // padded K and its blocks (of the unit's width)
  size_t m0 = 0, n0 = 0;      // first output row and column of the tile
  size_t rows = 0, cols = 0;  // valid rows (<= MR) and columns (<= NR)
  // fp family
  int width = 0;              // block width w (16, 32 or 64)
  bool check = true;          // verify the FP32 rounding of the double sum (false: always exact)
  bool window = false;        // add the alignment-window error bound (FpB::wmax) to the check
  int window_width = 0;       // fp_window kernels: W
  int pbits = 0;              // fp_window kernels: the unit's product bits P
  // The block's double sum is the unit's exact value when spanfA * spanfB <= exact_limit: the
  // products then span few enough bits for 53 (and, with a window, nothing is dropped).
  double exact_limit = 0;
  // Output. emit == false: FP32 RNE accumulation from +0 in K order; C[m][n] = acc * alpha
  // (NaN canonical). emit == true: per block the value as a double and what it is worth:
  // kExact (the unit's exact value), kRounds (its FP32 rounding is the unit's output) or
  // kRecompute (neither could be proven: the unit must compute the block).
  bool emit = false;
  float* C = nullptr;
  size_t ldc = 0;
  float alpha = 1.0f;
  double* emit_val = nullptr;  // [nblk][MR][NR]
  uint8_t* emit_ok = nullptr;  // [nblk][MR][NR]: kRecompute, kRounds or kExact
  FixupFn fixup = nullptr;
  const void* fixup_ctx = nullptr;
  uint64_t* fixups = nullptr;  // fused mode: blocks recomputed by `fixup` (counter)
  uint64_t* slow_lanes = nullptr;  // e2m1 fused mode: blocks summed in double (counter, may be null)
};

using Int8Kernel = void (*)(const Call&, const Int8A&, const Int8B&);
// Row packing (gemm_kernels_pack.hpp): codes of one row -> the unit's integers + bias.
using Hif4RowFn = void (*)(const uint16_t* codes, const uint8_t* l2, const uint16_t* l3, size_t nblk, int bias,
                           int8_t* out);
using E2m1RowFn = void (*)(const uint16_t* codes, size_t K, int bias, int8_t* out);
using FpKernel = void (*)(const Call&, const FpA&, const FpB&);
using FpiKernel = void (*)(const Call&, const FpiA&, const FpiB&);

// The kernels of one CPU variant and the tile shapes they were built for.
struct VariantKernels {
  const char* name;
  int int8_mr, int8_nr;      // HiF4
  int nvfp_mr, nvfp_nr;      // NVFP4 and MXFP4
  int fp_mr, fp_nr;
  int fpw_mr, fpw_nr;        // narrow-window kernels
  Int8Kernel hif4, nvfp4, mxfp4;
  FpKernel fp_checked, fp_exact;  // fp_exact: the double sum is always exact (E4M3 elements)
  FpKernel fp_window_trunc, fp_window_sticky;  // W <= kMaxDoubleWindow: the windowed sum itself
  int fpi_mr, fpi_nr;        // fp family on integers (FP32 accumulator)
  FpiKernel fpi;             // nullptr: this variant keeps the double kernel
  Hif4RowFn hif4_row;
  E2m1RowFn e2m1_row;
  // Called on the engine's calling thread after a GEMM's tiles (nullptr: nothing to do). The amx
  // variant hands the tile state back to the OS there (worker threads end with their GEMM).
  void (*end_of_gemm)() = nullptr;
};

const VariantKernels& kernels_portable();
#if HIFSIM_HAVE_SIMD_KERNELS
const VariantKernels& kernels_avx2();
const VariantKernels& kernels_avxvnni();
const VariantKernels& kernels_avx512();
const VariantKernels& kernels_amx();
#endif

}  // namespace hifsim::dp::tile
