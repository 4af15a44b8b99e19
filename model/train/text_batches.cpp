#include "train/text_batches.hpp"

#include "util/error.hpp"
#include "util/rng.hpp"

namespace hifsim::train {

std::vector<int> byte_fallback_tokens(const std::string& text) {
  std::vector<int> ids;
  ids.reserve(text.size());
  for (unsigned char ch : text) ids.push_back(3 + static_cast<int>(ch));
  return ids;
}

Batch make_batch(const std::vector<int>& tokens, int batch, int seq_len, uint64_t seed, uint64_t step) {
  if (tokens.size() < static_cast<size_t>(seq_len) + 1)
    throw Error("training text", "length", std::to_string(tokens.size()) + " tokens, a window needs " +
                                               std::to_string(seq_len + 1));
  Batch b;
  b.batch = batch, b.seq_len = seq_len;
  const uint64_t starts = tokens.size() - static_cast<size_t>(seq_len);  // window start in [0, starts)
  for (int s = 0; s < batch; ++s) {
    const uint64_t r = counter_random(seed, 0x7E47u + step, static_cast<uint64_t>(s));
    const size_t at = static_cast<size_t>((static_cast<unsigned __int128>(r) * starts) >> 64);
    for (int t = 0; t < seq_len; ++t) {
      b.inputs.push_back(tokens[at + t]);
      b.targets.push_back(tokens[at + t + 1]);
    }
  }
  return b;
}

}  // namespace hifsim::train
