// The GEMM engine: C = A * B^T for A (M x K) and B (N x K), both quantized along K, built from
// the datapath units (docs/datapath.md, "GEMM engine"). For every output the unit results of
// its K blocks are fed to the accumulator in increasing K order, starting from +0.0; the
// result is bit-identical for every thread count and kernel (the reference and every CPU
// variant of the tile kernels: gemm_cpu.hpp, docs/performance.md).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "datapath/accumulator.hpp"
#include "datapath/aligned_dot.hpp"
#include "formats/hadamard.hpp"
#include "formats/tensor.hpp"
#include "gemm/gemm_cpu.hpp"

namespace hifsim::dp {

enum class GemmKernel {
  automatic,  // HIFSIM_KERNEL when set, else the fastest variant this CPU runs (gemm_cpu.hpp)
  portable,   // the tile kernels in plain C++
  avx2,       // ... with AVX2 + FMA (an error where the CPU cannot run them)
  avxvnni,    // ... with AVX2 + FMA + AVX-VNNI
  avx512,     // ... with AVX-512 BW/DQ/VL + VNNI
  amx,        // ... avx512 with HiF4 on the AMX-INT8 tile unit
  reference,  // the unit classes called one block at a time (slow; the definition)
};
// "auto", "portable", "avx2", "avxvnni", "avx512", "amx", "reference"; throws hifsim::Error naming `option`.
GemmKernel parse_gemm_kernel(const std::string& name, const std::string& option = "--kernel");
// The kernel choice that forces CPU variant v.
GemmKernel gemm_kernel_of(CpuVariant v);

struct GemmSpec {
  fmt::Format format = fmt::Format::hif4;
  fmt::QuantOptions quant;   // used when the engine quantizes float inputs
  AccSpec acc;
  AlignSpec align;           // hif8 and bf16 units; see default_align()
  bool align_set = false;    // false: default_align(format)
  int hif8_lanes = kHif8DefaultLanes;  // N of the HiF8 dot unit: 16, 32 or 64
  unsigned threads = 0;      // 0 = all hardware threads
  GemmKernel kernel = GemmKernel::automatic;
  fmt::RhtSpec rht;          // random Hadamard transform of both operands along K (gemm() only)
};

// Elements per dot-product unit call along K (hif4/nvfp4/mxfp4/bf16 64, mxfp8/fp8 32, hif8 N).
int dot_width(const GemmSpec& s);
AlignSpec effective_align(const GemmSpec& s);
// Validates the spec (format is a tensor format, lanes, align width); throws hifsim::Error.
void validate(const GemmSpec& s);

// Quantizes rows x cols floats along the rows, zero-padded to a multiple of dot_width().
fmt::QTensor quantize_operand(const float* x, size_t rows, size_t cols, const GemmSpec& s);
// The spec gemm() quantizes B with: s with B's own stochastic-rounding stream, s.quant.sr_stream + 1
// (A and B never share random bits).
GemmSpec b_operand_spec(const GemmSpec& s);

// Dot-product unit result for unit-block `blk` (dot_width elements) of row m of A and row n of B.
DotResult unit_dot(const fmt::QTensor& A, size_t m, const fmt::QTensor& B, size_t n, size_t blk, const GemmSpec& s);

// What one GEMM ran: the kernel, and how many unit results the exact fallback recomputed
// (blocks whose FP32 value the fast path could not prove; docs/performance.md).
struct GemmRunInfo {
  std::string kernel;            // "reference", "portable", "avx2", "avxvnni", "avx512" or "amx"
  uint64_t unit_blocks = 0;      // M * N * (padded K / dot_width)
  uint64_t fallback_blocks = 0;  // of those, computed by the unit instead of the fast path
  // Unit blocks an integer kernel (FP32 accumulator) could not take, computed exactly by a slower
  // path instead (speed only, same bits): NVFP4/MXFP4 blocks whose scales have no integer form,
  // summed in double (gemm_kernels_int8.hpp e2m1_tile); MXFP8/FP8/HiF8 blocks whose int16 form or
  // int32 sum does not hold them, summed in scalar 128-bit code (gemm_fpi_exact.hpp; the unit
  // blocks among them are counted in fallback_blocks too).
  uint64_t slow_scale_blocks = 0;
  // MXFP8/FP8/HiF8 with the FP32 accumulator: whether the int16 kernel ran (gemm_kernels_fpi.hpp),
  // and how many operand blocks (of A's and B's) had no int16 form. Above tile::kFpiMaxWideShare
  // of them the GEMM takes the double kernel instead (fp_integer false).
  bool fp_integer = false;
  uint64_t fpi_wide_blocks = 0;
  // Wall-clock seconds per phase (bench/gemm_scaling; docs/performance.md "Thread scaling").
  double pack_seconds = 0;       // packing A and B for the tile kernels
  double tiles_seconds = 0;      // the tile kernels and the accumulation
  // CPU seconds on the critical path: the calling thread's (serial part) plus, per parallel
  // region, the busiest worker's (gemm/gemm_cpu_path.hpp). Idle cores: wall ~ this.
  // Measured for the tile kernels only (0 for the reference kernel).
  double critical_cpu_seconds = 0;
  double worker_cpu_seconds = 0;  // the workers' part of it
};

// M x N result, row-major. A and B must have the same padded K (a multiple of dot_width).
std::vector<float> gemm_quantized(const fmt::QTensor& A, const fmt::QTensor& B, const GemmSpec& s,
                                  GemmRunInfo* info = nullptr);
// The same into C (M x N floats, row-major), which need not be initialized: every element is
// written, by the worker threads (the vector above is zero-filled by the calling thread first:
// for large results use this with a gemm_buffer.hpp Buffer).
void gemm_quantized_into(const fmt::QTensor& A, const fmt::QTensor& B, const GemmSpec& s, float* C,
                         GemmRunInfo* info = nullptr);
// Transforms A and B with s.rht (when on), quantizes them (with s.quant; under stochastic rounding
// A takes stream s.quant.sr_stream and B the next one, docs/training.md) and runs gemm_quantized.
std::vector<float> gemm(const float* A, size_t M, size_t K, const float* B, size_t N, const GemmSpec& s);
// The same into C (M x N floats, need not be initialized), as gemm_quantized_into.
void gemm_into(const float* A, size_t M, size_t K, const float* B, size_t N, const GemmSpec& s, float* C);

// The FP32 epilogue of a format: NVFP4 multiplies by alpha = fl(sA * sB); others return acc.
float epilogue(float acc, const fmt::QTensor& A, const fmt::QTensor& B);

// Name of the kernel a spec runs with ("reference", "portable", "avx2", "avxvnni", "avx512", "amx"); throws
// hifsim::Error when the spec (or HIFSIM_KERNEL) names a variant this CPU cannot run.
std::string resolved_kernel(const GemmSpec& s);

}  // namespace hifsim::dp
