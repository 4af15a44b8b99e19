// The accuracy of a unit config's arithmetic on real tensors, computed once per distinct
// arithmetic and shared by every design point that has it (docs/sweeps.md). Only the format,
// the accumulator, the alignment window and policy, the HiF8 dot width and the residual
// correction change the values a unit produces; array size, dataflow, memory and clock do not,
// so a sweep of 10^4 points typically needs a handful of accuracy runs. Thread-safe: the first
// caller of a key computes it, concurrent callers of the same key wait for that result.
#pragma once
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "config/unit_config.hpp"
#include "io/trace.hpp"

namespace hifsim::eval {

// Whole-trace figures of one arithmetic (ops aggregated as if their outputs were concatenated).
// Invalid when any output (or reference value) is NaN or Inf: the figures are then NaN, written
// as null, and the counts say why (gemm/gemm_stats.hpp).
struct AccuracyFigures {
  double sqnr_db = 0, cosine = 0, rel_frobenius = 0;
  double underflow = 0;  // mean over the ops of the nonzero A values that quantize to zero
  bool valid = true;
  uint64_t nonfinite_outputs = 0, nonfinite_reference = 0;
};

class AccuracyMemo {
 public:
  // `trace` must hold tensors; `ops` (op kinds or op names) selects ops, empty = every op.
  // `where` and the fields name the source of the options in errors (e.g. the sweep file).
  AccuracyMemo(const std::string& trace, const std::vector<std::string>& ops, const std::string& where);
  AccuracyFigures get(const cfg::UnitConfig& u);
  // The text that identifies u's arithmetic: two configs with equal keys give equal values.
  static std::string arithmetic_key(const cfg::UnitConfig& u);

 private:
  AccuracyFigures compute(const cfg::UnitConfig& u) const;
  io::Trace trace_;
  std::mutex mu_;
  std::map<std::string, std::shared_future<AccuracyFigures>> memo_;
};

}  // namespace hifsim::eval
