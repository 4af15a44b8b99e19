#include "gemm/arc.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "datapath/residual.hpp"
#include "util/error.hpp"

namespace hifsim::dp {

size_t arc_group(fmt::Format f) {
  const size_t b = fmt::format_info(f).block;
  return b > 1 ? b : 32;
}

std::vector<float> arc_channel_max(const float* x, size_t rows, size_t cols) {
  std::vector<float> m(cols, 0.0f);
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < cols; ++c) m[c] = std::max(m[c], std::fabs(x[r * cols + c]));
  return m;
}

size_t arc_auto_channels(const float* x, size_t rows, size_t cols, size_t group) {
  if (rows == 0 || cols == 0) return 0;
  size_t count = 0;
  for (size_t r = 0; r < rows; ++r) {
    float mx = 0.0f;
    for (size_t c = 0; c < cols; ++c) mx = std::max(mx, std::fabs(x[r * cols + c]));
    const float thr = 0.125f * mx;
    for (size_t c = 0; c < cols; ++c) count += std::fabs(x[r * cols + c]) > thr;
  }
  const double ratio = static_cast<double>(count) / static_cast<double>(rows * cols);
  const size_t kp = (cols + group - 1) / group * group;
  size_t S = static_cast<size_t>(std::ceil(static_cast<double>(cols) * ratio / group)) * group;
  return std::min(S, kp);
}

ArcPlan arc_plan(const float* calib, size_t rows, size_t cols, long S, fmt::Format f) {
  ArcPlan p;
  p.group = arc_group(f);
  p.K = (cols + p.group - 1) / p.group * p.group;
  std::vector<float> stat = arc_channel_max(calib, rows, cols);
  stat.resize(p.K, 0.0f);  // padding channels are zero: they sort first
  p.order.resize(p.K);
  std::iota(p.order.begin(), p.order.end(), 0u);
  std::stable_sort(p.order.begin(), p.order.end(), [&](uint32_t a, uint32_t b) { return stat[a] < stat[b]; });
  if (S < 0) {
    p.S = arc_auto_channels(calib, rows, cols, p.group);
  } else {
    if (static_cast<size_t>(S) % p.group != 0)
      throw Error("--arc", std::to_string(S),
                  "must be a multiple of the format's group (" + std::to_string(p.group) + " channels)");
    if (static_cast<size_t>(S) > p.K)
      throw Error("--arc", std::to_string(S), "exceeds K (" + std::to_string(p.K) + " after padding)");
    p.S = static_cast<size_t>(S);
  }
  return p;
}

namespace {
std::vector<float> reorder(const float* x, size_t rows, size_t cols, const ArcPlan& p) {
  std::vector<float> out(rows * p.K, 0.0f);
  for (size_t r = 0; r < rows; ++r)
    for (size_t j = 0; j < p.K; ++j) {
      const uint32_t c = p.order[j];
      out[r * p.K + j] = c < cols ? x[r * cols + c] : 0.0f;
    }
  return out;
}

// [plain | g0, dup0, g1, dup1, ...] where dup comes from `second`.
std::vector<float> interleave(const std::vector<float>& first, const std::vector<float>& second, size_t rows,
                              const ArcPlan& p) {
  const size_t Kp = p.K + p.S, plain = p.K - p.S, G = p.group;
  std::vector<float> out(rows * Kp, 0.0f);
  for (size_t r = 0; r < rows; ++r) {
    const float* a = first.data() + r * p.K;
    const float* b = second.data() + r * p.K;
    float* o = out.data() + r * Kp;
    std::copy_n(a, plain, o);
    for (size_t g = 0; g < p.S / G; ++g) {
      std::copy_n(a + plain + g * G, G, o + plain + 2 * g * G);
      std::copy_n(b + plain + g * G, G, o + plain + 2 * g * G + G);
    }
  }
  return out;
}
}  // namespace

std::vector<float> arc_augment_activation(const float* x, size_t rows, size_t cols, const ArcPlan& p,
                                          const GemmSpec& gs) {
  const std::vector<float> xr = reorder(x, rows, cols, p);
  // Residual of the whole reordered tensor with the format quantizer (same tensor scale for NVFP4).
  const fmt::QTensor q = fmt::quantize(gs.format, xr.data(), rows, p.K, gs.quant);
  const std::vector<float> r = residual_values(xr.data(), q);
  return interleave(xr, r, rows, p);
}

std::vector<float> arc_augment_weight(const float* w, size_t rows, size_t cols, const ArcPlan& p) {
  const std::vector<float> wr = reorder(w, rows, cols, p);
  return interleave(wr, wr, rows, p);
}

std::vector<float> gemm_arc(const float* X, size_t M, size_t K, const float* W, size_t N, const GemmSpec& gs,
                            const ArcPlan& p) {
  validate(gs);
  const std::vector<float> xa = arc_augment_activation(X, M, K, p, gs);
  const std::vector<float> wa = arc_augment_weight(W, N, K, p);
  return gemm(xa.data(), M, p.K + p.S, wa.data(), N, gs);
}

}  // namespace hifsim::dp
