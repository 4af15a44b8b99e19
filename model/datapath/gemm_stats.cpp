#include "datapath/gemm_stats.hpp"

#include <cmath>

#include "util/json.hpp"
#include "util/parallel.hpp"

namespace hifsim::dp {

std::vector<double> gemm_fp64(const float* A, size_t M, size_t K, const float* B, size_t N, unsigned threads) {
  std::vector<double> C(M * N, 0.0);
  parallel_for(M, threads, [&](size_t m0, size_t m1) {
    std::vector<double> a(K);
    for (size_t m = m0; m < m1; ++m) {
      for (size_t k = 0; k < K; ++k) a[k] = A[m * K + k];
      for (size_t n = 0; n < N; ++n) {
        const float* b = B + n * K;
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        size_t k = 0;
        for (; k + 4 <= K; k += 4) {
          s0 += a[k] * b[k];
          s1 += a[k + 1] * b[k + 1];
          s2 += a[k + 2] * b[k + 2];
          s3 += a[k + 3] * b[k + 3];
        }
        for (; k < K; ++k) s0 += a[k] * b[k];
        C[m * N + n] = (s0 + s1) + (s2 + s3);
      }
    }
  });
  return C;
}

GemmError gemm_error(const std::vector<float>& c, const std::vector<double>& ref) {
  GemmError e;
  double sig = 0, noise = 0, dot = 0, cc = 0, max_ref = 0, sum_abs_err = 0, sum_abs_ref = 0;
  size_t n = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    if (!std::isfinite(c[i])) {
      ++e.nonfinite;
      continue;
    }
    const double r = ref[i], d = c[i] - r;
    sig += r * r;
    noise += d * d;
    dot += c[i] * r;
    cc += static_cast<double>(c[i]) * c[i];
    max_ref = std::max(max_ref, std::fabs(r));
    e.max_abs_err = std::max(e.max_abs_err, std::fabs(d));
    sum_abs_err += std::fabs(d);
    sum_abs_ref += std::fabs(r);
    ++n;
  }
  e.sqnr_db = noise == 0 ? HUGE_VAL : 10.0 * std::log10(sig / noise);
  e.rel_frobenius = sig == 0 ? 0 : std::sqrt(noise / sig);
  e.max_rel_err = max_ref == 0 ? 0 : e.max_abs_err / max_ref;
  e.mean_rel_err = sum_abs_ref == 0 ? 0 : sum_abs_err / sum_abs_ref;
  e.cosine = (cc == 0 || sig == 0) ? 0 : dot / std::sqrt(cc * sig);
  (void)n;
  return e;
}

std::string GemmError::json() const {
  JsonWriter w;
  write(w);
  return w.str();
}

void GemmError::write(JsonWriter& w) const {
  w.begin_object()
      .kv("sqnr_db", sqnr_db)
      .kv("rel_frobenius", rel_frobenius)
      .kv("max_rel_err", max_rel_err)
      .kv("mean_rel_err", mean_rel_err)
      .kv("max_abs_err", max_abs_err)
      .kv("cosine_similarity", cosine)
      .kv("nonfinite_outputs", static_cast<uint64_t>(nonfinite))
      .end_object();
}

}  // namespace hifsim::dp
