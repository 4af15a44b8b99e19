// Error of a quantized GEMM against the FP64 GEMM of the unquantized inputs.
#pragma once
#include <cstddef>
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
  size_t nonfinite = 0;       // outputs that are NaN or Inf
  std::string json() const;
  void write(JsonWriter& w) const;  // as a JSON object
};

// C_ref = A Bᵀ in double (A M x K, B N x K), multithreaded, deterministic.
std::vector<double> gemm_fp64(const float* A, size_t M, size_t K, const float* B, size_t N, unsigned threads = 0);
GemmError gemm_error(const std::vector<float>& c, const std::vector<double>& ref);

}  // namespace hifsim::dp
