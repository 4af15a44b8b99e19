// The options of the runs on a matrix-unit config (`hifsim run` / `cost`, Python run_unit / cost):
// the workload (GEMM shape, trace op selection, seed), the cost model's sampling and tables, and
// the run's threads. File arguments (config, trace, operands, output folder) are not options of
// the model: each front end opens them its own way (paths, or numpy arrays in Python).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "eval/unit_run.hpp"
#include "eval/workload.hpp"
#include "formats/format.hpp"
#include "options/option.hpp"

namespace hifsim::opt {

struct WorkloadOptions {
  std::optional<std::array<uint64_t, 3>> gemm;  // M, N, K: each in [1, 2^31], M*N*K at most 2^60
  std::vector<std::string> ops;                  // trace: only these op names
  bool one_layer = false;                        // trace: one decoder layer
  uint64_t seed = 1;                             // random operands, sampled outputs
};
// --gemm, --ops, --one-layer, --seed.
const Options<WorkloadOptions>& workload_options();
// The workload: the trace at `trace` (read, its ops selected) when given, else the GEMM shape
// (its operands are the caller's: files or arrays). --gemm with a trace is refused.
eval::Workload workload(const WorkloadOptions& o, const std::string& trace, const Spelling& s = Spelling::cli());

struct CostOptions {
  size_t sample = 4096;            // dot operations whose activity is measured, [16, 10^8]
  std::string node = "45nm";       // energy-NODE.yaml
  std::string tables;              // "" = the installation's configs/cost
  std::vector<fmt::Format> formats;  // --compare-units: at least one tensor format
};
// --sample, --node, --tables, --formats.
const Options<CostOptions>& cost_options();

struct RunOptions {
  unsigned threads = 0;            // value engine threads, 0 = all
  size_t cost_sample = 2048;       // as CostOptions::sample
  std::string cost_tables;
};
// --threads, --cost-sample, --cost-tables.
const Options<RunOptions>& run_options();
// The run of a GEMM shape or a trace (exactly one of them); values, cost, instances as defaults.
eval::RunRequest run_request(const WorkloadOptions& w, const RunOptions& r, const std::string& trace,
                             const Spelling& s = Spelling::cli());

}  // namespace hifsim::opt
