// Tables of trace accuracy results: per op, per (format, correction, layer), per (format,
// correction) -- written as CSV, JSON and a short Markdown table. Shared by `hifsim trace` and
// `hifsim compare` (which writes them under its data/ folder).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "eval/trace_accuracy.hpp"

namespace hifsim::eval {

struct AccuracyFiles {
  std::string ops_csv, layers_csv, summary_csv, json, markdown;
  // Per (format, correction, op kind): kinds.csv, and a Markdown table when the trace has more
  // than one kind besides the forward pair (a training step); written by `hifsim trace`.
  std::string kinds_csv, kinds_markdown;
};

// Builds every table. `title` heads the Markdown (trace, model, accumulator).
AccuracyFiles accuracy_tables(const std::vector<OpAccuracy>& rows, const std::string& title);

// The files (path, text): <dir>/<prefix>ops.csv, layers.csv, summary.csv, .json (accuracy.json
// when prefix is empty) and summary.md.
std::vector<std::pair<std::string, std::string>> accuracy_outputs(const AccuracyFiles& f, const std::string& dir,
                                                                  const std::string& prefix);

}  // namespace hifsim::eval
