// tlm_calibration: the TLM model against the cycle-accurate RTL matrix unit
// (rtl/array/matrix_unit_top.sv; docs/tlm.md section 11).
//
// For a unit config (configs/units/rtl/*.yaml, optionally with --set overrides such as
// array.dataflow=ws) and the Verilated model of its PE type, every GEMM of a shape table runs on
// the RTL -- with the schedule of perf::build_schedule as its program, or (--seq) with the
// unit's own sequencer -- and on the TLM model. The RTL's C must equal dp::gemm bit for bit and
// its cycles the TLM's. The table of TLM cycles, RTL cycles and the error is printed (and
// written with --table FILE).
//
//   tlm_calibration --pe NAME --config U.yaml [--set field=value ...] [--seq] [--shapes M,N,K;...]
//                   [--random N [--random-tiles]] [--seed S] [--sensitivity] [--table FILE]
//                   [--max-error PERCENT]
//
// Quick level: the default table of 13 shapes, the TLM side is the SystemC TLM-2.0 platform
// (tlm_model::run_tlm). --random N: N random shapes (and with --random-tiles random tile sizes
// up to the RTL buffers, per shape); the TLM side is then the plain engine (perf::run_plain, the
// same engine with identical cycles: tests/tlm checks TLM == plain for every format and dataflow)
// because each shape has its own config. --sensitivity: the same table against TLM configs with
// memory.latency + 1 and pe.pipeline_depth + 1; each must miss the RTL on at least one shape, so
// the match cannot be a coincidence of the equations. Exit: 0 all match, 1 a value or cycle
// mismatch (or a sensitivity that matched), 2 a usage or setup error.
#include <systemc>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "calibrate.hpp"
#include "config/unit_config.hpp"
#include "perf/autotile.hpp"
#include "perf/rtl_calibration.hpp"
#include "perf/runner.hpp"
#include "tlm/run_tlm.hpp"
#include "util/error.hpp"
#include "util/rng.hpp"

using namespace hifsim;

namespace {

struct Shape {
  uint64_t M, N, K;
  uint64_t mt = 0, nt = 0, kt = 0;  // --random-tiles: this shape's tiling (0: the config's)
};

// One output tile, K split over several tiles, partial passes and tiles (5 x 7, 12 x 20, 24 x 24,
// 40 x 24), resident operand tiles, and grids with accumulator-slot waits: for 8 x 8 x 512 tiles.
const std::vector<Shape> kDefault = {{4, 4, 64},    {8, 8, 512},    {8, 8, 1024},  {5, 7, 64},   {12, 20, 192},
                                     {16, 16, 512}, {16, 16, 2048}, {32, 8, 1024}, {8, 32, 1536}, {24, 24, 640},
                                     {32, 32, 512}, {40, 24, 2048}, {64, 64, 1024}};

struct Row {
  Shape s;
  uint64_t steps = 0, tlm = 0, rtl = 0;
  bool values_ok = false;
  std::string order;
};

std::vector<Shape> parse_shapes(const std::string& s) {
  std::vector<Shape> v;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ';')) {
    Shape x{};
    if (std::sscanf(item.c_str(), "%lu,%lu,%lu", &x.M, &x.N, &x.K) != 3 || !x.M || !x.N || !x.K)
      throw Error("command line", "--shapes", "'" + item + "' is not M,N,K");
    v.push_back(x);
  }
  return v;
}

std::vector<float> operand(uint64_t n, SplitMix64& g) {
  std::vector<float> x(n);
  for (auto& v : x) v = static_cast<float>(g.uniform() * 2 - 1) * std::ldexp(1.0f, static_cast<int>(g.below(9)) - 4);
  return x;
}

cfg::UnitConfig with_tiling(const cfg::UnitConfig& u, const Shape& s) {
  cfg::UnitConfig v = u;
  if (s.mt) {
    v.tile_m = s.mt;
    v.tile_n = s.nt;
    v.tile_k = s.kt;
  }
  return v;
}

uint64_t plain_cycles(const cfg::UnitConfig& u, const Shape& s) {
  perf::Job j;
  j.M = s.M;
  j.N = s.N;
  j.K = s.K;
  return perf::run_plain(u, {j})[0].report.cycles.total;
}

double error_pct(uint64_t tlm, uint64_t rtl) {
  return 100.0 * (static_cast<double>(tlm) - static_cast<double>(rtl)) / static_cast<double>(rtl);
}

}  // namespace

