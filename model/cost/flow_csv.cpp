#include "cost/flow_csv.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>

#include "io/input_file.hpp"
#include "util/error.hpp"

namespace hifsim::cost {
namespace {

// Every field between separators, the empty last one of "a,b," included (a row with a trailing
// comma has one field too many, not the right count).
std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> v;
  std::string x;
  std::stringstream ss(s);
  while (std::getline(ss, x, sep)) v.push_back(x);
  if (!s.empty() && s.back() == sep) v.emplace_back();
  return v;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ",") + x;
  return s;
}

bool is_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (const char ch : s)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_') return false;
  return true;
}

// An optional '-' and decimal digits only: strtol alone takes " 3", "+3" and the "3" of "3x".
bool is_integer(const std::string& s) {
  const size_t d = !s.empty() && s[0] == '-' ? 1 : 0;
  if (d == s.size()) return false;
  for (size_t i = d; i < s.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

}  // namespace

const std::string& FlowCsvRow::text(const std::string& col) const {
  const auto it = fields_.find(col);
  if (it == fields_.end()) fail(col, "the file has no such column");
  return it->second;
}

void FlowCsvRow::fail(const std::string& col, const std::string& reason) const {
  throw Error(path_, "line " + std::to_string(line_) + " " + col, reason);
}

double FlowCsvRow::number(const std::string& col, bool positive) const {
  const std::string& s = text(col);
  // Decimal characters only, so strtod cannot read "nan", "inf", hex or leading spaces.
  bool decimal = !s.empty();
  for (const char ch : s) decimal = decimal && (std::isdigit(static_cast<unsigned char>(ch)) || ch == '.' || ch == 'e' || ch == 'E' || ch == '+' || ch == '-');
  char* end = nullptr;
  errno = 0;
  const double x = decimal ? std::strtod(s.c_str(), &end) : 0;
  if (!decimal || *end != '\0' || errno == ERANGE || !std::isfinite(x) || x < 0 || (positive && x == 0))
    fail(col, "'" + s + "' is not a " + (positive ? "positive" : "non-negative") + " number");
  return x;
}

uint64_t FlowCsvRow::count(const std::string& col) const {
  const double x = number(col, false);
  if (x != std::floor(x) || x > 1e15) fail(col, "'" + text(col) + "' is not a count");
  return static_cast<uint64_t>(x);
}

bool FlowCsvRow::yes_no(const std::string& col) const {
  const std::string& s = text(col);
  if (s != "yes" && s != "no") fail(col, "'" + s + "' is not yes or no");
  return s == "yes";
}

std::vector<std::pair<std::string, int>> FlowCsvRow::params(const std::string& col) const {
  const std::string& s = text(col);
  std::vector<std::pair<std::string, int>> v;
  if (s == "-") return v;
  if (s.empty()) fail(col, "empty (the module's defaults are written '-')");
  std::set<std::string> seen;
  for (const std::string& kv : split(s, ';')) {
    const size_t eq = kv.find('=');
    const std::string name = kv.substr(0, eq), value = eq == std::string::npos ? "" : kv.substr(eq + 1);
    // At most 8 characters ("-1000000"): the range check below holds and strtol cannot overflow.
    const bool ok = eq != std::string::npos && is_identifier(name) && is_integer(value) && value.size() <= 8;
    const long n = ok ? std::strtol(value.c_str(), nullptr, 10) : 0;
    if (!ok || n < -1000000 || n > 1000000) fail(col, "'" + kv + "' is not NAME=INTEGER");
    if (!seen.insert(name).second) fail(col, "'" + name + "' is given twice");
    v.emplace_back(name, static_cast<int>(n));
  }
  return v;
}

FlowCsv read_flow_csv(const std::string& path, const std::vector<std::string>& need, bool exact, uint64_t max_bytes,
                      const std::string& limit_reason) {
  std::istringstream f(io::read_regular_file(path, max_bytes, limit_reason));
  FlowCsv c;
  std::string line;
  int ln = 0;
  while (std::getline(f, line)) {
    ++ln;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    std::vector<std::string> v = split(line, ',');
    if (c.header.empty()) {
      if (exact && v != need) throw Error(path, "line " + std::to_string(ln), "header is not '" + join(need) + "'");
      for (const std::string& n : need) {
        bool has = false;
        for (const std::string& h : v) has = has || h == n;
        if (!has) throw Error(path, "line " + std::to_string(ln), "the header has no column '" + n + "'");
      }
      for (size_t i = 0; i < v.size(); ++i)
        for (size_t k = 0; k < i; ++k)
          if (v[i] == v[k]) throw Error(path, "line " + std::to_string(ln), "the header names column '" + v[i] + "' twice");
      c.header = std::move(v);
      continue;
    }
    if (v.size() != c.header.size())
      throw Error(path, "line " + std::to_string(ln),
                  "expected " + std::to_string(c.header.size()) + " comma-separated fields, got " + std::to_string(v.size()));
    std::map<std::string, std::string> r;
    for (size_t i = 0; i < v.size(); ++i) r[c.header[i]] = v[i];
    c.rows.emplace_back(path, ln, std::move(r));
  }
  if (c.header.empty()) throw Error(path, "line 1", "empty file (no header)");
  return c;
}

}  // namespace hifsim::cost
