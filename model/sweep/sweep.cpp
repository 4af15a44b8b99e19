#include "sweep/sweep.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>
#include <unistd.h>

#include "io/npy.hpp"
#include "io/yaml_input.hpp"
#include "util/checked.hpp"
#include "util/files.hpp"
#include "util/error.hpp"
#include "util/manifest.hpp"
#include "util/parallel.hpp"

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

std::string json_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    o += c;
  }
  return o;
}

// Flattens a parsed JSON object into dotted keys (scalars only).
void flatten(const YAML::Node& n, const std::string& prefix, std::vector<std::pair<std::string, std::string>>& out) {
  if (n.IsMap()) {
    for (auto it = n.begin(); it != n.end(); ++it)
      flatten(it->second, prefix.empty() ? it->first.Scalar() : prefix + "." + it->first.Scalar(), out);
  } else if (n.IsScalar()) {
    out.emplace_back(prefix, n.Scalar());
  }
}

std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string o = "\"";
  for (char c : s) {
    if (c == '"') o += '"';
    o += c;
  }
  return o + "\"";
}

}  // namespace

std::string SweepSpec::workload_key() const {
  std::string k = workload_trace.empty() ? "gemm:" : "trace:" + file_hash(workload_trace + "/trace.yaml");
  for (uint64_t v : workload_gemm) k += std::to_string(v) + ",";
  if (!accuracy_trace.empty()) {
    k += "|accuracy:" + file_hash(accuracy_trace + "/trace.yaml") + ":";
    for (const auto& o : accuracy_ops) k += o + ",";
  }
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
  if (!path_exists(s.base)) throw Error(path, "base", "'" + s.base + "' does not exist");
  s.base_hash = file_hash(s.base);
  const YAML::Node w = root["workload"];
  if (!w || !w.IsMap()) throw Error(path, "workload", "required mapping: {trace: DIR} or {gemm: [M, N, K]}");
  check_keys(w, path, "workload", {"trace", "gemm"});
  if (w["trace"] && w["gemm"]) throw Error(path, "workload", "give trace or gemm, not both");
  if (w["trace"]) {
    s.workload_trace = resolve(s.dir, w["trace"].Scalar());
    if (!path_exists(s.workload_trace + "/trace.yaml")) throw Error(path, "workload.trace", "'" + s.workload_trace + "/trace.yaml' does not exist");
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
    if (!path_exists(s.accuracy_trace + "/trace.yaml"))
      throw Error(path, "accuracy.trace", "'" + s.accuracy_trace + "/trace.yaml' does not exist");
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
    for (const auto& [p, v] : s.grid) add_axis(p, "grid");
  }
  if (root["zip"]) {
    if (!root["zip"].IsSequence()) throw Error(path, "zip", "must be a list of groups");
    for (size_t g = 0; g < root["zip"].size(); ++g) {
      const std::string field = "zip[" + std::to_string(g) + "]";
      auto group = axis_map(root["zip"][g], path, field);
      for (const auto& [p, v] : group) {
        add_axis(p, field);
        if (v.size() != group.front().second.size())
          throw Error(path, field + "." + p, "has " + std::to_string(v.size()) + " values, the group's first list has " +
                                                 std::to_string(group.front().second.size()));
      }
      s.zips.push_back(group);
    }
  }
  if (s.axis_paths.empty()) throw Error(path, "grid", "nothing to sweep: give grid and/or zip");
  return s;
}

