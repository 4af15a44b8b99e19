// The format comparison report's numbers (`hifsim compare`, the main job; docs/report.md): per
// format, the accuracy of every op of a captured LLM trace through the bit-exact GEMM engine
// (with and without each residual correction), the timing of the trace on an equal-peak matrix
// unit, its area and energy (switching activity measured on the trace's tensors), the
// 64-length dot-unit comparison and the GEMM error versus K per accumulator. The perplexity and the rendering are the command's (Python).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "eval/accuracy_report.hpp"
#include "eval/trace_accuracy.hpp"

namespace hifsim::eval {

struct CompareRequest {
  io::Trace trace;                      // captured (tensors)
  std::vector<fmt::Format> formats;
  std::vector<Correction> corrections;  // residual corrections also become unit variants
  std::vector<train::Recipe> recipes;   // accuracy rows "recipe:<name>" (evaluate_trace); no unit of their own
  uint64_t recipe_seed = 0;
  std::vector<std::string> configs;     // one unit config per format (equal peak throughput)
  unsigned threads = 0;
  fmt::Hif4Convention hif4_convention = fmt::Hif4Convention::official;  // of the hif4 units' quantizer
  size_t activity_sample = 1024;        // dot operations measured per unit
  std::function<void(const std::string&)> say;      // optional: a line per phase and unit
  std::function<void(const std::string&)> op_done;  // optional: after each op x format x correction
};

struct CompareOutcome {
  AccuracyFiles accuracy;           // the accuracy tables (written as data/accuracy_*)
  std::string units_csv;            // timing, energy, area per unit
  std::string area_breakdown_csv;   // area by component (mm2) of the plain units
  std::string dot_units_md;         // the 64-length dot-unit comparison
  std::string error_vs_k_csv;       // GEMM error versus K per format and accumulator (eval/error_vs_k)
};

// Checks what the comparison needs before anything runs: a captured trace whose tensor files
// exist, and the formats' unit configs (`configs_dir`/<format>-32x32.yaml, resolved by
// `locate`). Returns the config paths.
std::vector<std::string> compare_configs(const io::Trace& t, const std::vector<fmt::Format>& formats,
                                         const std::string& configs_dir,
                                         const std::function<std::string(const std::string&)>& locate);

CompareOutcome compare_formats(const CompareRequest& r);

}  // namespace hifsim::eval
