// Merging a sweep's finished points into one table: DIR/results.csv, one row per point in
// point order (columns: id, the swept axes, then every result field in first-seen order), and
// DIR/missing.txt with the ids of the points without a result.
#pragma once
#include <string>
#include <vector>

#include "sweep/points.hpp"

namespace hifsim::sweep {

struct MergedTable {
  std::string csv;      // results.csv
  std::string missing;  // missing.txt: one id per line
  size_t rows = 0;      // finished points
};

// Reads the records of out_dir and builds both files (writes nothing). Damaged or incomplete
// record lines are named on stderr (their points are missing); hifsim::Error when two records of
// one point differ.
MergedTable merge_table(const SweepSpec& s, const std::vector<Point>& all, const std::string& out_dir);
// merge_table, then writes DIR/results.csv and DIR/missing.txt; returns the number of rows.
size_t merge_results(const SweepSpec& s, const std::vector<Point>& all, const std::string& out_dir);

}  // namespace hifsim::sweep
