#include "cost/node_units.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>

#include "cost/cost.hpp"
#include "io/input_file.hpp"
#include "util/error.hpp"

namespace hifsim::cost {
namespace {

// One CSV file as rows of fields keyed by the header's column names (the flow writes no quoted
// fields). Every `need` column must be in the header; every row must have the header's width.
struct Csv {
  std::vector<std::string> header;
  std::vector<std::map<std::string, std::string>> rows;
  std::vector<int> lines;  // each row's line number, for errors
};

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> v;
  std::string x;
  std::stringstream ss(s);
  while (std::getline(ss, x, sep)) v.push_back(x);
  if (!s.empty() && s.back() == sep) v.emplace_back();
  return v;
}

Csv read_csv(const std::string& path, const std::vector<std::string>& need) {
  // The committed tables have tens of rows: a larger file is not one of them.
  std::istringstream f(io::read_regular_file(path, 4u << 20, "a node's unit table is never that large"));
  Csv c;
  std::string line;
  int ln = 0;
  while (std::getline(f, line)) {
    ++ln;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const std::vector<std::string> v = split(line, ',');
    if (c.header.empty()) {
      c.header = v;
      for (const std::string& n : need) {
        bool has = false;
        for (const std::string& h : v) has = has || h == n;
        if (!has) throw Error(path, "line 1", "the header has no column '" + n + "'");
      }
      continue;
    }
    if (v.size() != c.header.size())
      throw Error(path, "line " + std::to_string(ln),
                  "expected " + std::to_string(c.header.size()) + " comma-separated fields, got " + std::to_string(v.size()));
    std::map<std::string, std::string> r;
    for (size_t i = 0; i < v.size(); ++i) r[c.header[i]] = v[i];
    c.rows.push_back(std::move(r));
    c.lines.push_back(ln);
  }
  if (c.header.empty()) throw Error(path, "line 1", "empty file (no header)");
  return c;
}

// A finite, non-negative number; a positive one when `positive`.
double number(const std::string& path, int line, const std::string& col, const std::string& s, bool positive) {
  char* end = nullptr;
  errno = 0;
  const double x = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(x) || x < 0 || (positive && x == 0))
    throw Error(path, "line " + std::to_string(line) + " " + col,
                "'" + s + "' is not a " + (positive ? "positive" : "non-negative") + " number");
  return x;
}

uint64_t count(const std::string& path, int line, const std::string& col, const std::string& s) {
  const double x = number(path, line, col, s, false);
  if (x != std::floor(x) || x > 1e15) throw Error(path, "line " + std::to_string(line) + " " + col, "'" + s + "' is not a count");
  return static_cast<uint64_t>(x);
}

std::vector<std::pair<std::string, int>> parse_params(const std::string& path, int line, const std::string& s) {
  std::vector<std::pair<std::string, int>> v;
  if (s == "-") return v;
  for (const std::string& kv : split(s, ';')) {
    const size_t eq = kv.find('=');
    char* end = nullptr;
    const long n = eq == std::string::npos ? 0 : std::strtol(kv.c_str() + eq + 1, &end, 10);
    if (eq == std::string::npos || eq == 0 || eq + 1 == kv.size() || *end != '\0' || n < -1000000 || n > 1000000)
      throw Error(path, "line " + std::to_string(line) + " parameters", "'" + kv + "' is not NAME=INTEGER");
    v.emplace_back(kv.substr(0, eq), static_cast<int>(n));
  }
  return v;
}

}  // namespace

NodeUnits load_node_units(const std::string& dir, const std::string& node) {
  NodeUnits u;
  u.node = node;
  const std::string units = dir + "/" + node + "/units.csv";
  if (io::not_regular_reason(units) == "does not exist") return u;
  u.units_file = units;
  const Csv c = read_csv(units, {"module", "parameters", "area_um2", "cells", "flip_flops", "min_period_ns", "fmax_mhz"});
  for (size_t i = 0; i < c.rows.size(); ++i) {
    const auto& r = c.rows[i];
    const int ln = c.lines[i];
    NodeUnitRow x;
    x.module = r.at("module");
    x.parameters = r.at("parameters");
    x.params = parse_params(units, ln, x.parameters);
    x.area_um2 = number(units, ln, "area_um2", r.at("area_um2"), true);
    x.cells = count(units, ln, "cells", r.at("cells"));
    x.flip_flops = count(units, ln, "flip_flops", r.at("flip_flops"));
    x.min_period_ns = number(units, ln, "min_period_ns", r.at("min_period_ns"), true);
    x.fmax_mhz = number(units, ln, "fmax_mhz", r.at("fmax_mhz"), true);
    // The two columns say the same thing; a table where they disagree was edited by hand.
    if (std::fabs(x.fmax_mhz * x.min_period_ns - 1000) > 1e-3)
      throw Error(units, "line " + std::to_string(ln) + " fmax_mhz", "is not 1000 / min_period_ns");
    u.rows.push_back(std::move(x));
  }
  const std::string energy = dir + "/" + node + "/energy.csv";
  if (io::not_regular_reason(energy) == "does not exist") return u;
  u.energy_file = energy;
  const Csv e = read_csv(energy, {"module", "parameters", "trace_op", "ops", "unit_pj"});
  // Several trace ops per unit (the CI rows run a small trace): quote the one with most operations.
  std::vector<uint64_t> best_ops(u.rows.size(), 0);
  for (size_t i = 0; i < e.rows.size(); ++i) {
    const auto& r = e.rows[i];
    const uint64_t ops = count(energy, e.lines[i], "ops", r.at("ops"));
    const double pj = number(energy, e.lines[i], "unit_pj", r.at("unit_pj"), true);
    for (size_t k = 0; k < u.rows.size(); ++k)
      if (u.rows[k].module == r.at("module") && u.rows[k].parameters == r.at("parameters") && ops > best_ops[k])
        best_ops[k] = ops, u.rows[k].gate_pj = pj, u.rows[k].energy_trace = r.at("trace_op");
  }
  return u;
}

const NodeUnitRow* NodeUnits::find(const dp::hw::UnitDesc& d) const {
  for (const NodeUnitRow& r : rows) {
    if (r.module != d.rtl_top) continue;
    std::map<std::string, int> want;  // the row's instance: the module's defaults, then its parameters
    for (const dp::hw::RtlParam& p : dp::hw::rtl_defaults(r.module)) want[p.name] = p.value;
    for (const auto& [k, v] : r.params) want[k] = v;
    std::map<std::string, int> have;
    for (const dp::hw::RtlParam& p : d.rtl_params) have[p.name] = p.value;
    if (want == have) return &r;
  }
  return nullptr;
}

NodeDot node_dot(const NodeUnits& units, const dp::hw::UnitDesc& d) {
  NodeDot n;
  if (units.units_file.empty()) return n;  // the node has no synthesised units: nothing to quote
  n.node = units.node;
  n.module = d.rtl_top;
  for (const dp::hw::RtlParam& p : d.rtl_params) n.parameters += (n.parameters.empty() ? "" : ";") + p.name + "=" + std::to_string(p.value);
  if (const NodeUnitRow* r = units.find(d)) n.synthesised = true, n.row = *r;
  return n;
}

NodeDotCost node_dot_cost(const CostTables& t, const cfg::UnitConfig& u, const Activity& act) {
  const UnitSpec s = unit_spec(u);
  NodeDotCost c;
  c.dot = node_dot(t.units, dp::hw::describe_dot(s));
  c.dot_pj = ops_energy_pj(t, dot_inventory(s), &act);
  return c;
}

}  // namespace hifsim::cost
