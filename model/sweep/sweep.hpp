// Design sweeps (docs/sweeps.md): a sweep file names a base unit config, a workload and the
// parameter space -- a cartesian `grid` and `zip` groups varied together -- over any unit config
// field (dotted path). Each point is a list of overrides "path=value" with a content-hashed id,
// so reruns skip finished points (resume) and any slice of the points can run anywhere (shards,
// Slurm job arrays). Plain C++ (no SystemC).
//
//   schema: hifsim-sweep/1
//   name: hif4-array-size
//   base: configs/units/hif4-32x32.yaml          # relative to the sweep file
//   workload: {trace: traces/shapes/llama3-8b-prefill2048}   # or {gemm: [M, N, K]}
//   accuracy: {trace: traces/stories260k, ops: [q_proj, down_proj]}   # optional
//   set: {array.drain_width: 0}                  # optional fixed overrides, applied to every point
//   grid:                                        # cartesian product, in the listed order
//     array.rows: [16, 32, 64]
//     array.cols: [16, 32]
//   zip:                                         # optional groups; lists in a group have equal length
//     - {pe.format: [hif4, nvfp4], pe.acc: [fp32, fp32]}
//
// This file reads the sweep file; points.hpp expands it, run_points.hpp evaluates the points into
// the folder's records (records.hpp), merge.hpp merges them, slurm.hpp writes the Slurm scripts.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace hifsim::sweep {

inline constexpr const char* kSweepSchema = "hifsim-sweep/1";

struct SweepSpec {
  std::string file, dir;      // the sweep file and its folder
  std::string name;
  std::string base;           // resolved path of the base unit config
  std::string base_hash;      // content hash of the base config file
  std::string workload_trace; // resolved path, or empty
  std::vector<uint64_t> workload_gemm;  // M, N, K when no trace
  std::string accuracy_trace; // optional
  std::vector<std::string> accuracy_ops;
  std::vector<std::string> fixed;       // "path=value" from `set`, applied to every point first
  std::vector<std::string> axis_paths;  // every swept path, grid first then zip groups
  std::vector<std::pair<std::string, std::vector<std::string>>> grid;
  std::vector<std::vector<std::pair<std::string, std::vector<std::string>>>> zips;
  // Evaluation options that change results and are not in the sweep file (the command's
  // --cost-sample when not the default), "" by default: part of every id when not empty, so a
  // folder never mixes points evaluated differently, and default ids stay as they always were.
  std::string evaluation;
  std::string workload_key() const;     // canonical text of the workload and evaluation (part of every id;
                                        // a trace counts with the contents of its tensor files)
};

// Reads and validates a sweep file (hifsim::Error(file, field, reason) on any problem).
SweepSpec load_sweep(const std::string& path);
}  // namespace hifsim::sweep
