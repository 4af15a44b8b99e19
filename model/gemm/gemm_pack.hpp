// Operand packing for the GEMM tile kernels (gemm_tile.hpp): each quantized operand is turned
// once into the integer or double form its kernel family computes with, A in rows padded to
// the tile height MR, B in column panels of NR (docs/performance.md, "Kernel design").
#pragma once
#include <cstdint>
#include <vector>

#include "formats/tensor.hpp"
#include "gemm/gemm_buffer.hpp"
#include "gemm/gemm_cpu_path.hpp"
#include "gemm/gemm_tile.hpp"

namespace hifsim::dp {

enum class KernelFamily { hif4, nvfp4, mxfp4, fp };

// Buffers: written (padding included) by the packing's worker threads, not zero-filled first.
struct PackedInt8A {
  size_t rows_padded = 0;
  Buffer<int8_t> q;
  Buffer<int32_t> corr;
  Buffer<float> fscale;
  Buffer<double> dscale;
  Buffer<int32_t> gap;
  Buffer<int32_t> ifac;
  Buffer<float> fbase;
  tile::Int8A at(size_t row, size_t K, size_t nblk, size_t nsub) const;
};
struct PackedInt8B {
  size_t panels = 0;
  Buffer<uint8_t> q;
  Buffer<float> fscale;
  Buffer<double> dscale;
  Buffer<int32_t> gap;
  Buffer<int32_t> ifac;
  Buffer<float> fbase;
  tile::Int8B panel(size_t p, size_t nr, size_t K, size_t nblk, size_t nsub) const;
};
// `vk` supplies the row packing compiled for the CPU variant in use; `path` (may be null)
// receives the worker threads' CPU time.
PackedInt8A pack_int8_a(const fmt::QTensor& t, KernelFamily f, const tile::VariantKernels& vk, size_t mr,
                        unsigned threads, CpuPath* path = nullptr);
PackedInt8B pack_int8_b(const fmt::QTensor& t, KernelFamily f, const tile::VariantKernels& vk, size_t nr,
                        unsigned threads, CpuPath* path = nullptr);

struct FpPackParams {
  fmt::Code element = fmt::Code::bf16;  // the elements' code
  bool mx_scaled = false;    // one E8M0 scale per block (MXFP8)
  int width = 64;            // block width w
  int pbits = 8;             // product significand bits of the unit
  int window = 0;            // alignment window W (0 = exact)
  bool exponents = false;    // also pack element exponents and special flags (fp_window kernels)
};

struct PackedFpA {
  size_t rows_padded = 0;
  Buffer<double> x, scale, norm, wmax, spanf, e;
  Buffer<uint8_t> special;
  tile::FpA at(size_t row, size_t K, size_t nblk) const;
};
struct PackedFpB {
  size_t panels = 0;
  Buffer<double> x, scale, norm, wmax, spanf, e;
  Buffer<uint8_t> special;
  tile::FpB panel(size_t p, size_t nr, size_t K, size_t nblk) const;
};
PackedFpA pack_fp_a(const fmt::QTensor& t, const FpPackParams& p, size_t mr, unsigned threads,
                    CpuPath* path = nullptr);
PackedFpB pack_fp_b(const fmt::QTensor& t, const FpPackParams& p, size_t nr, unsigned threads,
                    CpuPath* path = nullptr);

// The fp family on integers (tile::FpiA / FpiB, gemm_kernels_fpi.hpp): int16 elements over one
// power of two per block, the block's exponent and norm.
struct PackedFpiA {
  size_t rows_padded = 0;
  size_t wide_blocks = 0;  // blocks without an int16 form (norm +Inf)
  Buffer<int16_t> q;
  Buffer<int32_t> e;
  Buffer<float> norm;
  tile::FpiA at(size_t row, size_t K, size_t nblk) const;
};
struct PackedFpiB {
  size_t panels = 0;
  size_t wide_blocks = 0;  // blocks without an int16 form (norm +Inf)
  Buffer<int16_t> q;
  Buffer<int32_t> e;
  Buffer<float> norm;
  tile::FpiB panel(size_t p, size_t nr, size_t K, size_t nblk) const;
};
// The share of an operand's blocks without an int16 form, estimated from up to `sample_rows` rows
// spread over it (tile::kFpiMaxWideShare decides between the kernels before anything is packed).
double fpi_wide_share(const fmt::QTensor& t, const FpPackParams& p, size_t sample_rows = 64);
PackedFpiA pack_fpi_a(const fmt::QTensor& t, const FpPackParams& p, size_t mr, unsigned threads,
                      CpuPath* path = nullptr);
PackedFpiB pack_fpi_b(const fmt::QTensor& t, const FpPackParams& p, size_t nr, unsigned threads,
                      CpuPath* path = nullptr);

}  // namespace hifsim::dp
