#include "train/llama_weights.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>

#include "util/error.hpp"
#include "util/manifest.hpp"

namespace hifsim::train {

LlamaWeights read_llama2c(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error(path, "", "cannot open the llama2.c checkpoint");
  const std::vector<char> raw((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (raw.size() < 28) throw Error(path, "header", "shorter than the 28-byte llama2.c header");
  int32_t h[7];
  std::memcpy(h, raw.data(), sizeof h);
  const char* names[7] = {"dim", "hidden_dim", "n_layers", "n_heads", "n_kv_heads", "vocab_size", "seq_len"};
  for (int i = 0; i < 7; ++i)
    if (h[i] == 0 || std::abs(static_cast<int64_t>(h[i])) > (1 << 24))
      throw Error(path, std::string("header ") + names[i], std::to_string(h[i]) + " is not plausible");
  if (h[5] < 0) throw Error(path, "vocab_size", "unshared classifier (negative vocab_size): not supported by hifsim train");
  LlamaWeights m;
  LlamaConfig& c = m.cfg;
  c.dim = h[0], c.hidden = h[1], c.n_layers = h[2], c.n_heads = h[3], c.n_kv_heads = h[4], c.vocab = h[5], c.max_seq = h[6];
  for (int i = 0; i < 7; ++i)
    if (h[i] < 0) throw Error(path, std::string("header ") + names[i], "negative");
  if (c.dim % c.n_heads || c.n_heads % c.n_kv_heads || c.head_dim() % 2)
    throw Error(path, "header", "dim, n_heads and n_kv_heads do not give an even head size shared by the kv heads");
  const size_t D = c.dim, H = c.hidden, L = c.n_layers, KV = c.kv_dim(), V = c.vocab;
  const size_t rope = static_cast<size_t>(c.max_seq) * c.head_dim() / 2;
  const size_t floats = V * D + L * (D + D * D + 2 * KV * D + D * D + D + 3 * H * D) + D + 2 * rope;
  if (raw.size() - 28 != floats * 4)
    throw Error(path, "size", std::to_string(raw.size() - 28) + " bytes of tensors, the header implies " +
                                  std::to_string(floats * 4));
  const float* src = reinterpret_cast<const float*>(raw.data() + 28);
  size_t off = 0;
  auto take = [&](const std::string& name, size_t rows, size_t cols) {
    Param p{name, rows, cols, std::vector<float>(src + off, src + off + rows * cols)};
    off += rows * cols;
    for (float v : p.w)
      if (!std::isfinite(v)) throw Error(path, name, "contains NaN or Inf");
    m.params.push_back(std::move(p));
    return m.params.size() - 1;
  };
  // llama2.c stores each kind for all layers together: collect, then order per layer.
  m.tok = take("tok_embeddings", V, D);
  m.layers.resize(L);
  auto per_layer = [&](const char* kind, size_t rows, size_t cols, size_t LlamaWeights::Layer::*field) {
    for (size_t l = 0; l < L; ++l) m.layers[l].*field = take("layers." + std::to_string(l) + "." + kind, rows, cols);
  };
  per_layer("attn_norm", 1, D, &LlamaWeights::Layer::attn_norm);
  per_layer("wq", D, D, &LlamaWeights::Layer::wq);
  per_layer("wk", KV, D, &LlamaWeights::Layer::wk);
  per_layer("wv", KV, D, &LlamaWeights::Layer::wv);
  per_layer("wo", D, D, &LlamaWeights::Layer::wo);
  per_layer("ffn_norm", 1, D, &LlamaWeights::Layer::ffn_norm);
  per_layer("w_gate", H, D, &LlamaWeights::Layer::w_gate);  // llama2.c w1
  per_layer("w_down", D, H, &LlamaWeights::Layer::w_down);  // w2
  per_layer("w_up", H, D, &LlamaWeights::Layer::w_up);      // w3
  m.final_norm = take("final_norm", 1, D);
  m.file_hash = file_hash(path);
  return m;
}

}  // namespace hifsim::train
