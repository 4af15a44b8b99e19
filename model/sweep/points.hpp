// The points of a sweep: the expansion of its grid and zip groups into a numbered list of
// override sets with content-hashed ids, and the slices of that list that shards run.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sweep/sweep.hpp"

namespace hifsim::sweep {

struct Point {
  size_t index = 0;                    // position in the full expansion
  std::string id;                      // 16 hex digits: content hash of everything that defines it
  // "path=value": the sweep's `set` first, then one per swept path in SweepSpec::axis_paths
  // order (the only copy of the point's values: 10^5 points hold ~100 MB of these).
  std::vector<std::string> overrides;
};

// A sweep holds every point in memory (about 700 bytes each with seven axes: 10^5 points take
// 74 MB, docs/sweeps.md) and the largest sweeps hifsim is built for have 10^5 points; 10x that
// is the limit, refused with an error rather than exhausting the machine. Bigger explorations
// split into several sweep files.
inline constexpr uint64_t kMaxPoints = 1000000;

// The number of points (product of every grid axis and zip group), with checked arithmetic:
// hifsim::Error naming the sweep file when it exceeds kMaxPoints (or would overflow).
size_t point_count(const SweepSpec& s);
// All points: cartesian(grid) x each zip group (groups multiply with each other and the grid);
// the last axis varies fastest.
std::vector<Point> expand(const SweepSpec& s);
// The points of shard i of n (i in [0, n)): every n-th point starting at i.
std::vector<Point> shard(const std::vector<Point>& all, size_t i, size_t n);
// "i/N" -> (i, N); throws hifsim::Error naming --shard.
std::pair<size_t, size_t> parse_shard(const std::string& s);

}  // namespace hifsim::sweep
