#include "train/adamw.hpp"

#include <cmath>

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
      const float mh = m[j] / c1, vh = v[j] / c2;
      p.w[j] -= lr * (mh / (std::sqrt(vh) + cfg_.eps) + decay * p.w[j]);
    }
  }
}

}  // namespace hifsim::train
