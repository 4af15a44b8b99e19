// Coverage bins of a verification run (docs/cosim.md "Coverage"): declared bins must be hit at
// least once or the run fails; informational bins only count. Shared by the Verilated
// co-simulation (cosim/) and the conformance vectors (hifsim vectors), whose README lists the bins
// its vectors hit.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace hifsim::verif {

class Coverage {
 public:
  // A declared bin (required = true) must be hit at least once or the run fails.
  int declare(const std::string& name, bool required = true);
  // Declares prefix[i] for i in names; returns the first id (ids are consecutive).
  int declare_group(const std::string& prefix, const std::vector<std::string>& names, bool required = true);
  // Declares name(0), ..., name(n - 1) (a numbered family or a grid flattened row by row);
  // returns the first id.
  int declare_each(int n, const std::function<std::string(int)>& name, bool required = true);
  void hit(int id, uint64_t n = 1) { bins_[static_cast<size_t>(id)].count += n; }
  int id(const std::string& name) const;  // -1 if unknown
  uint64_t count(int id) const { return bins_[static_cast<size_t>(id)].count; }
  size_t size() const { return bins_.size(); }
  const std::string& name(int id) const { return bins_[static_cast<size_t>(id)].name; }
  bool required(int id) const { return bins_[static_cast<size_t>(id)].required; }
  int unhit_required() const;
  // Prints "coverage: H/N declared bins hit" and a compact table (every bin with its count;
  // unhit declared bins are marked "MISSING").
  void print(bool all) const;

 private:
  struct Bin {
    std::string name;
    bool required;
    uint64_t count;
  };
  std::vector<Bin> bins_;
};

}  // namespace hifsim::verif
