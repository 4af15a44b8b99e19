// libFuzzer harness: the sweep-file reader and the point expansion (model/sweep/sweep.cpp,
// points.cpp) on arbitrary text. load_sweep() reads a path, so each input is written to a scratch
// folder that also holds a base unit config (base.yaml) and an empty trace folder (t/trace.yaml)
// for the file's references to resolve. An accepted sweep must count its points as the product
// of its axes (computed here independently) and refuse a product that overflows or exceeds the
// limit, the path that used to wrap; small ones (at most 256 points: listing millions would only
// measure memory) must expand to that many points with distinct ids.
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <set>

#include "fuzz_common.hpp"
#include "sweep/points.hpp"
#include "sweep/sweep.hpp"
#include "util/checked.hpp"
#include "util/files.hpp"

namespace {
std::string g_scratch;

// Removed when the fuzzer exits normally (a crash leaves it, with the input, for a look).
void remove_scratch() {
  for (const char* f : {"/s.yaml", "/base.yaml", "/t/trace.yaml"}) unlink((g_scratch + f).c_str());
  rmdir((g_scratch + "/t").c_str());
  rmdir(g_scratch.c_str());
}

const std::string& scratch() {
  if (g_scratch.empty()) {
    char t[] = "/tmp/hifsim-fuzz-sweep-XXXXXX";
    g_scratch = mkdtemp(t);
    std::ofstream(g_scratch + "/base.yaml") << "schema: hifsim-unit/1\nname: b\npe: {format: hif4}\narray: {rows: 4, cols: 4}\n";
    hifsim::make_dirs(g_scratch + "/t");
    std::ofstream(g_scratch + "/t/trace.yaml") << "schema: hifsim-trace/1\n";
    std::atexit(remove_scratch);
  }
  return g_scratch;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = scratch() + "/s.yaml";
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  hifsim::fuzz::expect_only_hifsim_errors(path, [&] {
    const hifsim::sweep::SweepSpec s = hifsim::sweep::load_sweep(path);
    uint64_t points = 1;
    bool fits = true;
    for (const auto& [p, v] : s.grid) fits = fits && hifsim::mul_u64(points, v.size(), points);
    for (const auto& g : s.zips) fits = fits && hifsim::mul_u64(points, g.empty() ? 0 : g.front().second.size(), points);
    if (!fits || points > hifsim::sweep::kMaxPoints) {
      hifsim::sweep::point_count(s);
      hifsim::fuzz::require(false, "a grid above the limit was counted");
    }
    hifsim::fuzz::require(hifsim::sweep::point_count(s) == points, "point count differs from the product of the axes");
    if (points <= 256) {
      const auto pts = hifsim::sweep::expand(s);
      hifsim::fuzz::require(pts.size() == points, "expansion size differs from the grid product");
      std::set<std::string> ids;
      for (const auto& p : pts) ids.insert(p.id);
      hifsim::fuzz::require(ids.size() == pts.size(), "two points of one sweep have the same id");
    }
  });
  return 0;
}
