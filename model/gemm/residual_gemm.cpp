#include "gemm/residual_gemm.hpp"

#include <algorithm>
#include <cstring>

#include "formats/bits.hpp"
#include "formats/nvfp4.hpp"
#include "util/error.hpp"

namespace hifsim::dp {

using fmt::Format;

namespace {
// NVFP4 with a given per-tensor scale (the fused residual shares the activation's scale).
fmt::QTensor quantize_nvfp4_with_scale(const float* x, size_t rows, size_t cols, const fmt::Nvfp4TensorScale& ts,
                                       fmt::NvfpRecipe recipe) {
  fmt::QTensor q;
  q.format = Format::nvfp4;
  q.rows = rows;
  q.cols = cols;
  q.padded_cols = (cols + 15) / 16 * 16;
  q.tensor_scale = ts.decode;
  q.tensor_encode = ts.encode;
  const size_t nb = q.padded_cols / 16;
  q.codes.assign(rows * q.padded_cols, 0);
  q.scales.assign(rows * nb, 0);
  for (size_t r = 0; r < rows; ++r) {
    for (size_t b = 0; b < nb; ++b) {
      const size_t c0 = b * 16, n = std::min<size_t>(16, cols - std::min(cols, c0));
      uint8_t codes[16];
      fmt::nvfp4_quantize_block(x + r * cols + c0, n, ts, recipe, codes, q.scales[r * nb + b]);
      for (int k = 0; k < 16; ++k) q.codes[r * q.padded_cols + c0 + k] = codes[k];
    }
  }
  return q;
}
}  // namespace

ResidualOperands make_residual_operands(const float* x, size_t rows, size_t cols, const GemmSpec& gs,
                                        const ResidualSpec& rs) {
  const size_t w = static_cast<size_t>(dot_width(gs));
  const size_t kp = (cols + w - 1) / w * w;
  std::vector<float> xp(rows * kp, 0.0f);
  for (size_t r = 0; r < rows; ++r) std::memcpy(xp.data() + r * kp, x + r * cols, cols * sizeof(float));
  ResidualOperands ops;
  ops.main = fmt::quantize(gs.format, xp.data(), rows, kp, gs.quant);
  const std::vector<float> R = residual_values(xp.data(), ops.main);
  if (gs.format == Format::nvfp4 && rs.mode == ResidualMode::fused) {
    fmt::check_representable(gs.format, R.data(), rows, kp, "residual");
    ops.residual = quantize_nvfp4_with_scale(R.data(), rows, kp, {ops.main.tensor_encode, ops.main.tensor_scale},
                                             gs.quant.nvfp4_recipe);
  } else {
    ops.residual = fmt::quantize(gs.format, R.data(), rows, kp, gs.quant);
  }
  if (rs.kind == ResidualKind::sparse24) sparsify_24(ops.residual);
  if (rs.kind == ResidualKind::top50) keep_top50_channels(ops.residual);
  return ops;
}

void residual_quantize_dequantize(const float* x, size_t rows, size_t cols, const GemmSpec& gs, const ResidualSpec& rs,
                                  float* y) {
  if (rs.kind == ResidualKind::none) {
    fmt::quantize_dequantize(gs.format, x, y, rows, cols, gs.quant);
    return;
  }
  const ResidualOperands ops = make_residual_operands(x, rows, cols, gs, rs);
  const std::vector<float> a = fmt::dequantize(ops.main), b = fmt::dequantize(ops.residual);
  const size_t kp = ops.main.cols;
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < cols; ++c) y[r * cols + c] = a[r * kp + c] + b[r * kp + c];
}

std::vector<float> gemm_with_residual(const float* X, size_t M, size_t K, const float* W, size_t N,
                                      const GemmSpec& gs, const ResidualSpec& rs) {
  validate(gs);
  if (rs.kind == ResidualKind::none) return gemm(X, M, K, W, N, gs);
  const fmt::QTensor wq = quantize_operand(W, N, K, gs);
  const ResidualOperands ops = make_residual_operands(X, M, K, gs, rs);
  if (rs.mode == ResidualMode::fused) return gemm_quantized(concat_k(ops.main, ops.residual), concat_k(wq, wq), gs);
  std::vector<float> y = gemm_quantized(ops.main, wq, gs);
  const std::vector<float> y2 = gemm_quantized(ops.residual, wq, gs);
  for (size_t i = 0; i < y.size(); ++i) {
    y[i] = y[i] + y2[i];  // one FP32 RNE add
    if (y[i] != y[i]) y[i] = fmt::f32_nan();
  }
  return y;
}

}  // namespace hifsim::dp
