#include "gemm/gemm_stats.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

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

namespace {

template <class Ref>
void accumulate(ErrorSums& s, const float* c, const Ref* ref, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    const double r = static_cast<double>(ref[i]);
    // Both counted: a NaN input makes the reference and the output NaN, and the output count
    // must not read 0 then (it did: only the reference was counted).
    const bool bad_ref = !std::isfinite(r), bad_out = !std::isfinite(c[i]);
    if (bad_ref || bad_out) {
      s.nonfinite_ref += bad_ref;
      s.nonfinite += bad_out;
      ++s.skipped;
      continue;
    }
    const double d = static_cast<double>(c[i]) - r;
    s.sig += r * r;
    s.noise += d * d;
    s.dot += static_cast<double>(c[i]) * r;
    s.cc += static_cast<double>(c[i]) * c[i];
    s.abs_err += std::fabs(d);
    s.abs_ref += std::fabs(r);
    s.max_ref = std::max(s.max_ref, std::fabs(r));
    s.max_abs_err = std::max(s.max_abs_err, std::fabs(d));
    ++s.n;
  }
}

}  // namespace

void ErrorSums::add(const float* c, const float* ref, size_t count) { accumulate(*this, c, ref, count); }
void ErrorSums::add(const float* c, const double* ref, size_t count) { accumulate(*this, c, ref, count); }

void ErrorSums::add(const ErrorSums& o) {
  sig += o.sig;
  noise += o.noise;
  dot += o.dot;
  cc += o.cc;
  abs_err += o.abs_err;
  abs_ref += o.abs_ref;
  max_ref = std::max(max_ref, o.max_ref);
  max_abs_err = std::max(max_abs_err, o.max_abs_err);
  n += o.n;
  nonfinite += o.nonfinite;
  nonfinite_ref += o.nonfinite_ref;
  skipped += o.skipped;
}

GemmError ErrorSums::metrics() const {
  GemmError e;
  e.outputs = n + skipped;
  e.nonfinite = static_cast<size_t>(nonfinite);
  e.nonfinite_reference = nonfinite_ref;
  e.nonfinite_either = skipped;
  if (!e.valid()) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    e.sqnr_db = e.rel_frobenius = e.max_rel_err = e.mean_rel_err = e.max_abs_err = e.cosine = nan;
    return e;
  }
  e.sqnr_db = noise == 0 ? HUGE_VAL : 10.0 * std::log10(sig / noise);
  e.rel_frobenius = sig == 0 ? 0 : std::sqrt(noise / sig);
  e.max_abs_err = max_abs_err;
  e.max_rel_err = max_ref == 0 ? 0 : max_abs_err / max_ref;
  e.mean_rel_err = abs_ref == 0 ? 0 : abs_err / abs_ref;
  e.cosine = (cc == 0 || sig == 0) ? 0 : dot / std::sqrt(cc * sig);
  return e;
}

GemmError gemm_error(const float* c, const double* ref, size_t n) {
  ErrorSums s;
  s.add(c, ref, n);
  return s.metrics();
}

GemmError gemm_error(const std::vector<float>& c, const std::vector<double>& ref) {
  return gemm_error(c.data(), ref.data(), std::min(c.size(), ref.size()));
}

std::string GemmError::invalid_reason() const {
  if (valid()) return "";
  std::string r;
  if (nonfinite) r = std::to_string(nonfinite) + " of " + std::to_string(outputs) + " outputs are NaN or Inf";
  if (nonfinite_reference)
    r += (r.empty() ? "" : "; ") + std::to_string(nonfinite_reference) + " of " + std::to_string(outputs) +
         " reference values are NaN or Inf";
  return r;
}

std::string metric_text(double v, const GemmError& e, int prec) {
  if (!e.valid()) return "invalid";
  char b[64];
  std::snprintf(b, sizeof b, "%.*g", prec, v);
  return b;
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
      .kv("valid", valid())
      .kv("outputs", outputs)
      .kv("nonfinite_outputs", static_cast<uint64_t>(nonfinite))
      .kv("nonfinite_reference", nonfinite_reference)
      .end_object();
}

}  // namespace hifsim::dp
