// The GEMM engine: C = A * B^T for A (M x K) and B (N x K), both quantized along K, built from
// the datapath units (docs/datapath.md, "GEMM engine"). For every output the unit results of
// its K blocks are fed to the accumulator in increasing K order, starting from +0.0; the
// result is bit-identical for every thread count and kernel (reference, portable, AVX2).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "datapath/accumulator.hpp"
#include "datapath/aligned_dot.hpp"
#include "formats/tensor.hpp"

namespace hifsim::dp {

enum class GemmKernel {
  automatic,  // the fastest exact kernel this machine runs (AVX2 where available)
  portable,   // plain C++ packed kernels (no SIMD intrinsics)
  reference,  // the unit classes called one block at a time (slow; the definition)
};

struct GemmSpec {
  fmt::Format format = fmt::Format::hif4;
  fmt::QuantOptions quant;   // used when the engine quantizes float inputs
  AccSpec acc;
  AlignSpec align;           // hif8 and bf16 units; see default_align()
  bool align_set = false;    // false: default_align(format)
  int hif8_lanes = 64;       // N of the HiF8 dot unit: 16, 32 or 64
  unsigned threads = 0;      // 0 = all hardware threads
  GemmKernel kernel = GemmKernel::automatic;
};

// Elements per dot-product unit call along K (hif4/nvfp4/mxfp4/bf16 64, mxfp8/fp8 32, hif8 N).
int dot_width(const GemmSpec& s);
AlignSpec default_align(fmt::Format f);  // hif8: exact; bf16: W = 64, sticky
AlignSpec effective_align(const GemmSpec& s);
// Validates the spec (format is a tensor format, lanes, align width); throws hifsim::Error.
void validate(const GemmSpec& s);

// Quantizes rows x cols floats along the rows, zero-padded to a multiple of dot_width().
fmt::QTensor quantize_operand(const float* x, size_t rows, size_t cols, const GemmSpec& s);

// Dot-product unit result for unit-block `blk` (dot_width elements) of row m of A and row n of B.
DotResult unit_dot(const fmt::QTensor& A, size_t m, const fmt::QTensor& B, size_t n, size_t blk, const GemmSpec& s);

// M x N result, row-major. A and B must have the same padded K (a multiple of dot_width).
std::vector<float> gemm_quantized(const fmt::QTensor& A, const fmt::QTensor& B, const GemmSpec& s);
// Quantizes A and B (with s.quant) and runs gemm_quantized.
std::vector<float> gemm(const float* A, size_t M, size_t K, const float* B, size_t N, const GemmSpec& s);

// The FP32 epilogue of a format: NVFP4 multiplies by alpha = fl(sA * sB); others return acc.
float epilogue(float acc, const fmt::QTensor& A, const fmt::QTensor& B);

// True when the AVX2 kernels are compiled in and the CPU supports them.
bool gemm_avx2_available();
// Name of the kernel `automatic` resolves to for this spec ("avx2", "portable").
std::string resolved_kernel(const GemmSpec& s);

}  // namespace hifsim::dp
