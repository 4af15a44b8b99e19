// Accuracy of every op of an LLM layer trace through the bit-exact GEMM engine, per format
// and correction (none, Rollout-ResQ residual, ARCQuant), against the FP32 reference output
// recorded in the trace (c_ref; the FP64 GEMM of the unquantized operands when absent), and per
// training recipe (each op under the recipe's rule for its kind, through the trainer's own GEMM
// functions). Used by `hifsim trace` and `hifsim compare`.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "datapath/residual.hpp"
#include "eval/operand_cache.hpp"
#include "gemm/gemm.hpp"
#include "gemm/gemm_stats.hpp"
#include "io/trace.hpp"
#include "train/recipe.hpp"

namespace hifsim::eval {

// Sums of the error figures (gemm/gemm_stats.hpp): ops aggregate into layers and traces
// exactly as if their outputs were concatenated; NaN/Inf outputs make the aggregate invalid.
using ErrorSums = dp::ErrorSums;

struct Correction {
  std::string name;  // "none", "resq-2:4", "resq-dense", "resq-top50", "arc-<S|auto>"
  dp::ResidualSpec residual;
  long arc = -2;     // -2: no ARC; -1: auto; otherwise S
  static Correction parse(const std::string& s);  // none | dense | 2:4 | top50 | arc:<S|auto>
};

struct AccuracyOptions {
  std::vector<fmt::Format> formats;
  std::vector<Correction> corrections{Correction::parse("none")};
  dp::GemmSpec base;  // accumulator, alignment, quantizer options (format is set per run); base.threads
                      // = the threads the jobs share (0: all)
  std::function<void(const std::string&)> progress;  // optional progress lines (called under a lock)
  OperandCache* cache = nullptr;  // optional: operands shared with later phases (else read here, once)
  // Training recipes (docs/training.md): every op also runs once per recipe (correction "none",
  // format column "recipe:<name>"): linear ops by train::recipe_gemm under the rule of their kind
  // and layer (step 0, call = the op's position in the trace, SR and RHT keyed by recipe_seed),
  // attention ops by train::attention_gemm under the recipe's attention scheme.
  std::vector<train::Recipe> recipes;
  uint64_t recipe_seed = 0;
};

struct OpAccuracy {
  std::string op_name, op, kind, format, correction;  // kind: fprop, dgrad, wgrad, attn_fwd, attn_bwd
  int64_t layer = 0;
  uint64_t M = 0, N = 0, K = 0, batch = 1;
  ErrorSums sums;
  dp::GemmError err;
  double underflow_a = 0, underflow_b = 0;  // fraction of nonzero operand values that quantize to 0
  uint64_t arc_channels = 0;
  double seconds = 0;
};

// Runs every op of a captured trace for every format x correction, in parallel (results in op,
// format, correction order, the same for any thread count).
std::vector<OpAccuracy> evaluate_trace(const io::Trace& t, const AccuracyOptions& o);

// Fraction of the nonzero values of x (rows x cols) that are zero after quantize-dequantize.
double underflow_fraction(fmt::Format f, const std::vector<float>& x, size_t rows, size_t cols,
                          const fmt::QuantOptions& q);

// The trainer's name of a trace op's linear layer ("layers.3.wq", "classifier"), the names that
// a recipe's keep.layers match.
std::string train_layer_name(const io::TraceOp& op);

}  // namespace hifsim::eval
