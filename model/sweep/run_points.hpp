// Evaluating the points of a sweep that are not finished yet, in parallel, with progress, into
// the folder's records (sweep/records.hpp): an interrupted run, rerun, evaluates exactly the
// points it had not finished.
#pragma once
#include <functional>
#include <string>
#include <unordered_set>
#include <vector>

#include "sweep/points.hpp"

namespace hifsim::sweep {

struct RunOptions {
  unsigned jobs = 0;        // points in parallel, 0 = all cores
  bool quiet = false;       // no progress (warnings about damaged records are always printed)
  size_t max_points = 0;    // stop after this many new points (0 = no limit; tests interrupt with it)
  std::string tag = "all";  // names this process's record file: "all" or "shard-i-of-N"
};

// Returns the JSON object of the point's result ("status": "ok" plus the figures); must be
// thread-safe. Throwing stops the run (points finished before stay finished).
using Evaluator = std::function<std::string(const Point&)>;

// Runs every point of `points` without a finished record in out_dir. Returns how many ran now.
size_t run_points(const std::vector<Point>& points, const std::string& out_dir, const Evaluator& evaluate,
                  const RunOptions& o);

// The ids of the finished points in out_dir.
std::unordered_set<std::string> finished_ids(const std::string& out_dir);

}  // namespace hifsim::sweep