std::vector<Point> expand(const SweepSpec& s) {
  // Axes in order: every grid path, then every zip group (one axis each, values varied together).
  struct Axis {
    std::vector<std::string> paths;
    std::vector<std::vector<std::string>> values;  // values[i] = one value per path
  };
  std::vector<Axis> axes;
  for (const auto& [p, vals] : s.grid) {
    Axis a;
    a.paths = {p};
    for (const auto& v : vals) a.values.push_back({v});
    axes.push_back(a);
  }
  for (const auto& group : s.zips) {
    Axis a;
    for (const auto& [p, v] : group) a.paths.push_back(p);
    for (size_t i = 0; i < group.front().second.size(); ++i) {
      std::vector<std::string> row;
      for (const auto& [p, v] : group) row.push_back(v[i]);
      a.values.push_back(row);
    }
    axes.push_back(a);
  }
  // The grid's size with checked arithmetic: a product that wraps (2^64 points -> 0) must not
  // pass as an empty sweep, and a sweep far beyond what can be listed is refused up front.
  uint64_t total = 1;
  for (const auto& a : axes)
    if (!mul_u64(total, a.values.size(), total) || total > kMaxPoints)
      throw Error(s.file, "grid", "expands to more than " + std::to_string(kMaxPoints) + " points (the limit; split the sweep)");
  const std::string key = s.workload_key();
  std::vector<Point> pts(total);
  for (size_t i = 0; i < total; ++i) {
    Point& p = pts[i];
    p.index = i;
    p.overrides = s.fixed;
    uint64_t rem = i;
    // The last axis varies fastest.
    std::vector<size_t> pick(axes.size());
    for (size_t k = axes.size(); k-- > 0;) {
      pick[k] = rem % axes[k].values.size();
      rem /= axes[k].values.size();
    }
    for (size_t k = 0; k < axes.size(); ++k)
      for (size_t j = 0; j < axes[k].paths.size(); ++j) {
        p.axes.emplace_back(axes[k].paths[j], axes[k].values[pick[k]][j]);
        p.overrides.push_back(axes[k].paths[j] + "=" + axes[k].values[pick[k]][j]);
      }
    std::vector<std::string> sorted = p.overrides;
    std::sort(sorted.begin(), sorted.end());
    std::string content = std::string(kSweepSchema) + "\n" + s.base_hash + "\n" + key + "\n";
    for (const auto& o : sorted) content += o + "\n";
    p.id = fnv1a64_hex(content);
  }
  return pts;
}

std::pair<size_t, size_t> parse_shard(const std::string& s) {
  const size_t slash = s.find('/');
  auto num = [&](const std::string& t) {
    if (t.empty() || t.find_first_not_of("0123456789") != std::string::npos)
      throw Error("--shard", s, "expected i/N with integers 0 <= i < N");
    return static_cast<size_t>(std::stoull(t));
  };
  if (slash == std::string::npos) throw Error("--shard", s, "expected i/N with integers 0 <= i < N");
  const size_t i = num(s.substr(0, slash)), n = num(s.substr(slash + 1));
  if (n == 0 || i >= n) throw Error("--shard", s, "expected i/N with integers 0 <= i < N");
  return {i, n};
}

std::vector<Point> shard(const std::vector<Point>& all, size_t i, size_t n) {
  std::vector<Point> out;
  for (size_t k = i; k < all.size(); k += n) out.push_back(all[k]);
  return out;
}

