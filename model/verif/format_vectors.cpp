#include "verif/format_vectors.hpp"

#include <cmath>
#include <sstream>

#include "formats/bits.hpp"
#include "formats/mx.hpp"
#include "formats/packed.hpp"
#include "util/rng.hpp"

namespace hifsim::verif {

std::vector<FormatConvention> format_conventions() {
  std::vector<FormatConvention> v;
  fmt::QuantOptions q;
  v.push_back({fmt::Format::hif4, "official", "", q});
  q.hif4_convention = fmt::Hif4Convention::ascend_a6;
  v.push_back({fmt::Format::hif4, "ascend-a6", "--hif4-convention ascend-a6", q});
  for (fmt::Format f : {fmt::Format::mxfp4, fmt::Format::mxfp8_e4m3, fmt::Format::mxfp8_e5m2})
    for (const fmt::MxConvention& c : fmt::mx_conventions()) {
      fmt::QuantOptions m;
      m.mx_convention = c.name;
      m.mx_scale_rule = c.rule;
      m.rounding = c.rounding;
      v.push_back({f, c.name, std::string("--mx-convention ") + c.name, m});
    }
  fmt::QuantOptions te, ao;
  ao.nvfp4_recipe = fmt::NvfpRecipe::torchao;
  v.push_back({fmt::Format::nvfp4, "te", "", te});
  v.push_back({fmt::Format::nvfp4, "torchao", "--nvfp4-recipe torchao", ao});
  return v;
}

namespace {

// Bytes as one hex number, byte 0 least significant (most significant digit first).
std::string hex_bytes(const uint8_t* b, size_t n) {
  std::string s;
  for (size_t i = n; i-- > 0;) {
    s += "0123456789abcdef"[b[i] >> 4];
    s += "0123456789abcdef"[b[i] & 15];
  }
  return s + "\n";
}

// One block of n values: kind 0 Gaussian, 1 heavy-tailed, 2 ties (k/2 times a power of two), 3 tiny
// or huge, times a random power of two. HiF4 inputs are made BF16-exact (its quantizer rounds
// FP32 to BF16 first; exact inputs keep that step out of the vectors).
std::vector<float> random_block(SplitMix64& g, size_t n, bool bf16_exact) {
  const int kind = static_cast<int>(g.below(4));
  const int e = static_cast<int>(g.below(41)) - 20;
  std::vector<float> x = normal_values(n, SplitMix64(g.next()));
  for (size_t i = 0; i < n; ++i) {
    double v = x[i];
    if (kind == 1) v = v / std::max(g.uniform(), 1e-6) * 0.05;
    if (kind == 2) v = (static_cast<double>(g.below(33)) - 16.0) * 0.5 * std::ldexp(1.0, static_cast<int>(g.below(5)) - 2);
    if (kind == 3) v *= std::ldexp(1.0, g.below(2) ? -120 + static_cast<int>(g.below(10)) : 90 + static_cast<int>(g.below(16)));
    x[i] = static_cast<float>(std::ldexp(v, e));
    if (bf16_exact) x[i] = fmt::bf16_round(x[i]);
    if (g.below(16) == 0) x[i] = 0.0f;
  }
  return x;
}

std::vector<std::vector<float>> corner_blocks(size_t n) {
  std::vector<std::vector<float>> c;
  c.push_back(std::vector<float>(n, 0.0f));
  c.push_back(std::vector<float>(n, -0.0f));
  std::vector<float> ramp(n), neg(n), one(n, 0.0f);
  for (size_t i = 0; i < n; ++i) {
    ramp[i] = static_cast<float>(i) / 8.0f;
    neg[i] = -static_cast<float>(i + 1) * 0.375f;
  }
  one[n - 1] = 1.0f;
  c.push_back(ramp);
  c.push_back(neg);
  c.push_back(one);
  return c;
}

}  // namespace

FormatVectors format_vectors(const FormatConvention& c, uint64_t count, uint64_t seed) {
  const size_t n = fmt::format_info(c.format).block;
  const size_t rec = fmt::packed_record_bytes(c.format);
  const bool tensor_scale = fmt::format_traits(c.format).tensor_scale;
  FormatVectors v;
  v.stimulus_bits = static_cast<int>(32 * n);
  v.expected_bits = static_cast<int>(8 * rec + (tensor_scale ? 32 : 0));
  SplitMix64 g(mix64(seed ^ 0xF0C0A7ull));
  std::vector<std::vector<float>> blocks = corner_blocks(n);
  if (blocks.size() > count) blocks.resize(count);
  while (blocks.size() < count) blocks.push_back(random_block(g, n, c.format == fmt::Format::hif4));
  std::ostringstream st, ex;
  for (const std::vector<float>& b : blocks) {
    std::vector<uint8_t> in(4 * n);
    for (size_t i = 0; i < n; ++i) {
      const uint32_t w = fmt::f32_bits(b[i]);
      for (int k = 0; k < 4; ++k) in[4 * i + k] = static_cast<uint8_t>(w >> (8 * k));
    }
    st << hex_bytes(in.data(), in.size());
    const fmt::QTensor q = fmt::quantize(c.format, b.data(), 1, n, c.quant);
    const std::string packed = fmt::pack_tensor(q);
    std::vector<uint8_t> out(packed.end() - static_cast<std::ptrdiff_t>(rec), packed.end());
    if (tensor_scale) {
      const uint32_t w = fmt::f32_bits(q.tensor_scale);
      for (int k = 0; k < 4; ++k) out.push_back(static_cast<uint8_t>(w >> (8 * k)));
    }
    ex << hex_bytes(out.data(), out.size());
  }
  v.vectors = blocks.size();
  v.stimulus = st.str();
  v.expected = ex.str();
  const std::string fname = fmt::format_info(c.format).name;
  std::ostringstream r;
  r << "# Quantizer conformance vectors: " << fname << ", convention " << c.name << "\n\n"
    << "Made by `hifsim vectors --all --count " << count << " --seed " << seed << "` with hifsim's bit-exact model: "
    << "`hifsim quantize --format " << fname << (c.option.empty() ? "" : " " + c.option)
    << "` on one block per line (docs/formats.md, docs/cosim.md \"Conformance vectors per convention\").\n\n"
    << "- `stimulus.hex`: " << v.vectors << " lines, one block of " << n << " FP32 values (IEEE binary32 bits), "
    << "element i at bits [32i+31:32i], " << v.stimulus_bits << " bits as " << v.stimulus_bits / 4
    << " hex digits, most significant first (`$readmemh`)." << (c.format == fmt::Format::hif4 ? " The values are BF16-exact (HiF4 quantizes BF16)." : "")
    << "\n- `expected.hex`: the block's packed record (docs/formats.md section 8), byte j at bits [8j+7:8j]"
    << (tensor_scale ? ", then the FP32 per-tensor decode scale at the top 32 bits (the block is its own tensor)" : "")
    << "; " << v.expected_bits << " bits as " << v.expected_bits / 4
    << " hex digits. Every bit is exact: compare with `!==`, no tolerance.\n"
    << "- The first " << std::min<uint64_t>(count, corner_blocks(n).size())
    << " lines are directed corners (all +0, all -0, a ramp, a negative ramp, one 1.0); the rest are seeded "
       "random blocks: Gaussian, heavy-tailed, exact ties, tiny and huge, each times a random power of two.\n";
  v.readme = r.str();
  return v;
}

}  // namespace hifsim::verif
