#include "train/attention_gemms.hpp"

#include <algorithm>
#include <vector>

#include "gemm/train_gemm.hpp"
#include "train/fp32_gemm.hpp"

namespace hifsim::train {

std::optional<AttentionGemm> attention_gemm_from_op(const std::string& op) {
  static const std::pair<const char*, AttentionGemm> names[] = {
      {"attn_qk", AttentionGemm::qk}, {"attn_pv", AttentionGemm::pv}, {"attn_dp", AttentionGemm::dp},
      {"attn_dv", AttentionGemm::dv}, {"attn_dq", AttentionGemm::dq}, {"attn_dk", AttentionGemm::dk}};
  for (const auto& [n, g] : names)
    if (op == n) return g;
  return std::nullopt;
}

std::optional<fmt::Format> attention_format(const Recipe& r, AttentionGemm g) {
  if (r.attention == AttentionScheme::fp32) return std::nullopt;
  // Full-Stack FP4: the GEMMs whose operands are Q, K or dS are NVFP4; the ones with P, V or dO
  // as an operand stay BF16.
  const bool fp4 = g == AttentionGemm::qk || g == AttentionGemm::dq || g == AttentionGemm::dk;
  return fp4 ? fmt::Format::nvfp4 : fmt::Format::bf16;
}

void attention_gemm(const Recipe& r, AttentionGemm g, unsigned threads, const float* A, size_t M, const float* B,
                    size_t N, size_t K, float* C) {
  const std::optional<fmt::Format> f = attention_format(r, g);
  if (!f) {
    fp32_gemm(A, M, K, B, N, C, threads);
    return;
  }
  dp::TrainGemmSpec ts;
  ts.gemm.format = *f;
  ts.gemm.threads = threads;
  ts.a.threads = ts.b.threads = threads;
  const std::vector<float> out = dp::train_gemm_nt(A, M, B, N, K, ts);
  std::copy(out.begin(), out.end(), C);
}

}  // namespace hifsim::train
