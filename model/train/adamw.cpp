#include "train/adamw.hpp"

#include <cmath>

#include "formats/tensor.hpp"
#include "train/linear4_state.hpp"

namespace hifsim::train {

AdamW::AdamW(const LlamaWeights& w, AdamWConfig cfg) : cfg_(cfg) {
  for (const Param& p : w.params) {
    m_.emplace_back(p.size(), 0.0f);
    v_.emplace_back(p.size(), 0.0f);
  }
}

void AdamW::update(LlamaWeights& w, const Gradients& grads, float lr, int step) {
  const float c1 = 1.0f - std::pow(cfg_.beta1, static_cast<float>(step));
  const float c2 = 1.0f - std::pow(cfg_.beta2, static_cast<float>(step));
  for (size_t i = 0; i < w.params.size(); ++i) {
    Param& p = w.params[i];
    const float decay = p.rows > 1 ? cfg_.weight_decay : 0.0f;
    std::vector<float>&m = m_[i], &v = v_[i];
    for (size_t j = 0; j < p.size(); ++j) {
      const float g = grads[i][j];
      m[j] = cfg_.beta1 * m[j] + (1.0f - cfg_.beta1) * g;
      v[j] = cfg_.beta2 * v[j] + (1.0f - cfg_.beta2) * g * g;
    }
    if (cfg_.v_format) store_second_moment(v, p.rows, p.cols);
    if (cfg_.v_linear4_rank1) linear4_rank1_store(v, p.rows, p.cols);
    for (size_t j = 0; j < p.size(); ++j) {
      const float mh = m[j] / c1, vh = v[j] / c2;
      p.w[j] -= lr * (mh / (std::sqrt(vh) + cfg_.eps) + decay * p.w[j]);
    }
  }
}

void AdamW::store_second_moment(std::vector<float>& v, size_t rows, size_t cols) const {
  fmt::QuantOptions o;
  o.threads = cfg_.threads;
  if (cfg_.v_sqrt)
    for (float& x : v) x = std::sqrt(x);
  const std::vector<float> x = v;  // the fast paths do not promise in-place operation
  fmt::quantize_dequantize(*cfg_.v_format, x.data(), v.data(), rows, cols, o);
  if (cfg_.v_sqrt)
    for (float& x : v) x = x * x;
}

}  // namespace hifsim::train
