// Training data from the shipped text: token ids and the seeded batch of every step.
//
// stories260K ships without its tokenizer (llama2.c's tok512, a SentencePiece BPE model with
// byte fallback), so the text is encoded through the vocabulary's byte-fallback pieces alone:
// id = 3 + byte (ids 0..2 are <unk>, <s>, </s>; 3..258 are <0x00>..<0xFF>). Every id is a real
// token of the model's vocabulary; a longer-piece encoding would need the tokenizer file.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace hifsim::train {

std::vector<int> byte_fallback_tokens(const std::string& text);

// Batch of `batch` windows of seq_len + 1 consecutive tokens: inputs = window[0..seq_len),
// targets = window[1..seq_len]. Window b of step s starts at an offset drawn from
// counter_random(seed, step, b): the same batches for every recipe and thread count.
struct Batch {
  int batch = 0, seq_len = 0;
  std::vector<int> inputs, targets;  // batch * seq_len, sequence-major
};
Batch make_batch(const std::vector<int>& tokens, int batch, int seq_len, uint64_t seed, uint64_t step);

}  // namespace hifsim::train
