// The unit catalog printed as JSON and as the generated parts of its consumers (catalog_text.hpp).
#include "datapath/catalog_text.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "datapath/hw.hpp"
#include "datapath/hw_text.hpp"
#include "datapath/unit_catalog.hpp"
#include "util/error.hpp"
#include "util/json.hpp"

namespace hifsim::dp::hw {

namespace {

const char* kBegin = "---- BEGIN generated from the unit catalog";
const char* kEnd = "---- END generated from the unit catalog";

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

int stages_of(const VariantSet& s) {
  for (const auto& [k, v] : s.params)
    if (k == "STAGES") return v;
  return -1;
}

// ---- scripts/synth.sh UNITS, scripts/cost_synth.sh VALIDATION ----
std::string synth_units() {
  std::ostringstream o;
  for (const std::string& name : synthesis_order()) {
    const std::vector<VariantSet> sets = catalog_unit(name).of(Purpose::synthesis);
    if (sets.empty()) continue;
    o << "  \"" << name << "|";
    for (size_t i = 0; i < sets.size(); ++i) o << (i ? " " : "") << param_text(sets[i].params);
    o << "\"\n";
  }
  return o.str();
}

std::string validation_units() {
  std::ostringstream o;
  for (const CatalogUnit& u : unit_catalog())
    for (const VariantSet& s : u.of(Purpose::validation)) o << "  \"" << u.name << "|" << param_text(s.params) << "\"\n";
  return o.str();
}

// ---- rtl/CMakeLists.txt: one hifsim_rtl_check per lint set ----
std::string rtl_checks() {
  std::ostringstream o;
  for (const CatalogUnit& u : unit_catalog())
    for (const VariantSet& s : u.of(Purpose::lint)) {
      o << "hifsim_rtl_check(" << u.name << "." << s.name << " " << u.name;
      if (!s.params.empty()) o << " PARAMS";
      for (const auto& [k, v] : s.params) o << " " << k << "=" << v;
      if (!s.yosys.empty()) o << " " << s.yosys;
      o << ")\n";
    }
  return o.str();
}

// ---- cosim/tlm_calibration/CMakeLists.txt: the calibration models, in PE-code order ----
std::string calib_models() {
  std::vector<std::pair<int, std::string>> rows;
  const CatalogUnit& h8 = catalog_unit("hif8_dot");
  for (const CatalogUnit& u : unit_catalog())
    for (const VariantSet& s : u.of(Purpose::calibration)) {
      // The array's other PE types leave the HiF8 parameters at hif8_dot's defaults.
      const ParamList& hp = u.name == "hif8_dot" ? s.params : ParamList{};
      std::ostringstream r;
      r << s.name << "," << u.calib_pe << ",4,4,8,8,8," << param_value(u, s.params, "STAGES") << "," << param_value(h8, hp, "N") << ","
        << param_value(h8, hp, "W") << "," << param_value(h8, hp, "STICKY") << "," << u.calib_block_bits;
      rows.emplace_back(u.calib_pe, r.str());
    }
  std::sort(rows.begin(), rows.end());
  std::ostringstream o;
  for (size_t i = 0; i < rows.size(); ++i) o << "    \"" << rows[i].second << "\"" << (i + 1 == rows.size() ? ")" : "") << "\n";
  return o.str();
}

// ---- cosim/common/cosim_top.sv: instances per group, the main depth, the parameter words ----
struct CosimPlan {
  std::string unit;
  int main = 0, depth = 0, pg_main = 0, pg_sweep = 0;
  std::vector<VariantSet> regression, sweep;
};

int cfg_word(const CatalogUnit& u, const VariantSet& s) {
  int w = 0;
  for (const CfgField& f : u.cosim_word) {
    const int v = param_value(u, s.params, f.name);
    if (v < 0 || v >= (1 << f.width)) throw Error(u.name, f.name, "value " + std::to_string(v) + " does not fit the cosim word");
    w |= v << f.lsb;
  }
  return w;
}

// The cosim top runs the regression sets as one group at the main STAGES and the sweep sets in
// groups of equal size at every other STAGES value 0..depth, in order: the catalog must say so.
CosimPlan cosim_plan(const CatalogUnit& u) {
  CosimPlan p;
  p.unit = u.name;
  p.regression = u.of(Purpose::regression);
  p.sweep = u.of(Purpose::sweep);
  p.depth = unit_by_name(u.name).max_stages();
  p.pg_main = static_cast<int>(p.regression.size());
  p.main = stages_of(p.regression.front());
  for (const VariantSet& s : p.regression)
    if (stages_of(s) != p.main) throw Error(u.name, "regression", "every set must have the same STAGES (" + param_text(s.params) + ")");
  if (p.depth == 0 || p.sweep.size() % static_cast<size_t>(p.depth) != 0)
    throw Error(u.name, "sweep", std::to_string(p.sweep.size()) + " sets do not fill " + std::to_string(p.depth) + " equal groups");
  p.pg_sweep = static_cast<int>(p.sweep.size()) / p.depth;
  for (size_t i = 0; i < p.sweep.size(); ++i) {
    const int g = static_cast<int>(i) / p.pg_sweep, want = g >= p.main ? g + 1 : g;
    if (stages_of(p.sweep[i]) != want)
      throw Error(u.name, "sweep", "set " + std::to_string(i) + " (" + param_text(p.sweep[i].params) + ") must be at STAGES=" +
                                       std::to_string(want));
  }
  return p;
}

std::string p_cases(const CatalogUnit& u, const std::vector<VariantSet>& sets, const std::string& pad) {
  std::ostringstream o;
  o << pad << "case (i)\n";
  for (size_t i = 0; i < sets.size(); ++i) {
    ParamList shown;
    for (const auto& kv : sets[i].params)
      if (kv.first != "STAGES") shown.push_back(kv);
    const std::string label = std::to_string(i) + ":";
    o << pad << "  " << label << std::string(label.size() < 9 ? 9 - label.size() : 1, ' ') << "p_of = " << cfg_word(u, sets[i])
      << ";  // " << param_text(shown) << ", STAGES " << stages_of(sets[i]) << "\n";
  }
  o << pad << "  default: p_of = 0;\n" << pad << "endcase\n";
  return o.str();
}

std::string cosim_top() {
  std::vector<std::pair<const CatalogUnit*, CosimPlan>> units;
  for (const CatalogUnit& u : unit_catalog())
    if (!u.of(Purpose::regression).empty()) units.emplace_back(&u, cosim_plan(u));
  size_t w = 0;
  for (const auto& x : units) w = std::max(w, x.first->name.size());
  auto label = [&](const std::string& n) { return upper(n) + ":" + std::string(w - n.size() + 1, ' '); };
  std::ostringstream o;
  o << "  // Instances per group: the unit's regression sets (SWEEP = 0), its sweep sets per STAGES value.\n"
    << "  function automatic int per_group();\n    case (UNIT)\n";
  for (const auto& [u, p] : units) {
    o << "      " << label(u->name) << "per_group = ";
    if (p.pg_main == p.pg_sweep) o << p.pg_main << ";\n";
    else o << "(SWEEP != 0) ? " << p.pg_sweep << " : " << p.pg_main << ";\n";
  }
  o << "      default: per_group = 1;\n    endcase\n  endfunction\n"
    << "  // The STAGES of the main model (SWEEP = 0); the sweep runs every other value 0..deepest().\n"
    << "  function automatic int main_stages();\n    case (UNIT)\n";
  for (const auto& [u, p] : units) o << "      " << label(u->name) << "main_stages = " << p.main << ";\n";
  o << "      default: main_stages = deepest();\n    endcase\n  endfunction\n"
    << "  // P of instance i (cfg bits 23..0): the unit's parameters other than STAGES, packed as the\n"
    << "  // harness reads them (cosim/<unit>/main.cpp); each line names the set.\n"
    << "  function automatic int p_of(int i);\n    p_of = 0;\n    case (UNIT)\n";
  for (const auto& [u, p] : units) {
    if (u->cosim_word.empty()) continue;
    o << "      " << upper(u->name) << ":\n        if (SWEEP == 0) begin\n"
      << p_cases(*u, p.regression, "          ") << "        end else begin\n"
      << p_cases(*u, p.sweep, "          ") << "        end\n";
  }
  o << "      default: p_of = 0;   // STAGES only\n    endcase\n  endfunction\n";
  return o.str();
}

// ---- hifsim_flows.pdk (the sky130 flow): the STAGES sweeps of the synthesis sets and the RTL defaults ----
// Per unit with STAGES: the synthesis sets sharing their other parameters with the most STAGES
// values (the sweep report_tables.py tables; a set without STAGES is at the default depth).
std::string stages_sweeps() {
  std::ostringstream o;
  o << "STAGES_SWEEPS = [\n    ";
  bool first = true;
  for (const CatalogUnit& u : unit_catalog()) {
    if (!u.param("STAGES")) continue;
    std::vector<std::pair<std::string, int>> groups;  // shared parameters, STAGES values
    for (const VariantSet& s : u.of(Purpose::synthesis)) {
      ParamList shared;
      for (const auto& kv : s.params)
        if (kv.first != "STAGES") shared.push_back(kv);
      const std::string key = shared.empty() ? "" : param_text(shared);
      auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == key; });
      if (it == groups.end()) groups.emplace_back(key, 1);
      else ++it->second;
    }
    if (groups.empty()) continue;
    const auto best = std::max_element(groups.begin(), groups.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    o << (first ? "" : ",\n    ") << "(\"" << u.name << "\", \"" << best->first << "\")";
    first = false;
  }
  o << ",\n]\n";
  return o.str();
}

std::string rtl_default_dict() {
  std::ostringstream o;
  o << "RTL_DEFAULTS = {\n";
  for (const CatalogUnit& u : unit_catalog()) {
    o << "    \"" << u.name << "\": {";
    for (size_t i = 0; i < u.params.size(); ++i)
      o << (i ? ", " : "") << "\"" << u.params[i].name << "\": \"" << u.params[i].dflt << "\"";
    o << "},\n";
  }
  o << "}\n";
  return o.str();
}

// ---- formal/jobs.py: every unit's RTL parameters with default and range, from which the formal
// jobs take their default parameter sets and the depths and options they cover (and against which
// every reduced set they name is checked when the jobs are listed).
std::string formal_params() {
  std::ostringstream o;
  o << "CATALOG = {\n";
  for (const CatalogUnit& u : unit_catalog()) {
    o << "    \"" << u.name << "\": {";
    for (size_t i = 0; i < u.params.size(); ++i) {
      const ParamRange& p = u.params[i];
      o << (i ? ", " : "") << "\"" << p.name << "\": (" << p.dflt << ", " << p.lo << ", " << p.hi << ")";
    }
    o << "},\n";
  }
  o << "}\n";
  return o.str();
}

struct Consumer {
  const char* path;
  std::string (*body)();
};
const std::vector<Consumer>& consumers() {
  static const std::vector<Consumer> v = {
      {"scripts/synth.sh", synth_units},
      {"scripts/cost_synth.sh", validation_units},
      {"rtl/CMakeLists.txt", rtl_checks},
      {"cosim/common/cosim_top.sv", cosim_top},
      {"cosim/tlm_calibration/CMakeLists.txt", calib_models},
      {"python/hifsim_flows/pdk/report_tables.py", stages_sweeps},
      {"python/hifsim_flows/pdk/stimulus.py", rtl_default_dict},
      {"formal/jobs.py", formal_params},
  };
  return v;
}

const Consumer* consumer(const std::string& path) {
  for (const Consumer& c : consumers()) {
    const std::string p = c.path;
    if (path == p || (path.size() > p.size() && path.compare(path.size() - p.size() - 1, p.size() + 1, "/" + p) == 0)) return &c;
  }
  return nullptr;
}

void write_set(JsonWriter& j, const CatalogUnit& u, const VariantSet& s) {
  j.begin_object();
  if (!s.name.empty()) j.kv("name", s.name);
  j.kv("parameters", param_text(s.params));
  j.key("values").begin_object();
  for (const ParamRange& p : u.params) j.kv(p.name, param_value(u, s.params, p.name));
  j.end_object();
  if (!s.yosys.empty()) j.kv("yosys", s.yosys);
  j.key("proxy");
  const auto pc = proxy_config(u.name, s.params);
  if (!pc) {
    j.null();
  } else {
    j.begin_object().kv("config", pc->config).key("sets").begin_array();
    for (const std::string& x : pc->sets) j.value(x);
    j.end_array().kv("figure", pc->figure).end_object();
  }
  j.end_object();
}

}  // namespace

