// A llama2.c checkpoint (the version-0 "legacy" export, e.g. stories260K.bin) as trainable FP32
// parameters. One job: file -> LlamaWeights. The layout is the one python/hifsim/capture/
// llama2c_reader.py documents (seven int32 header fields, then float32 tensors, matrices stored
// out-features x in-features); RoPE base 10000 and RMSNorm epsilon 1e-5 as in llama2.c.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace hifsim::train {

struct LlamaConfig {
  int dim = 0, hidden = 0, n_layers = 0, n_heads = 0, n_kv_heads = 0, vocab = 0, max_seq = 0;
  float rope_theta = 10000.0f, norm_eps = 1e-5f;
  int head_dim() const { return dim / n_heads; }
  int kv_dim() const { return n_kv_heads * head_dim(); }
};

// One named parameter tensor: rows x cols floats (a vector has rows = 1).
struct Param {
  std::string name;  // "tok_embeddings", "layers.3.wq", "layers.3.attn_norm", "final_norm"
  size_t rows = 0, cols = 0;
  std::vector<float> w;
  size_t size() const { return rows * cols; }
};

// The parameters in a fixed order (the optimizer and the gradient norm walk them in it). The
// classifier is the embedding (stories260K shares them); unshared checkpoints are refused.
struct LlamaWeights {
  LlamaConfig cfg;
  std::vector<Param> params;
  // Indices into params.
  size_t tok = 0, final_norm = 0;
  struct Layer {
    size_t attn_norm, wq, wk, wv, wo, ffn_norm, w_gate, w_up, w_down;
  };
  std::vector<Layer> layers;
  std::string file_hash;  // fnv1a64 of the checkpoint file (util/manifest.hpp)
};

// Throws hifsim::Error(path, field, reason) for a file that is not such a checkpoint.
LlamaWeights read_llama2c(const std::string& path);

}  // namespace hifsim::train