int sc_main(int argc, char** argv) {
  std::string pe, config, table_path, shapes_arg;
  std::vector<std::string> sets;
  uint64_t seed = 1, random = 0;
  bool seq = false, sensitivity = false, random_tiles = false;
  double max_error = 0.0;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      auto next = [&]() -> std::string {
        if (i + 1 >= argc) throw Error("command line", a, "needs a value");
        return argv[++i];
      };
      if (a == "--pe") pe = next();
      else if (a == "--config") config = next();
      else if (a == "--set") sets.push_back(next());
      else if (a == "--seq") seq = true;
      else if (a == "--shapes") shapes_arg = next();
      else if (a == "--random") random = std::stoull(next());
      else if (a == "--random-tiles") random_tiles = true;
      else if (a == "--seed") seed = std::stoull(next());
      else if (a == "--sensitivity") sensitivity = true;
      else if (a == "--table") table_path = next();
      else if (a == "--max-error") max_error = std::stod(next());
      else throw Error("command line", a, "unknown option (see the header of cosim/tlm_calibration/calib_main.cpp)");
    }
    if (pe.empty() || config.empty()) throw Error("command line", "--pe/--config", "both are required");
    const cfg::UnitConfig u = cfg::load_unit_config(config, sets);
    std::unique_ptr<calib::RtlUnit> rtl = calib::make_rtl_unit(pe);
    calib::check_config_matches(u, rtl->params());
    // The report's `timing` column (perf::timing_calibration) must call every unit calibrated here
    // RTL-calibrated; a unit it does not is refused, so the two cannot drift apart.
    const perf::TimingCalibration tc = perf::timing_calibration(u);
    if (!tc.rtl_calibrated)
      throw Error(config, "pe", "perf::timing_calibration does not declare this unit RTL-calibrated (" + tc.reason +
                                    "): add it in model/perf/rtl_calibration.cpp once it passes");
    const calib::RtlParams& p = rtl->params();

    std::vector<Shape> shapes = shapes_arg.empty() ? kDefault : parse_shapes(shapes_arg);
    SplitMix64 shape_rng(mix64(seed) ^ 0x5eed);
    if (random) {
      shapes.clear();
      const uint64_t W = u.dot_width();
      while (shapes.size() < random) {
        Shape s{1 + shape_rng.below(48), 1 + shape_rng.below(48), 1 + shape_rng.below(24 * W)};
        if (random_tiles) {
          s.mt = 1 + shape_rng.below(p.mt);
          s.nt = 1 + shape_rng.below(p.nt);
          s.kt = W * (1 + shape_rng.below(p.ktu));
        }
        // The program (build_schedule's jobs and steps) must fit the RTL's instruction memories.
        const perf::Tiling t = perf::choose_tiling(with_tiling(u, s), s.M, s.N, s.K);
        if (!seq && 3 * t.steps() + t.outputs() > static_cast<uint64_t>(p.prog_words)) continue;
        shapes.push_back(s);
      }
    }

    std::vector<Row> rows;
    for (size_t i = 0; i < shapes.size(); ++i) {
      Row r;
      r.s = shapes[i];
      SplitMix64 g(mix64(seed) + i);
      const std::vector<float> A = operand(r.s.M * r.s.K, g), B = operand(r.s.N * r.s.K, g);
      const calib::RtlRun run = calib::run_rtl_gemm(*rtl, with_tiling(u, r.s), r.s.M, r.s.N, r.s.K, A, B, seq);
      r.rtl = run.cycles;
      r.values_ok = run.values_ok;
      r.steps = run.tiling.steps();
      r.order = run.tiling.order();
      rows.push_back(r);
    }
    // The TLM side.
    if (random) {
      for (Row& r : rows) r.tlm = plain_cycles(with_tiling(u, r.s), r.s);
    } else {
      std::vector<perf::Job> jobs;
      for (const Row& r : rows) {
        perf::Job j;
        j.M = r.s.M;
        j.N = r.s.N;
        j.K = r.s.K;
        jobs.push_back(j);
      }
      const std::vector<perf::JobResult> res = tlm_model::run_tlm(u, jobs);
      for (size_t i = 0; i < rows.size(); ++i) rows[i].tlm = res[i].report.cycles.total;
    }

    std::ostringstream t;
    t << "| M | N | K | tiles | steps | order | TLM cycles | RTL cycles | error | values |\n"
         "|---:|---:|---:|---|---:|---|---:|---:|---:|---|\n";
    bool ok = true;
    double worst = 0, sum = 0;
    for (const Row& r : rows) {
      const double e = error_pct(r.tlm, r.rtl);
      worst = std::max(worst, std::fabs(e));
      sum += std::fabs(e);
      if (std::fabs(e) > max_error || !r.values_ok) ok = false;
      const perf::Tiling tt = perf::choose_tiling(with_tiling(u, r.s), r.s.M, r.s.N, r.s.K);
      char ebuf[32];
      std::snprintf(ebuf, sizeof ebuf, "%+.2f %%", e);
      t << "| " << r.s.M << " | " << r.s.N << " | " << r.s.K << " | " << tt.mt << "x" << tt.nt << "x" << tt.kt << " | "
        << r.steps << " | " << r.order << " | " << r.tlm << " | " << r.rtl << " | " << ebuf << " | "
        << (r.values_ok ? "bit-identical" : "**DIFFER**") << " |\n";
    }
    char w[160];
    std::snprintf(w, sizeof w, "\n%zu shapes, %s control: mean |error| %.3f %%, largest %.3f %% (limit %g %%)\n", rows.size(),
                  seq ? "RTL sequencer" : "perf::build_schedule program", sum / static_cast<double>(rows.size()), worst,
                  max_error);
    t << w;

    if (sensitivity) {
      for (const std::string& pert : {std::string("memory.latency=") + std::to_string(u.mem_latency + 1),
                                      std::string("pe.pipeline_depth=") + std::to_string(u.pipeline_depth + 1)}) {
        std::vector<std::string> s2 = sets;
        s2.push_back(pert);
        const cfg::UnitConfig v = cfg::load_unit_config(config, s2);
        size_t miss = 0;
        double worst_p = 0;
        for (const Row& r : rows) {
          const uint64_t c = plain_cycles(with_tiling(v, r.s), r.s);
          if (c != r.rtl) ++miss;
          worst_p = std::max(worst_p, std::fabs(error_pct(c, r.rtl)));
        }
        char b[200];
        std::snprintf(b, sizeof b, "sensitivity: with %s the TLM misses the RTL on %zu of %zu shapes (largest |error| %.2f %%)\n",
                      pert.c_str(), miss, rows.size(), worst_p);
        t << b;
        if (miss == 0) ok = false;
      }
    }
    std::cout << t.str();
    if (!table_path.empty()) std::ofstream(table_path) << t.str();
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "tlm_calibration: error: " << e.what() << "\n";
    return 2;
  }
}
