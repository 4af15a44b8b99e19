#include "sweep/sweep.hpp"

#include <yaml-cpp/yaml.h>

#include <map>
#include <set>

#include "io/input_file.hpp"
#include "io/yaml_input.hpp"
#include "util/checked.hpp"
#include "util/files.hpp"
#include "util/error.hpp"
#include "util/manifest.hpp"

namespace hifsim::sweep {
namespace {

std::string resolve(const std::string& dir, const std::string& p) {
  if (p.empty() || p[0] == '/') return p;
  // Paths in a sweep file are relative to the sweep file's folder, else to the working folder.
  const std::string rel = dir.empty() ? p : dir + "/" + p;
  return path_exists(rel) ? rel : p;
}

std::string scalar_text(const YAML::Node& n, const std::string& file, const std::string& field) {
  if (!n.IsScalar()) throw Error(file, field, "must be a scalar value (number, boolean or string)");
  return n.Scalar();
}

std::vector<std::pair<std::string, std::vector<std::string>>> axis_map(const YAML::Node& n, const std::string& file,
                                                                       const std::string& field) {
  if (!n.IsMap()) throw Error(file, field, "must be a mapping of field path -> list of values");
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  for (auto it = n.begin(); it != n.end(); ++it) {
    const std::string path = it->first.Scalar();
    const std::string f = field + "." + path;
    if (!it->second.IsSequence() || it->second.size() == 0) throw Error(file, f, "must be a non-empty list of values");
    std::vector<std::string> vals;
    for (size_t i = 0; i < it->second.size(); ++i)
      vals.push_back(scalar_text(it->second[i], file, f + "[" + std::to_string(i) + "]"));
    out.emplace_back(path, vals);
  }
  return out;
}

// Two equal entries of one axis (a grid list, or a zip group's value tuple) would be two points
// with the same overrides, hence the same id: one point evaluated twice, whose records cannot be
// told apart. Refused, naming the later entry (fuzz_sweep checks that ids are distinct).
void check_distinct(const std::vector<std::pair<std::string, std::vector<std::string>>>& group, const std::string& file,
                    const std::string& field) {
  std::map<std::vector<std::string>, size_t> first;
  for (size_t i = 0; i < group.front().second.size(); ++i) {
    std::vector<std::string> entry;
    for (const auto& axis : group) entry.push_back(axis.second[i]);
    const auto [it, fresh] = first.emplace(std::move(entry), i);
    if (!fresh)
      throw Error(file, field + "[" + std::to_string(i) + "]",
                  "the same value as entry [" + std::to_string(it->second) + "]: the two points would be one");
  }
}

void check_keys(const YAML::Node& n, const std::string& file, const std::string& field,
                const std::set<std::string>& allowed) {
  for (auto it = n.begin(); it != n.end(); ++it) {
    const std::string k = it->first.Scalar();
    if (!allowed.count(k)) {
      std::string a;
      for (const auto& x : allowed) a += (a.empty() ? "" : ", ") + x;
      throw Error(file, field.empty() ? k : field + "." + k, "unknown field (allowed: " + a + ")");
    }
  }
}

// "trace:<hash of trace.yaml>" plus, when the trace names tensor files, the hash of their
// contents: a resumed sweep whose tensors changed (recaptured, edited) must not keep the old
// points (their ids hashed trace.yaml only, which may name the same files). Each file once, in
// order of first mention; a missing one counts as "missing" (the trace reader reports it).
std::string trace_key(const std::string& dir) {
  std::string key = file_hash(dir + "/trace.yaml"), tensors;
  const YAML::Node root = io::load_yaml_file(dir + "/trace.yaml");
  std::set<std::string> seen;
  if (root.IsMap() && root["ops"] && root["ops"].IsSequence())
    for (const YAML::Node& op : root["ops"])
      for (const char* role : {"a", "b", "c_ref"}) {
        if (!op.IsMap() || !op[role] || !op[role].IsMap() || !op[role]["file"] || !op[role]["file"].IsScalar()) continue;
        const std::string f = op[role]["file"].Scalar();
        if (!seen.insert(f).second) continue;
        const std::string path = dir + "/" + f;
        tensors += f + "=" + (io::not_regular_reason(path).empty() ? file_hash(path) : std::string("missing")) + ";";
      }
  return key + (tensors.empty() ? "" : "+tensors:" + fnv1a64_hex(tensors));
}

}  // namespace

std::string SweepSpec::workload_key() const {
  std::string k = workload_trace.empty() ? "gemm:" : "trace:" + trace_key(workload_trace);
  for (uint64_t v : workload_gemm) k += std::to_string(v) + ",";
  if (!accuracy_trace.empty()) {
    k += "|accuracy:" + trace_key(accuracy_trace) + ":";
    for (const auto& o : accuracy_ops) k += o + ",";
  }
  if (!evaluation.empty()) k += "|evaluation:" + evaluation;
  return k;
}

SweepSpec load_sweep(const std::string& path) {
  SweepSpec s;
  s.file = path;
  const size_t slash = path.rfind('/');
  s.dir = slash == std::string::npos ? "" : path.substr(0, slash);
  if (!path_exists(path)) throw Error(path, "", "sweep file does not exist");
  const YAML::Node root = io::load_yaml_file(path);  // regular file, size bound, no duplicate keys
  if (!root.IsMap()) throw Error(path, "(top level)", "must be a mapping");
  check_keys(root, path, "", {"schema", "name", "base", "workload", "accuracy", "set", "grid", "zip", "description"});
  if (!root["schema"] || root["schema"].Scalar() != kSweepSchema)
    throw Error(path, "schema", std::string("must be ") + kSweepSchema);
  s.name = root["name"] ? root["name"].Scalar() : "sweep";
  if (!root["base"]) throw Error(path, "base", "required field is missing (the base unit config)");
  s.base = resolve(s.dir, root["base"].Scalar());
  // A folder named as the base used to reach file_hash() and throw std::ios_base::failure
  // (found by fuzz_sweep): the base must be a regular file, like every config hifsim reads.
  if (const std::string why = io::not_regular_reason(s.base); !why.empty())
    throw Error(path, "base", "'" + s.base + "' " + why);
  s.base_hash = file_hash(s.base);
  const YAML::Node w = root["workload"];
  if (!w || !w.IsMap()) throw Error(path, "workload", "required mapping: {trace: DIR} or {gemm: [M, N, K]}");
  check_keys(w, path, "workload", {"trace", "gemm"});
  if (w["trace"] && w["gemm"]) throw Error(path, "workload", "give trace or gemm, not both");
  if (w["trace"]) {
    s.workload_trace = resolve(s.dir, w["trace"].Scalar());
    if (const std::string why = io::not_regular_reason(s.workload_trace + "/trace.yaml"); !why.empty())
      throw Error(path, "workload.trace", "'" + s.workload_trace + "/trace.yaml' " + why);
  } else if (w["gemm"]) {
    if (!w["gemm"].IsSequence() || w["gemm"].size() != 3) throw Error(path, "workload.gemm", "must be [M, N, K]");
    for (size_t i = 0; i < 3; ++i) {
      const std::string t = scalar_text(w["gemm"][i], path, "workload.gemm[" + std::to_string(i) + "]");
      uint64_t v = 0;
      if (!parse_u64(t, v) || v == 0)
        throw Error(path, "workload.gemm[" + std::to_string(i) + "]", "must be a positive integer below 2^64, got '" + t + "'");
      s.workload_gemm.push_back(v);
    }
  } else {
    throw Error(path, "workload", "give trace or gemm");
  }
  if (const YAML::Node a = root["accuracy"]) {
    if (!a.IsMap()) throw Error(path, "accuracy", "must be a mapping {trace: DIR, ops: [...]}");
    check_keys(a, path, "accuracy", {"trace", "ops"});
    if (!a["trace"]) throw Error(path, "accuracy.trace", "required field is missing");
    s.accuracy_trace = resolve(s.dir, a["trace"].Scalar());
    if (const std::string why = io::not_regular_reason(s.accuracy_trace + "/trace.yaml"); !why.empty())
      throw Error(path, "accuracy.trace", "'" + s.accuracy_trace + "/trace.yaml' " + why);
    if (a["ops"])
      for (size_t i = 0; i < a["ops"].size(); ++i) s.accuracy_ops.push_back(a["ops"][i].Scalar());
  }
  std::set<std::string> seen;
  if (const YAML::Node fx = root["set"]) {
    if (!fx.IsMap()) throw Error(path, "set", "must be a mapping of field path -> value");
    for (auto it = fx.begin(); it != fx.end(); ++it) {
      const std::string p = it->first.Scalar();
      s.fixed.push_back(p + "=" + scalar_text(it->second, path, "set." + p));
      seen.insert(p);
    }
  }
  auto add_axis = [&](const std::string& p, const std::string& field) {
    if (!seen.insert(p).second) throw Error(path, field + "." + p, "field swept twice (or also in `set`)");
    s.axis_paths.push_back(p);
  };
  if (root["grid"]) {
    s.grid = axis_map(root["grid"], path, "grid");
    for (const auto& [p, v] : s.grid) {
      add_axis(p, "grid");
      check_distinct({{p, v}}, path, "grid." + p);
    }
  }
  if (root["zip"]) {
    if (!root["zip"].IsSequence()) throw Error(path, "zip", "must be a list of groups");
    for (size_t g = 0; g < root["zip"].size(); ++g) {
      const std::string field = "zip[" + std::to_string(g) + "]";
      auto group = axis_map(root["zip"][g], path, field);
      // Its first list gives the group's length: an empty group `{}` had none, and the expansion
      // read the first list of an empty vector (SIGSEGV; found by fuzz_sweep).
      if (group.empty()) throw Error(path, field, "an empty group: give field paths with their lists of values");
      for (const auto& [p, v] : group) {
        add_axis(p, field);
        if (v.size() != group.front().second.size())
          throw Error(path, field + "." + p, "has " + std::to_string(v.size()) + " values, the group's first list has " +
                                                 std::to_string(group.front().second.size()));
      }
      check_distinct(group, path, field);
      s.zips.push_back(group);
    }
  }
  if (s.axis_paths.empty()) throw Error(path, "grid", "nothing to sweep: give grid and/or zip");
  return s;
}

}  // namespace hifsim::sweep
