// GEMM error versus K per accumulator (issue 13; the Full-Stack FP4 study's question of error
// accumulating in low-bit matrix multiplication): the trace's longest-K ops with their operands
// cut to the first K columns (A: a sample of the tokens), K = 64, 128, 256, ... up to the
// longest K, through the bit-exact GEMM of each format with each accumulator. Two errors per
// point: against the FP64 GEMM of the same unquantized columns (quantization + accumulation),
// and against the same format's Kulisch result (the accumulator's own rounding, nothing else).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "eval/operand_cache.hpp"
#include "formats/format.hpp"
#include "gemm/gemm_stats.hpp"
#include "io/trace.hpp"

namespace hifsim::eval {

struct ErrorVsKOptions {
  std::vector<fmt::Format> formats;
  std::vector<std::string> accumulators{"fp32", "fp32-m13-rne", "fp32-m13-rz", "fp32-m10-rne", "fp32-m10-rz", "kulisch"};
  size_t max_ops = 6;     // longest-K ops used (evenly spread over the trace's layers)
  size_t max_rows = 16;   // rows of A used per op (tokens, spread over the sequence)
  unsigned threads = 0;   // jobs (format x K) side by side; the figures do not depend on it
};

struct ErrorVsKPoint {
  std::string format, accumulator;
  uint64_t K = 0, outputs = 0;
  dp::GemmError vs_fp64;     // against the FP64 GEMM of the unquantized operands
  dp::GemmError vs_kulisch;  // against the same format's Kulisch result
};

// Points in format, K, accumulator order. Throws hifsim::Error for a shape-only trace.
std::vector<ErrorVsKPoint> error_vs_k(const io::Trace& t, const ErrorVsKOptions& o, OperandCache& cache);
// CSV: format,accumulator,K,outputs,sqnr_db,rel_frobenius,valid,sqnr_vs_kulisch_db,rel_vs_kulisch
std::string error_vs_k_csv(const std::vector<ErrorVsKPoint>& points);

}  // namespace hifsim::eval