std::string catalog_json() {
  JsonWriter j;
  j.begin_object().kv("schema", "hifsim-units/1");
  j.key("synthesis_order").begin_array();
  for (const std::string& n : synthesis_order()) j.value(n);
  j.end_array();
  j.key("units").begin_array();
  for (const CatalogUnit& u : unit_catalog()) {
    const UnitDesc d = unit_by_name(u.name);
    j.begin_object().kv("name", u.name).kv("label", d.label).kv("max_stages", d.max_stages());
    j.key("params").begin_array();
    for (const ParamRange& p : u.params)
      j.begin_object().kv("name", p.name).kv("default", p.dflt).kv("min", p.lo).kv("max", p.hi).end_object();
    j.end_array();
    j.key("cosim_word").begin_array();
    for (const CfgField& f : u.cosim_word) j.begin_object().kv("name", f.name).kv("lsb", f.lsb).kv("width", f.width).end_object();
    j.end_array();
    if (u.calib_pe >= 0) j.kv("calibration_pe", u.calib_pe).kv("calibration_block_bits", u.calib_block_bits);
    j.key("sets").begin_object();
    for (Purpose p : all_purposes()) {
      j.key(purpose_name(p)).begin_array();
      for (const VariantSet& s : u.of(p)) write_set(j, u, s);
      j.end_array();
    }
    j.end_object().end_object();
  }
  j.end_array().end_object();
  return j.str() + "\n";
}

const std::vector<std::string>& catalog_consumers() {
  static const std::vector<std::string> v = [] {
    std::vector<std::string> x;
    for (const Consumer& c : consumers()) x.push_back(c.path);
    return x;
  }();
  return v;
}

bool is_catalog_consumer(const std::string& path) { return consumer(path) != nullptr; }

std::string updated_consumer(const std::string& rel, const std::string& text) {
  const Consumer* c = consumer(rel);
  if (!c) throw Error(rel, "file", "has no part generated from the unit catalog");
  return replace_between(text, kBegin, kEnd, c->body(), rel);
}

}  // namespace hifsim::dp::hw
