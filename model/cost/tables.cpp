#include "cost/tables.hpp"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdlib>
#include <set>

#include "io/input_file.hpp"
#include "io/yaml_input.hpp"
#include "util/checked.hpp"
#include "util/error.hpp"
#include "util/install.hpp"

namespace hifsim::cost {
namespace {

std::string line_of(const YAML::Node& n) {
  if (!n.IsDefined()) return "";  // a missing key (yaml-cpp's invalid node has no mark)
  const auto m = n.Mark();
  return m.line >= 0 ? " (line " + std::to_string(m.line + 1) + ")" : "";
}

YAML::Node load_yaml(const std::string& path) {
  if (const std::string why = io::not_regular_reason(path); !why.empty())
    throw Error(path, "", "cannot open the cost table: " + why);
  return io::load_yaml_file(path);  // size bound, no duplicate keys
}

double number(const std::string& file, const std::string& field, const YAML::Node& n) {
  if (!n || !n.IsScalar()) throw Error(file, field, "missing number" + line_of(n));
  const std::string t = n.Scalar();
  char* end = nullptr;
  const double v = std::strtod(t.c_str(), &end);
  if (t.empty() || *end != '\0' || !std::isfinite(v)) throw Error(file, field, "'" + t + "' is not a finite number" + line_of(n));
  if (v < 0) throw Error(file, field, "must not be negative, got " + t + line_of(n));
  return v;
}

std::string text(const std::string& file, const std::string& field, const YAML::Node& n, bool required = true) {
  if (!n) {
    if (required) throw Error(file, field, "missing (every entry needs it)");
    return "";
  }
  if (!n.IsScalar()) throw Error(file, field, "must be a string" + line_of(n));
  if (required && n.Scalar().empty()) throw Error(file, field, "must not be empty" + line_of(n));
  return n.Scalar();
}

uint64_t bytes_of(const std::string& file, const std::string& field, const YAML::Node& n) {
  if (!n || !n.IsScalar()) throw Error(file, field, "missing size" + line_of(n));
  std::string t = n.Scalar();
  uint64_t mul = 1;
  for (const auto& [suf, m] : {std::pair<const char*, uint64_t>{"KiB", 1024}, {"MiB", 1048576}, {"GiB", 1073741824}}) {
    const std::string s = suf;
    if (t.size() > s.size() && t.compare(t.size() - s.size(), s.size(), s) == 0) {
      mul = m;
      t = t.substr(0, t.size() - s.size());
      break;
    }
  }
  uint64_t v = 0;
  if (!parse_u64(t, v) || v == 0 || !mul_u64(v, mul, v))
    throw Error(file, field, "'" + n.Scalar() + "' is not a size in bytes below 2^64 (KiB/MiB/GiB allowed)" + line_of(n));
  return v;
}

void check_schema(const std::string& file, const YAML::Node& root, const std::string& schema) {
  if (!root.IsMap()) throw Error(file, "", "must be a YAML mapping");
  const std::string s = text(file, "schema", root["schema"]);
  if (s != schema) throw Error(file, "schema", "expected '" + schema + "', got '" + s + "'");
}

}  // namespace

double Table::at(const std::string& name) const {
  auto it = entries.find(name);
  if (it == entries.end()) throw Error(file, name, "missing entry (the cost model never assumes a default)");
  return it->second.value;
}

Table load_table(const std::string& path, const std::string& schema, const std::vector<std::string>& required) {
  const YAML::Node root = load_yaml(path);
  check_schema(path, root, schema);
  Table t;
  t.file = path;
  t.schema = schema;
  const std::set<std::string> req(required.begin(), required.end());
  for (const auto& kv : root) {
    const std::string key = kv.first.as<std::string>();
    if (key == "schema" || key == "description") continue;
    if (key == "node") {
      t.node = text(path, "node", kv.second);
      continue;
    }
    if (!req.count(key)) throw Error(path, key, "unknown entry" + line_of(kv.first));
    const YAML::Node& e = kv.second;
    if (!e.IsMap()) throw Error(path, key, "must be a mapping {value, unit, source}" + line_of(e));
    for (const auto& f : e) {
      const std::string fk = f.first.as<std::string>();
      if (fk != "value" && fk != "unit" && fk != "source")
        throw Error(path, key + "." + fk, "unknown field (expected value, unit, source)" + line_of(f.first));
    }
    Entry en;
    en.value = number(path, key + ".value", e["value"]);
    en.unit = text(path, key + ".unit", e["unit"]);
    en.source = text(path, key + ".source", e["source"]);
    t.entries[key] = en;
  }
  for (const std::string& r : required)
    if (!t.entries.count(r)) throw Error(path, r, "missing entry (the cost model never assumes a default)");
  return t;
}

SramRow SramTable::at(uint64_t bytes, const std::string& what) const {
  if (rows.empty()) throw Error(file, "sizes", "empty table");
  if (bytes < rows.front().bytes || bytes > rows.back().bytes)
    throw Error(file, "sizes",
                what + ": a macro of " + std::to_string(bytes) + " bytes is outside the table (" + std::to_string(rows.front().bytes) +
                    " .. " + std::to_string(rows.back().bytes) + " bytes); add a row");
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].bytes == bytes) return rows[i];
    if (i + 1 < rows.size() && bytes < rows[i + 1].bytes) {
      const SramRow& a = rows[i];
      const SramRow& b = rows[i + 1];
      const double t = std::log(double(bytes) / double(a.bytes)) / std::log(double(b.bytes) / double(a.bytes));
      auto li = [t](double x, double y) { return std::exp(std::log(x) + t * (std::log(y) - std::log(x))); };
      SramRow r;
      r.bytes = bytes;
      r.read_pj_per_byte = li(a.read_pj_per_byte, b.read_pj_per_byte);
      r.write_pj_per_byte = li(a.write_pj_per_byte, b.write_pj_per_byte);
      r.area_mm2 = li(a.area_mm2, b.area_mm2);
      r.source = "log-log interpolation between the " + std::to_string(a.bytes) + " and " + std::to_string(b.bytes) + " byte rows";
      return r;
    }
  }
  return rows.back();
}

