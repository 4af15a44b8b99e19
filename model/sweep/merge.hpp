// Merging a sweep's finished points into one table: DIR/results.csv, one row per point in
// point order (columns: id, the swept axes, then every result field in first-seen order), and
// DIR/missing.txt with the ids of the points without a result.
#pragma once
#include <string>
#include <vector>

#include "sweep/points.hpp"

namespace hifsim::sweep {

// Returns the number of rows. Damaged or incomplete record lines are named on stderr (their
// points are missing); hifsim::Error when two records of one point differ.
size_t merge_results(const SweepSpec& s, const std::vector<Point>& all, const std::string& out_dir);

}  // namespace hifsim::sweep
