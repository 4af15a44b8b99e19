#include "verif/coverage.hpp"

#include <cstdio>

namespace hifsim::verif {

int Coverage::declare(const std::string& name, bool required) {
  const int existing = id(name);
  if (existing >= 0) return existing;
  bins_.push_back({name, required, 0});
  return static_cast<int>(bins_.size()) - 1;
}

int Coverage::declare_group(const std::string& prefix, const std::vector<std::string>& names, bool required) {
  return declare_each(static_cast<int>(names.size()), [&](int i) { return prefix + names[static_cast<size_t>(i)]; },
                      required);
}

int Coverage::declare_each(int n, const std::function<std::string(int)>& name, bool required) {
  int first = -1;
  for (int i = 0; i < n; ++i) {
    const int id = declare(name(i), required);
    if (i == 0) first = id;
  }
  return first;
}

int Coverage::id(const std::string& name) const {
  for (size_t i = 0; i < bins_.size(); ++i)
    if (bins_[i].name == name) return static_cast<int>(i);
  return -1;
}

int Coverage::unhit_required() const {
  int n = 0;
  for (const auto& b : bins_) n += (b.required && b.count == 0) ? 1 : 0;
  return n;
}

void Coverage::print(bool all) const {
  if (bins_.empty()) return;  // a harness without bins (e.g. the SystemC bridge test)
  int req = 0, hit = 0;
  for (const auto& b : bins_)
    if (b.required) {
      ++req;
      hit += b.count ? 1 : 0;
    }
  std::printf("coverage: %d/%d declared bins hit (%zu bins in all)\n", hit, req, bins_.size());
  // Compact table: four bins per line; with `all` false only the missing ones and the
  // non-required (informational) bins are listed.
  int col = 0;
  for (const auto& b : bins_) {
    const bool missing = b.required && b.count == 0;
    if (!all && !missing && b.required) continue;
    char buf[96];
    if (missing) std::snprintf(buf, sizeof buf, "%-30s MISSING", b.name.c_str());
    else std::snprintf(buf, sizeof buf, "%-28s %9llu%s", b.name.c_str(), static_cast<unsigned long long>(b.count), b.required ? " " : "i");
    std::printf("  %-40s", buf);
    if (++col == 3) {
      std::printf("\n");
      col = 0;
    }
  }
  if (col) std::printf("\n");
  if (!all) std::printf("  (declared bins that were hit are listed with --verbose; 'i' = informational bin)\n");
}

}  // namespace hifsim::verif