SramTable load_sram_table(const std::string& path) {
  const YAML::Node root = load_yaml(path);
  check_schema(path, root, "hifsim-cost-sram/1");
  SramTable t;
  t.file = path;
  for (const auto& kv : root) {
    const std::string key = kv.first.as<std::string>();
    if (key != "schema" && key != "description" && key != "node" && key != "sizes")
      throw Error(path, key, "unknown field (expected schema, node, description, sizes)" + line_of(kv.first));
  }
  t.node = text(path, "node", root["node"]);
  const YAML::Node sizes = root["sizes"];
  if (!sizes || !sizes.IsSequence() || sizes.size() == 0) throw Error(path, "sizes", "missing list of macro sizes");
  for (size_t i = 0; i < sizes.size(); ++i) {
    const std::string f = "sizes[" + std::to_string(i) + "]";
    const YAML::Node& e = sizes[i];
    if (!e.IsMap()) throw Error(path, f, "must be a mapping" + line_of(e));
    for (const auto& x : e) {
      const std::string k = x.first.as<std::string>();
      if (k != "bytes" && k != "read_pj_per_byte" && k != "write_pj_per_byte" && k != "area_mm2" && k != "source")
        throw Error(path, f + "." + k, "unknown field" + line_of(x.first));
    }
    SramRow r;
    r.bytes = bytes_of(path, f + ".bytes", e["bytes"]);
    r.read_pj_per_byte = number(path, f + ".read_pj_per_byte", e["read_pj_per_byte"]);
    r.write_pj_per_byte = number(path, f + ".write_pj_per_byte", e["write_pj_per_byte"]);
    r.area_mm2 = number(path, f + ".area_mm2", e["area_mm2"]);
    r.source = text(path, f + ".source", e["source"]);
    if (r.read_pj_per_byte == 0 || r.write_pj_per_byte == 0 || r.area_mm2 == 0)
      throw Error(path, f, "energies and area must be > 0 (log interpolation)");
    if (!t.rows.empty() && r.bytes <= t.rows.back().bytes) throw Error(path, f + ".bytes", "sizes must increase");
    t.rows.push_back(r);
  }
  return t;
}

