#include "sweep/points.hpp"

#include <algorithm>

#include "util/checked.hpp"
#include "util/error.hpp"
#include "util/manifest.hpp"

namespace hifsim::sweep {
namespace {

// One axis of the expansion: a grid path, or a zip group whose paths take their values together.
struct Axis {
  std::vector<std::string> paths;
  std::vector<std::vector<std::string>> values;  // values[i] = one value per path
};

std::vector<Axis> axes_of(const SweepSpec& s) {
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
  return axes;
}

}  // namespace

size_t point_count(const SweepSpec& s) {
  // Checked: a product that wraps (2^64 points -> 0) must not pass as an empty sweep, and a
  // sweep far beyond what can be held in memory is refused up front.
  uint64_t total = 1;
  for (const auto& a : axes_of(s))
    if (!mul_u64(total, a.values.size(), total) || total > kMaxPoints)
      throw Error(s.file, "grid", "expands to more than " + std::to_string(kMaxPoints) + " points (the limit; split the sweep)");
  return static_cast<size_t>(total);
}

std::vector<Point> expand(const SweepSpec& s) {
  const std::vector<Axis> axes = axes_of(s);
  const size_t total = point_count(s);
  const std::string key = s.workload_key();
  std::vector<Point> pts(total);
  std::vector<size_t> pick(axes.size());
  for (size_t i = 0; i < total; ++i) {
    Point& p = pts[i];
    p.index = i;
    p.overrides = s.fixed;
    size_t rem = i;
    // The last axis varies fastest.
    for (size_t k = axes.size(); k-- > 0;) {
      pick[k] = rem % axes[k].values.size();
      rem /= axes[k].values.size();
    }
    for (size_t k = 0; k < axes.size(); ++k)
      for (size_t j = 0; j < axes[k].paths.size(); ++j) p.overrides.push_back(axes[k].paths[j] + "=" + axes[k].values[pick[k]][j]);
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
    // At most 9 digits: no shard count near the size_t range is meaningful, and stoull cannot throw.
    if (t.empty() || t.size() > 9 || t.find_first_not_of("0123456789") != std::string::npos)
      throw Error("--shard", s, "expected i/N with integers 0 <= i < N <= 999999999");
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

}  // namespace hifsim::sweep
