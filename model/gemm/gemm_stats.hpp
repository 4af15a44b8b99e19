// Error of a quantized GEMM against a reference (the FP64 GEMM of the unquantized inputs, or the
// FP32 output recorded in a trace). The one implementation of every accuracy figure hifsim
// reports (gemm --stats, trace, compare, sweep rows).
//
// Metrics that cannot lie: an output that is NaN or Inf has no error to average, so a set of
// outputs with any non-finite value -- or compared with a non-finite reference -- is *invalid*:
// valid() is false, every figure is NaN (null in JSON, "invalid" in tables), and the counts say
// why. Skipping such outputs instead made an FP8 op whose outputs were 75 % NaN score 27 dB, and
// an all-NaN result score "sqnr_db": 1e999 (+inf, "exact").
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hifsim {
class JsonWriter;
}

namespace hifsim::dp {

struct GemmError {
  double sqnr_db = 0;         // 10 log10(sum ref^2 / sum (c - ref)^2); +inf when exact
  double rel_frobenius = 0;   // ||c - ref||_F / ||ref||_F
  double max_rel_err = 0;     // max |c - ref| / max |ref|
  double mean_rel_err = 0;    // mean |c - ref| / mean |ref|
  double max_abs_err = 0;
  double cosine = 0;          // <c, ref> / (|c| |ref|)
  uint64_t outputs = 0;       // outputs compared
  size_t nonfinite = 0;       // outputs that are NaN or Inf (also where the reference is)
  uint64_t nonfinite_reference = 0;  // reference values that are NaN or Inf
  uint64_t nonfinite_either = 0;     // outputs where the output, the reference or both are
  bool valid() const { return nonfinite == 0 && nonfinite_reference == 0; }
  // "" when valid, else e.g. "192 of 256 outputs are NaN or Inf".
  std::string invalid_reason() const;
  std::string json() const;
  void write(JsonWriter& w) const;  // as a JSON object: the figures (null when invalid), "valid" and the counts
};

// Sums from which the figures of any set of outputs are computed, so ops aggregate into layers
// and whole traces exactly as if their outputs were concatenated (an invalid op makes every
// aggregate containing it invalid).
struct ErrorSums {
  double sig = 0, noise = 0, dot = 0, cc = 0, abs_err = 0, abs_ref = 0, max_ref = 0, max_abs_err = 0;
  uint64_t n = 0, nonfinite = 0, nonfinite_ref = 0;
  uint64_t skipped = 0;  // outputs with a nonfinite output or reference (or both)
  void add(const float* c, const float* ref, size_t count);
  void add(const float* c, const double* ref, size_t count);
  void add(const ErrorSums& o);
  GemmError metrics() const;
};

// Text of a figure for CSV and Markdown tables: printf "%.*g", or "invalid" when the set is.
std::string metric_text(double v, const GemmError& e, int prec);

// C_ref = A Bᵀ in double (A M x K, B N x K), multithreaded, deterministic.
std::vector<double> gemm_fp64(const float* A, size_t M, size_t K, const float* B, size_t N, unsigned threads = 0);
GemmError gemm_error(const std::vector<float>& c, const std::vector<double>& ref);
// The same over n outputs in place (a result that is not a vector, e.g. `hifsim gemm`'s buffer).
GemmError gemm_error(const float* c, const double* ref, size_t n);

}  // namespace hifsim::dp