const std::vector<std::string>& area_entry_names() {
  static const std::vector<std::string> n = {
      "transistors_per_ge", "ff_ge",   "mul_ab",  "mul_lin", "mul_c",    "smul_sq", "smul_c", "add_w",   "add_c",
      "tree_nw",            "tree_nl", "tree_wo", "shift_sw", "shift_s2", "norm_wl",  "norm_w2", "mux_w",
      "max_w",              "dec_e2m1", "dec_hif8", "acc_c",   "acc_m",   "acc_rz"};
  return n;
}

const std::vector<std::string>& energy_entry_names() {
  static const std::vector<std::string> n = {
      "ge_area_um2",  "e_mul",         "e_add",       "e_logic",     "e_fpadd",          "e_ff_toggle",
      "e_ff_clock",   "fp32_add_pj",   "fp32_mul_pj", "dram_pj_per_byte", "unmeasured_activity"};
  return n;
}

CostTables load_tables(const std::string& dir, const std::string& node) {
  CostTables t;
  t.dir = dir;
  t.node = node;
  t.area = load_table(dir + "/area.yaml", "hifsim-cost-area/1", area_entry_names());
  const std::string ef = dir + "/energy-" + node + ".yaml";
  t.energy = load_table(ef, "hifsim-cost-energy/1", energy_entry_names());
  if (t.energy.node != node) throw Error(ef, "node", "expected '" + node + "', got '" + t.energy.node + "'");
  if (t.energy.at("unmeasured_activity") > 1) throw Error(ef, "unmeasured_activity", "is a toggle fraction, at most 1");
  // A node other than 45 nm brings its own SRAM table (sram-<node>.yaml, e.g. sky130's, docs/cost.md
  // section 11); sram.yaml is the 45 nm one. A FIFO or folder in its place is an error when read.
  const std::string node_sram = dir + "/sram-" + node + ".yaml";
  t.sram = load_sram_table(io::not_regular_reason(node_sram) == "does not exist" ? dir + "/sram.yaml" : node_sram);
  if (t.sram.node != node) throw Error(t.sram.file, "node", "expected '" + node + "', got '" + t.sram.node + "'");
  const Table& a = t.area;
  AreaCoeffs& c = t.coeffs;
  c.mul_ab = a.at("mul_ab"), c.mul_lin = a.at("mul_lin"), c.mul_c = a.at("mul_c");
  c.smul_sq = a.at("smul_sq"), c.smul_c = a.at("smul_c");
  c.add_w = a.at("add_w"), c.add_c = a.at("add_c");
  c.tree_nw = a.at("tree_nw"), c.tree_nl = a.at("tree_nl"), c.tree_wo = a.at("tree_wo");
  c.shift_sw = a.at("shift_sw"), c.shift_s2 = a.at("shift_s2");
  c.norm_wl = a.at("norm_wl"), c.norm_w2 = a.at("norm_w2");
  c.mux_w = a.at("mux_w");
  c.max_w = a.at("max_w");
  c.dec_e2m1 = a.at("dec_e2m1"), c.dec_hif8 = a.at("dec_hif8");
  c.acc_c = a.at("acc_c"), c.acc_m = a.at("acc_m"), c.acc_rz = a.at("acc_rz");
  c.ff_ge = a.at("ff_ge");
  t.synth_csv = dir + "/synth.csv";
  t.units = load_node_units(dir, node);
  return t;
}

std::string default_tables_dir() {
  if (const char* e = std::getenv("HIFSIM_COST_TABLES"); e && *e) return e;
  return data_dir() + "/configs/cost";
}

}  // namespace hifsim::cost
