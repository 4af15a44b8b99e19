// `hifsim gemm` as one call: C = A * B^T through the bit-exact GEMM engine, with the
// Rollout-ResQ residual correction or ARCQuant channels, and its error statistics against the
// FP64 GEMM of the unquantized operands (the stats JSON, docs/datapath.md).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "datapath/residual.hpp"
#include "gemm/gemm.hpp"

namespace hifsim::eval {

struct Matrix {
  const float* data = nullptr;
  size_t rows = 0, cols = 0;
};

struct GemmRequest {
  Matrix A, B;                    // M x K, N x K
  dp::GemmSpec spec;
  dp::ResidualSpec residual;      // none unless a correction is asked for
  bool arc = false;               // ARCQuant instead of the residual correction
  long arc_channels = -1;         // S, or -1 = auto
  Matrix calibration;             // ARC calibration activations (default: A)
  bool stats = false;             // compute the error statistics
};

struct GemmOutcome {
  std::vector<float> C;           // M x N
  size_t arc_channels = 0;
  double seconds = 0;             // the quantized GEMM only
  std::string stats_json;         // when requested
};

GemmOutcome run_gemm(const GemmRequest& r);
// The same with the result written to C (M x N floats, need not be initialized; o.C stays
// empty): `hifsim gemm` passes an uninitialized buffer (util/uninit_buffer.hpp), which the GEMM's
// worker threads fault in, instead of a vector zero-filled first by one thread. Unless r.stats,
// C may be A's own storage (r.A.data): A is read only before the first element of C is written.
GemmOutcome run_gemm_into(const GemmRequest& r, float* C);

// The plain GEMM (no correction, statistics or RHT) one operand at a time, for a caller that holds
// A, then B, then C in one buffer: A is quantized before `read_b` is called, B before `result(M,
// N)` is asked for C's storage (M x N floats, need not be initialized). Every page a process
// touches first is zeroed by the kernel, on a VM at a small fraction of the speed of the copy into
// it (docs/performance.md, issue 27): this spares `hifsim gemm` two of its three operand-sized
// buffers. The same bits as run_gemm_into; `seconds` leaves out read_b.
GemmOutcome run_gemm_staged(const dp::GemmSpec& spec, const Matrix& A, const std::function<Matrix()>& read_b,
                            const std::function<float*(size_t, size_t)>& result);

}  // namespace hifsim::eval
