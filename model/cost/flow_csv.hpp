// The one reader of the tables the synthesis flows write: configs/cost/synth.csv (scripts/synth.sh,
// scripts/cost_synth.sh) and a node's units.csv / energy.csv (the sky130 flow of scripts/pdk).
// They share a form: comma-separated without quoting, a header line of column names, one row per
// module and parameter set, `parameters` as NAME=INTEGER;... ("-": the module's defaults). One
// strict reader, so that every table refuses the same malformed field (a "3x" read as 3, a NaN, a
// negative count) with the same message: Error(file, "line N <column>", reason).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace hifsim::cost {

// One data row: its fields by column name, and parsers that name file, line and column on error.
class FlowCsvRow {
 public:
  FlowCsvRow(std::string path, int line, std::map<std::string, std::string> fields)
      : path_(std::move(path)), line_(line), fields_(std::move(fields)) {}
  int line() const { return line_; }
  // The field as written (throws for a column the file has not).
  const std::string& text(const std::string& col) const;
  // A finite, non-negative decimal number (digits, '.', exponent; no "nan", "inf", hex or
  // spaces); a positive one when `positive`.
  double number(const std::string& col, bool positive) const;
  // A non-negative integer below 1e15 (written as an integer or as an integral number).
  uint64_t count(const std::string& col) const;
  // "yes" or "no".
  bool yes_no(const std::string& col) const;
  // "-" (none) or NAME=INTEGER;... with distinct identifier names and |INTEGER| <= 1e6.
  std::vector<std::pair<std::string, int>> params(const std::string& col) const;
  [[noreturn]] void fail(const std::string& col, const std::string& reason) const;

 private:
  std::string path_;
  int line_;
  std::map<std::string, std::string> fields_;
};

struct FlowCsv {
  std::vector<std::string> header;
  std::vector<FlowCsvRow> rows;
};

// Reads `path` (a regular file of at most max_bytes; `limit_reason` says why no table is larger).
// The header must name every `need` column (exact: be exactly `need`, in order); every row must
// have the header's width. Blank lines are skipped; line numbers count them.
FlowCsv read_flow_csv(const std::string& path, const std::vector<std::string>& need, bool exact, uint64_t max_bytes,
                      const std::string& limit_reason);

}  // namespace hifsim::cost