bool point_done(const std::string& out_dir, const Point& p) {
  std::ifstream f(out_dir + "/points/" + p.id + "/result.json");
  if (!f) return false;
  std::string s((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  return s.find("\"status\": \"ok\"") != std::string::npos;
}

size_t run_points(const std::vector<Point>& points, const std::string& out_dir, const Evaluator& evaluate,
                  const RunOptions& o) {
  std::vector<const Point*> todo;
  for (const Point& p : points)
    if (!point_done(out_dir, p)) todo.push_back(&p);
  if (o.max_points && todo.size() > o.max_points) todo.resize(o.max_points);
  const size_t skipped = points.size() - todo.size();
  if (!o.quiet)
    std::cerr << "[sweep] " << points.size() << " points, " << (points.size() - todo.size()) << " already done, "
              << todo.size() << " to run\n";
  (void)skipped;
  std::atomic<size_t> next{0}, done{0};
  std::mutex mu;
  std::exception_ptr first_error;
  const auto t0 = std::chrono::steady_clock::now();
  const bool tty = isatty(2);
  auto progress = [&](size_t d) {
    if (o.quiet) return;
    const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double eta = d ? el / d * (todo.size() - d) : 0;
    const int width = 30, fill = todo.empty() ? width : static_cast<int>(width * d / todo.size());
    char line[160];
    std::snprintf(line, sizeof line, "[sweep] [%s%s] %zu/%zu points  %.0f s elapsed, eta %.0f s",
                  std::string(fill, '#').c_str(), std::string(width - fill, '.').c_str(), d, todo.size(), el, eta);
    std::lock_guard<std::mutex> lk(mu);
    if (tty) std::cerr << "\r" << line << (d == todo.size() ? "\n" : "") << std::flush;
    else if (d == todo.size() || d % std::max<size_t>(1, todo.size() / 10) == 0) std::cerr << line << "\n";
  };
  const unsigned jobs = std::min<unsigned>(resolve_threads(o.jobs), static_cast<unsigned>(std::max<size_t>(1, todo.size())));
  std::vector<std::thread> pool;
  for (unsigned w = 0; w < jobs; ++w) {
    pool.emplace_back([&] {
      for (;;) {
        const size_t i = next++;
        if (i >= todo.size()) return;
        {
          std::lock_guard<std::mutex> lk(mu);
          if (first_error) return;
        }
        const Point& p = *todo[i];
        try {
          const std::string json = evaluate(p);
          const std::string dir = out_dir + "/points/" + p.id;
          make_dirs(dir);
          std::string pt = "{\n  \"id\": \"" + p.id + "\",\n  \"index\": " + std::to_string(p.index) + ",\n  \"overrides\": [";
          for (size_t k = 0; k < p.overrides.size(); ++k) pt += (k ? ", \"" : "\"") + json_escape(p.overrides[k]) + "\"";
          pt += "]\n}\n";
          io::write_file_atomic(dir + "/point.json", pt);
          io::write_file_atomic(dir + "/result.json", json);  // last: marks the point finished
        } catch (...) {
          std::lock_guard<std::mutex> lk(mu);
          if (!first_error) first_error = std::current_exception();
          return;
        }
        progress(++done);
      }
    });
  }
  for (auto& t : pool) t.join();
  if (first_error) std::rethrow_exception(first_error);
  return done;
}

size_t merge_results(const SweepSpec& s, const std::vector<Point>& all, const std::string& out_dir) {
  std::vector<std::string> cols;
  std::set<std::string> colset;
  std::vector<std::pair<const Point*, std::vector<std::pair<std::string, std::string>>>> rows;
  std::string missing;
  for (const Point& p : all) {
    if (!point_done(out_dir, p)) {
      missing += p.id + "\n";
      continue;
    }
    YAML::Node r;
    const std::string rp = out_dir + "/points/" + p.id + "/result.json";
    try {
      r = YAML::LoadFile(rp);
    } catch (const YAML::Exception& e) {
      throw Error(rp, "", "unreadable result: " + e.msg);
    }
    std::vector<std::pair<std::string, std::string>> flat;
    flatten(r, "", flat);
    for (const auto& [k, v] : flat)
      if (k != "status" && colset.insert(k).second) cols.push_back(k);
    rows.emplace_back(&p, flat);
  }
  std::ostringstream csv;
  csv << "id";
  for (const auto& a : s.axis_paths) csv << "," << csv_cell(a);
  for (const auto& c : cols) csv << "," << csv_cell(c);
  csv << "\n";
  for (const auto& [p, flat] : rows) {
    std::map<std::string, std::string> m(flat.begin(), flat.end());
    csv << p->id;
    for (const auto& [path, v] : p->axes) {
      (void)path;
      csv << "," << csv_cell(v);
    }
    for (const auto& c : cols) csv << "," << csv_cell(m.count(c) ? m[c] : "");
    csv << "\n";
  }
  make_dirs(out_dir);
  io::write_file_atomic(out_dir + "/results.csv", csv.str());
  io::write_file_atomic(out_dir + "/missing.txt", missing);
  return rows.size();
}

std::string slurm_script(const SweepSpec& s, const std::string& out_dir, size_t tasks, const std::string& bin) {
  std::ostringstream o;
  o << "#!/bin/bash\n"
    << "# Slurm job array for the hifsim sweep '" << s.name << "' (" << s.file << ").\n"
    << "# Submit:   sbatch " << out_dir << "/sweep.slurm\n"
    << "# Merge:    " << bin << " sweep --sweep " << s.file << " --out " << out_dir << " --merge-only\n"
    << "#           (or: sbatch --dependency=afterok:<jobid> --wrap \"" << bin << " sweep --sweep " << s.file
    << " --out " << out_dir << " --merge-only\")\n"
    << "# Each task runs one shard; finished points are skipped, so a resubmitted task resumes.\n"
    << "#SBATCH --job-name=hifsim-" << s.name << "\n"
    << "#SBATCH --array=0-" << (tasks ? tasks - 1 : 0) << "\n"
    << "#SBATCH --cpus-per-task=2\n"
    << "#SBATCH --output=" << out_dir << "/logs/slurm-%A_%a.log\n"
    << "set -euo pipefail\n"
    << "mkdir -p " << out_dir << "/logs\n"
    << "\"" << bin << "\" sweep --sweep \"" << s.file << "\" --out \"" << out_dir
    << "\" --shard \"${SLURM_ARRAY_TASK_ID}/" << tasks << "\" --jobs \"${SLURM_CPUS_PER_TASK:-1}\" --quiet\n";
  return o.str();
}

}  // namespace hifsim::sweep
