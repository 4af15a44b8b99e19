#include "train/linear4_state.hpp"

#include <algorithm>
#include <cmath>

namespace hifsim::train {
namespace {
constexpr size_t kVectorBlock = 128;  // Li et al.'s block size for block-wise normalisation

// The nearest of (i + 1) / 16, i = 0..15, to x / n, times n (0 when n is 0: the whole row,
// column or block is 0). 16 x / n - 1 rounded half up, then clamped to the 16 codes.
float store_one(float x, float n) {
  if (!(n > 0.0f)) return 0.0f;
  const float code = std::clamp(std::floor(16.0f * (x / n) - 1.0f + 0.5f), 0.0f, 15.0f);
  return (code + 1.0f) / 16.0f * n;
}
}  // namespace

void linear4_rank1_store(std::vector<float>& v, size_t rows, size_t cols) {
  if (rows <= 1) {
    for (size_t b = 0; b < v.size(); b += kVectorBlock) {
      const size_t e = std::min(v.size(), b + kVectorBlock);
      const float n = *std::max_element(v.begin() + static_cast<std::ptrdiff_t>(b), v.begin() + static_cast<std::ptrdiff_t>(e));
      for (size_t i = b; i < e; ++i) v[i] = store_one(v[i], n);
    }
    return;
  }
  std::vector<float> r(rows, 0.0f), c(cols, 0.0f);
  for (size_t i = 0; i < rows; ++i)
    for (size_t j = 0; j < cols; ++j) {
      r[i] = std::max(r[i], v[i * cols + j]);
      c[j] = std::max(c[j], v[i * cols + j]);
    }
  for (size_t i = 0; i < rows; ++i)
    for (size_t j = 0; j < cols; ++j) v[i * cols + j] = store_one(v[i * cols + j], std::min(r[i], c[j]));
}

}  // namespace hifsim::train
