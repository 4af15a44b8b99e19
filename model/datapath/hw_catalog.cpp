// Every unit by name, with the RTL module's parameters, defaults and ranges (hw.hpp).
#include <map>

#include "datapath/hw.hpp"
#include "util/error.hpp"

namespace hifsim::dp::hw {

namespace {

using Params = std::vector<std::pair<std::string, int>>;

// A unit by name: its RTL parameters with the RTL module's defaults and allowed ranges.
struct ParamSpec {
  std::string name;
  int dflt, lo, hi;
};
struct Entry {
  std::string name;
  std::vector<ParamSpec> params;
  UnitDesc (*build)(const std::map<std::string, int>& v);
};

int at(const std::map<std::string, int>& v, const char* k) { return v.at(k); }

DotParams dot(fmt::Format f, int stages) { return default_dot_params(f, stages); }

UnitDesc hif8(const std::map<std::string, int>& v) {
  DotParams p = dot(fmt::Format::hif8, at(v, "STAGES"));
  p.lanes = at(v, "N");
  p.align_width = at(v, "W") == 0 ? kHif8ExactWidth : at(v, "W");
  p.policy = at(v, "STICKY") ? AlignPolicy::sticky : AlignPolicy::trunc;
  return describe_dot(p);
}
UnitDesc bf16(const std::map<std::string, int>& v) {
  DotParams p = dot(fmt::Format::bf16, at(v, "STAGES"));
  p.align_width = at(v, "W");
  p.policy = at(v, "STICKY") ? AlignPolicy::sticky : AlignPolicy::trunc;
  return describe_dot(p);
}
AccSpec acc(const std::map<std::string, int>& v) {
  AccSpec a;
  if (at(v, "MANT_BITS") != 23 || at(v, "ROUND_RZ")) {
    a.kind = AccSpec::fp32_reduced;
    a.mant_bits = at(v, "MANT_BITS");
    a.mode = at(v, "ROUND_RZ") ? RoundMode::rz : RoundMode::rne;
  }
  return a;
}
UnitDesc sparse(const std::map<std::string, int>& v) { return describe_sparse_residual_add(at(v, "STAGES"), acc(v)); }

const std::vector<Entry>& entries() {
  static const std::vector<Entry> e = {
      {"hif4_dot64", {{"STAGES", 3, 0, 5}}, [](auto& v) { return describe_dot(dot(fmt::Format::hif4, at(v, "STAGES"))); }},
      {"nvfp4_dot64", {{"STAGES", 3, 0, 5}}, [](auto& v) { return describe_dot(dot(fmt::Format::nvfp4, at(v, "STAGES"))); }},
      {"mxfp4_dot64", {{"STAGES", 2, 0, 4}}, [](auto& v) { return describe_dot(dot(fmt::Format::mxfp4, at(v, "STAGES"))); }},
      {"mxfp8_dot32",
       {{"E5M2", 0, 0, 1}, {"STAGES", 2, 0, 3}},
       [](auto& v) {
         return describe_dot(dot(at(v, "E5M2") ? fmt::Format::mxfp8_e5m2 : fmt::Format::mxfp8_e4m3, at(v, "STAGES")));
       }},
      {"hif8_dot", {{"N", 64, 16, 64}, {"W", 0, 0, 112}, {"STICKY", 0, 0, 1}, {"STAGES", 3, 0, 4}}, hif8},
      {"bf16_dot64", {{"W", 64, 16, 112}, {"STICKY", 1, 0, 1}, {"STAGES", 3, 0, 4}}, bf16},
      {"fp32_acc", {{"MANT_BITS", 23, 1, 23}, {"ROUND_RZ", 0, 0, 1}}, [](auto& v) { return describe_acc(acc(v)); }},
      {"sparse_residual_add", {{"STAGES", 3, 0, 5}, {"MANT_BITS", 23, 1, 23}, {"ROUND_RZ", 0, 0, 1}}, sparse},
      {"hif4_quantizer", {{"STAGES", 3, 0, 4}, {"ASCEND_A6", 0, 0, 1}},
       [](auto& v) {
         UnitDesc d = describe_quantizer(fmt::Format::hif4, 64, at(v, "ASCEND_A6") != 0);
         d.stages = at(v, "STAGES");
         d.rtl_params = {{"STAGES", d.stages}, {"ASCEND_A6", at(v, "ASCEND_A6")}};
         return d;
       }},
  };
  return e;
}

std::string names() {
  std::string s;
  for (const Entry& e : entries()) s += (s.empty() ? "" : ", ") + e.name;
  return s;
}

}  // namespace

UnitDesc unit_by_name(const std::string& name, const Params& params) {
  for (const Entry& e : entries()) {
    if (e.name != name) continue;
    std::map<std::string, int> v;
    for (const ParamSpec& p : e.params) v[p.name] = p.dflt;
    for (const auto& [k, x] : params) {
      const ParamSpec* spec = nullptr;
      for (const ParamSpec& p : e.params)
        if (p.name == k) spec = &p;
      if (!spec) {
        std::string known;
        for (const ParamSpec& p : e.params) known += (known.empty() ? "" : ", ") + p.name;
        throw Error(name, k, "unknown parameter (this unit has " + known + ")");
      }
      if (x < spec->lo || x > spec->hi)
        throw Error(name, k, "must be in " + std::to_string(spec->lo) + ".." + std::to_string(spec->hi) + ", got " + std::to_string(x));
      v[k] = x;
    }
    return e.build(v);
  }
  throw Error("--unit", name, "unknown unit (one of " + names() + ")");
}

std::vector<RtlParam> rtl_defaults(const std::string& name) {
  std::vector<RtlParam> v;
  for (const Entry& e : entries())
    if (e.name == name)
      for (const ParamSpec& p : e.params) v.push_back({p.name, p.dflt});
  return v;
}

std::vector<NamedUnit> all_units() {
  std::vector<NamedUnit> v;
  for (const Entry& e : entries()) v.push_back({e.name, unit_by_name(e.name, {})});
  return v;
}

}  // namespace hifsim::dp::hw
