#include "datapath/gemm.hpp"

#include <algorithm>
#include <cstring>

#include "datapath/gemm_kernels.hpp"
#include "datapath/hif4_dot.hpp"
#include "datapath/mx_dot.hpp"
#include "datapath/nvfp4_dot.hpp"
#include "formats/bits.hpp"
#include "util/error.hpp"
#include "util/parallel.hpp"

namespace hifsim::dp {

using fmt::Format;

int dot_width(const GemmSpec& s) {
  switch (s.format) {
    case Format::mxfp8_e4m3: case Format::mxfp8_e5m2: case Format::fp8_e4m3: case Format::fp8_e5m2: return 32;
    case Format::hif8: return s.hif8_lanes;
    default: return 64;
  }
}

AlignSpec default_align(Format f) {
  AlignSpec a;
  if (f == Format::bf16) {
    a.width = 64;
    a.policy = AlignPolicy::sticky;
  }
  return a;  // hif8: exact
}

AlignSpec effective_align(const GemmSpec& s) { return s.align_set ? s.align : default_align(s.format); }

void validate(const GemmSpec& s) {
  const fmt::FormatInfo& info = fmt::format_info(s.format);
  if (!info.tensor) throw Error("--format", info.name, "is not a tensor format; choose one of " + fmt::tensor_format_names());
  if (s.format == Format::hif8 && s.hif8_lanes != 16 && s.hif8_lanes != 32 && s.hif8_lanes != 64)
    throw Error("--hif8-lanes", std::to_string(s.hif8_lanes), "must be 16, 32 or 64");
  const AlignSpec a = effective_align(s);
  if (a.width < 0 || a.width > 120) throw Error("--align-width", std::to_string(a.width), "must be 0 (exact) or in [1, 120]");
  fmt::validate_options(s.format, s.quant);
}

fmt::QTensor quantize_operand(const float* x, size_t rows, size_t cols, const GemmSpec& s) {
  const size_t w = static_cast<size_t>(dot_width(s));
  const size_t kp = (cols + w - 1) / w * w;
  if (kp == cols) return fmt::quantize(s.format, x, rows, cols, s.quant);
  std::vector<float> padded(rows * kp, 0.0f);
  for (size_t r = 0; r < rows; ++r) std::memcpy(padded.data() + r * kp, x + r * cols, cols * sizeof(float));
  return fmt::quantize(s.format, padded.data(), rows, kp, s.quant);
}

DotResult unit_dot(const fmt::QTensor& A, size_t m, const fmt::QTensor& B, size_t n, size_t blk, const GemmSpec& s) {
  const size_t w = static_cast<size_t>(dot_width(s));
  const uint16_t* ca = A.codes.data() + m * A.padded_cols + blk * w;
  const uint16_t* cb = B.codes.data() + n * B.padded_cols + blk * w;
  uint8_t a8[64], b8[64];
  for (size_t k = 0; k < w; ++k) {
    a8[k] = static_cast<uint8_t>(ca[k]);
    b8[k] = static_cast<uint8_t>(cb[k]);
  }
  switch (s.format) {
    case Format::hif4:
      return Hif4Dot64::compute(A.hif4_unit(m, blk), B.hif4_unit(n, blk));
    case Format::nvfp4: {
      const size_t nb = A.blocks_per_row();
      return Nvfp4Dot64::compute(a8, A.scales.data() + m * nb + blk * 4, b8, B.scales.data() + n * nb + blk * 4);
    }
    case Format::mxfp4: {
      const size_t nb = A.blocks_per_row();
      return Mxfp4Dot64::compute(a8, A.scales.data() + m * nb + blk * 2, b8, B.scales.data() + n * nb + blk * 2);
    }
    case Format::mxfp8_e4m3: case Format::mxfp8_e5m2: {
      const size_t nb = A.blocks_per_row();
      const auto& e = s.format == Format::mxfp8_e4m3 ? fmt::kE4M3 : fmt::kE5M2;
      return Mxfp8Dot32::compute(e, a8, A.scales[m * nb + blk], b8, B.scales[n * nb + blk]);
    }
    case Format::fp8_e4m3: case Format::fp8_e5m2: {
      // Plain FP8: the MXFP8 unit with unit scales (E8M0 127 = 2^0).
      const auto& e = s.format == Format::fp8_e4m3 ? fmt::kE4M3 : fmt::kE5M2;
      return Mxfp8Dot32::compute(e, a8, 127, b8, 127);
    }
    case Format::hif8:
      return Hif8DotN::compute(a8, b8, static_cast<int>(w), effective_align(s));
    case Format::bf16:
      return Bf16Dot64::compute(ca, cb, effective_align(s));
    default:
      throw Error("gemm", fmt::format_info(s.format).name, "has no dot-product unit");
  }
}

float epilogue(float acc, const fmt::QTensor& A, const fmt::QTensor& B) {
  float r = acc;
  if (A.format == Format::nvfp4) {
    const float alpha = A.tensor_scale * B.tensor_scale;
    r = acc * alpha;
  }
  if (r != r) r = fmt::f32_nan();
  return r;
}

namespace {
// The definition: every output from the unit classes and the Accumulator, block by block.
void gemm_units(const fmt::QTensor& A, const fmt::QTensor& B, const GemmSpec& s, float* C) {
  const size_t M = A.rows, N = B.rows;
  const size_t nblk = A.padded_cols / static_cast<size_t>(dot_width(s));
  parallel_for(M * N, s.threads, [&](size_t b, size_t e) {
    Accumulator acc(s.acc);
    for (size_t i = b; i < e; ++i) {
      const size_t m = i / N, n = i % N;
      acc.reset(0.0f);
      for (size_t blk = 0; blk < nblk; ++blk) acc.add(unit_dot(A, m, B, n, blk, s));
      C[i] = epilogue(acc.result(), A, B);
    }
  }, 64);
}
}  // namespace

bool gemm_avx2_available() {
#if HIFSIM_HAVE_AVX2_KERNELS
  return __builtin_cpu_supports("avx2");
#else
  return false;
#endif
}

std::string resolved_kernel(const GemmSpec& s) {
  if (s.kernel == GemmKernel::reference) return "reference";
  const bool packed = packed_kernel_supports(s);
  if (!packed) return "reference";
  if (s.kernel == GemmKernel::automatic && gemm_avx2_available() && avx2_kernel_supports(s)) return "avx2";
  return "portable";
}

std::vector<float> gemm_quantized(const fmt::QTensor& A, const fmt::QTensor& B, const GemmSpec& s) {
  validate(s);
  if (A.format != s.format || B.format != s.format)
    throw Error("gemm", "operands", "are not quantized in " + std::string(fmt::format_info(s.format).name));
  if (A.padded_cols != B.padded_cols)
    throw Error("gemm", "K", "A has " + std::to_string(A.cols) + " columns, B has " + std::to_string(B.cols));
  if (A.padded_cols % static_cast<size_t>(dot_width(s)) != 0)
    throw Error("gemm", "K", "operands are not padded to the dot-product width (use quantize_operand)");
  std::vector<float> C(A.rows * B.rows, 0.0f);
  if (A.rows == 0 || B.rows == 0) return C;
  const std::string k = resolved_kernel(s);
  if (k == "reference") gemm_units(A, B, s, C.data());
  else gemm_packed(A, B, s, k == "avx2", C.data());
  return C;
}

std::vector<float> gemm(const float* A, size_t M, size_t K, const float* B, size_t N, const GemmSpec& s) {
  validate(s);
  const fmt::QTensor qa = quantize_operand(A, M, K, s);
  const fmt::QTensor qb = quantize_operand(B, N, K, s);
  return gemm_quantized(qa, qb, s);
}

}  // namespace hifsim::dp
