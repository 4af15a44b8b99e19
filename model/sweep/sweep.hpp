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
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace hifsim::sweep {

inline constexpr const char* kSweepSchema = "hifsim-sweep/1";

struct Point {
  size_t index = 0;                    // position in the full expansion
  std::string id;                      // 16 hex digits: content hash of everything that defines it
  std::vector<std::string> overrides;  // "path=value", in the sweep's axis order
  std::vector<std::pair<std::string, std::string>> axes;  // path -> value
};

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
  std::string workload_key() const;     // canonical text of the workload (part of every id)
};

// Reads and validates a sweep file (hifsim::Error(file, field, reason) on any problem).
SweepSpec load_sweep(const std::string& path);
// All points: cartesian(grid) x each zip group (groups multiply with each other and the grid).
// At most kMaxPoints: every point is listed in memory with its overrides (a few hundred bytes
// each), and the largest sweeps hifsim is built for have 10^5 points; 10x that is the limit, and
// more (or a product that overflows 64 bits) is an error naming the sweep file and `grid`.
inline constexpr uint64_t kMaxPoints = 1000000;
std::vector<Point> expand(const SweepSpec& s);
// The points of shard i of n (i in [0, n)): every n-th point starting at i.
std::vector<Point> shard(const std::vector<Point>& all, size_t i, size_t n);
// "i/N" -> (i, N); throws hifsim::Error naming --shard.
std::pair<size_t, size_t> parse_shard(const std::string& s);

// Runs the points not finished yet (DIR/points/<id>/result.json present and complete), `jobs`
// in parallel, calling `evaluate` (which returns the JSON of the point's result; it must be
// thread-safe). Progress on stderr unless quiet. Returns the number of points evaluated now.
struct RunOptions {
  unsigned jobs = 0;          // 0 = all cores
  bool quiet = false;
  size_t max_points = 0;      // stop after this many new points (0 = no limit; tests interrupt with it)
};
using Evaluator = std::function<std::string(const Point&)>;
size_t run_points(const std::vector<Point>& points, const std::string& out_dir, const Evaluator& evaluate,
                  const RunOptions& o);
bool point_done(const std::string& out_dir, const Point& p);

// Merges every finished point's result.json into DIR/results.csv (one row per point, columns:
// id, the swept axes, then every numeric/string field of the results in first-seen order).
// Returns the number of rows; points without a result are listed in DIR/missing.txt.
size_t merge_results(const SweepSpec& s, const std::vector<Point>& all, const std::string& out_dir);

// A Slurm job-array script that runs the sweep in `tasks` shards and merges at the end.
std::string slurm_script(const SweepSpec& s, const std::string& out_dir, size_t tasks, const std::string& hifsim_bin);

}  // namespace hifsim::sweep
