#include "sweep/merge.hpp"

#include <iostream>
#include <unordered_map>

#include "sweep/flat_json.hpp"
#include "sweep/records.hpp"
#include "util/error.hpp"
#include "util/files.hpp"

namespace hifsim::sweep {
namespace {

std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string o = "\"";
  for (char c : s) {
    if (c == '"') o += '"';
    o += c;
  }
  return o + "\"";
}

FlatFields fields_of(const RecordSet& set, const StoredResult& r) {
  FlatFields f;
  std::string err;
  // read_records parsed every text it kept; a failure here would be a bug, not bad input.
  if (!flatten_json_object(r.text, f, err)) throw Error(set.where(r), "", "unreadable result: " + err);
  return f;
}

}  // namespace

MergedTable merge_table(const SweepSpec& s, const std::vector<Point>& all, const std::string& out_dir) {
  const RecordSet set = read_records(out_dir, true);
  for (const auto& p : set.problems) std::cerr << "[sweep] warning: " << p << "\n";
  // Two passes over the finished points, parsing each result twice, instead of holding every
  // row's cells: the columns (first-seen order) must be known before the first row is written,
  // and at 10^5 points the cells would need ~100 MB.
  MergedTable t;
  std::vector<std::string> cols;
  std::unordered_map<std::string, size_t> col_of;
  for (const Point& p : all) {
    const auto it = set.done.find(p.id);
    if (it == set.done.end()) {
      t.missing += p.id + "\n";
      continue;
    }
    ++t.rows;
    for (const auto& [k, v] : fields_of(set, it->second))
      if (k != "status" && col_of.emplace(k, cols.size()).second) cols.push_back(k);
  }
  std::string& csv = t.csv;
  csv = "id";
  for (const auto& a : s.axis_paths) csv += "," + csv_cell(a);
  for (const auto& c : cols) csv += "," + csv_cell(c);
  csv += "\n";
  std::vector<std::string> cells(cols.size());
  for (const Point& p : all) {
    const auto it = set.done.find(p.id);
    if (it == set.done.end()) continue;
    std::fill(cells.begin(), cells.end(), std::string());
    for (auto& [k, v] : fields_of(set, it->second))
      if (k != "status") cells[col_of.at(k)] = std::move(v);
    csv += p.id;
    for (size_t k = s.fixed.size(); k < p.overrides.size(); ++k)  // the swept values, in axis order
      csv += "," + csv_cell(p.overrides[k].substr(p.overrides[k].find('=') + 1));
    for (const auto& c : cells) csv += "," + csv_cell(c);
    csv += "\n";
  }
  return t;
}

size_t merge_results(const SweepSpec& s, const std::vector<Point>& all, const std::string& out_dir) {
  const MergedTable t = merge_table(s, all, out_dir);
  make_dirs(out_dir);
  write_file_atomic(out_dir + "/results.csv", t.csv);
  write_file_atomic(out_dir + "/missing.txt", t.missing);
  return t.rows;
}

}  // namespace hifsim::sweep
