// Tables of trace accuracy results: per op, per (format, correction, layer), per (format,
// correction) -- written as CSV, JSON and a short Markdown table. Shared by `hifsim trace` and
// `hifsim compare` (which writes them under its data/ folder).
#pragma once
#include <string>
#include <vector>

#include "eval/trace_accuracy.hpp"

namespace hifsim::eval {

struct AccuracyFiles {
  std::string ops_csv, layers_csv, summary_csv, json, markdown;
};

// Builds every table. `title` heads the Markdown (trace, model, accumulator).
AccuracyFiles accuracy_tables(const std::vector<OpAccuracy>& rows, const std::string& title);

// Writes <dir>/<prefix>ops.csv, layers.csv, summary.csv, .json (accuracy.json when prefix is
// empty) and summary.md atomically; returns the paths written.
std::vector<std::string> write_accuracy(const AccuracyFiles& f, const std::string& dir, const std::string& prefix);

}  // namespace hifsim::eval
