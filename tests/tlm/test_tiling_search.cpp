// The automatic tiling and the memory-side behaviour of the timing model (docs/tlm.md section 3):
//   - the exact operand-load counts (perf::operand_loads) equal the loads of the schedule;
//   - on a shape set, the automatic tiling is within 3 % of the best pinned tiling found by brute
//     force over every tile size and both loop orders;
//   - faster memory (more bandwidth, less latency, more outstanding transactions, bigger buffers)
//     never gives more cycles under the automatic tiling (a grid of shapes x memory parameters);
//   - a memory-bound run reports its memory time as memory stalls (not as fill or compute).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "perf/autotile.hpp"
#include "perf/runner.hpp"
#include "perf/schedule.hpp"
#include "tlm_test_util.hpp"

using namespace hifsim;

namespace {

cfg::UnitConfig unit(const std::string& yaml_body, const std::vector<std::string>& o = {}) {
  return cfg::unit_config_from_string("schema: hifsim-unit/1\nname: t\n" + yaml_body, "t.yaml", o);
}

// A 4 x 4 unit whose buffers hold a few tiles of the shapes below, so that tile sizes matter.
std::string small4(const std::string& format, const std::string& dataflow) {
  return "pe: {format: " + format + "}\narray: {rows: 4, cols: 4, dataflow: " + dataflow +
         "}\nbuffers:\n  a: {bytes: 8KiB}\n  b: {bytes: 8KiB}\n  acc: {bytes: 2KiB}\n"
         "dma: {outstanding: 8}\nmemory: {bytes_per_cycle: 32, latency: 30}\n";
}

struct Shape {
  uint64_t M, N, K;
};

std::string name(const Shape& s) { return std::to_string(s.M) + "x" + std::to_string(s.N) + "x" + std::to_string(s.K); }

// Bytes each buffer receives under the schedule, from its load jobs.
uint64_t scheduled_operand_bytes(const cfg::UnitConfig& u, const perf::Tiling& t) {
  const perf::Schedule sc = perf::build_schedule(u, t);
  uint64_t bytes = 0;
  for (const perf::DmaJob& j : sc.jobs) {
    if (j.kind == perf::DmaJob::store) continue;
    const perf::Step s = perf::step_at(t, j.step);
    bytes += j.kind == perf::DmaJob::load_a ? s.ml * perf::a_mem_row_bytes(u, s.kl) : s.nl * u.row_bytes(s.kl);
  }
  return bytes;
}

}  // namespace

TEST(TilingLoads, ExactOperandTrafficEqualsTheSchedule) {
  int checked = 0;
  for (const char* extra : {"", "buffers.a.double_buffer=false", "buffers.b.double_buffer=false", "residual.enabled=true"}) {
    std::vector<std::string> o;
    if (*extra) o.push_back(extra);
    const cfg::UnitConfig u = unit(small4("hif4", "os"), o);
    for (uint64_t mt : {4, 8, 12})
      for (uint64_t nt : {4, 8, 20})
        for (uint64_t kt : {64, 128, 192})
          for (bool nmk : {false, true}) {
            const perf::Tiling t = perf::make_tiling(u, 20, 20, 384, mt, nt, kt, nmk);
            SCOPED_TRACE(std::string(extra) + " tile " + std::to_string(mt) + "x" + std::to_string(nt) + "x" +
                         std::to_string(kt) + " " + t.order());
            EXPECT_EQ(perf::operand_traffic(u, t, nmk), scheduled_operand_bytes(u, t));
            ++checked;
          }
  }
  EXPECT_EQ(checked, 4 * 54);
}

// The search skips a candidate whose lower bound cannot beat the best so far: the bound must never
// exceed the simulated cycles (every candidate of several units and shapes, residual and quantizer
// included).
TEST(TilingSearch, LowerBoundNeverExceedsTheSimulation) {
  size_t n = 0;
  for (const char* extra : {"", "array.dataflow=ws", "array.dataflow=ws,array.weight_double_buffer=false",
                            "array.drain_width=8", "buffers.a.banks=2,buffers.b.banks=1", "residual.enabled=true",
                            "quantizer.enabled=true", "dma.outstanding=1,memory.latency=200"})
    for (const Shape& s : {Shape{16, 16, 256}, Shape{37, 90, 700}, Shape{100, 24, 1024}}) {
      std::vector<std::string> o;
      std::string e = extra;
      for (size_t p; !e.empty(); e = p == std::string::npos ? "" : e.substr(p + 1)) o.push_back(e.substr(0, p = e.find(',')));
      const cfg::UnitConfig u = unit(small4("hif4", "os"), o);
      const std::vector<perf::Tiling> cand = perf::tiling_candidates(u, s.M, s.N, s.K);
      for (size_t i = 0; i < cand.size(); i += 7) {  // every 7th: a spread of tile sizes and orders
        const perf::Tiling& t = cand[i];
        const uint64_t sim = perf::simulate_cycles(u, t);
        ASSERT_LE(perf::lower_bound_cycles(u, t), static_cast<double>(sim))
            << extra << " " << name(s) << " tile " << t.mt << "x" << t.nt << "x" << t.kt << " " << t.order();
        ++n;
      }
    }
  std::printf("%zu candidates checked\n", n);
}

// Brute force: every tile size (multiples of the array size, and the whole dimension), every K tile
// (multiples of W), both loop orders.
TEST(TilingSearch, AutoWithinThreePercentOfBruteForce) {
  const std::vector<Shape> shapes = {{16, 16, 256}, {64, 64, 512}, {37, 90, 700}, {100, 24, 1024},
                                     {8, 200, 384}, {128, 128, 256}, {48, 48, 2048}};
  double worst = 0;
  for (const char* fmt : {"hif4", "hif8"})
    for (const char* df : {"os", "ws"}) {
      const cfg::UnitConfig u = unit(small4(fmt, df));
      for (const Shape& s : shapes) {
        const perf::Tiling a = perf::choose_tiling(u, s.M, s.N, s.K);
        const uint64_t auto_cycles = perf::simulate_cycles(u, a);
        uint64_t best = UINT64_MAX;
        const uint64_t W = u.dot_width(), Kp = perf::ceil_div(s.K, W) * W;
        for (uint64_t kt = W; kt <= Kp; kt += W)
          for (uint64_t mt = u.rows; mt < s.M + u.rows; mt += u.rows)
            for (uint64_t nt = u.cols; nt < s.N + u.cols; nt += u.cols)
              for (bool nmk : {false, true}) {
                const perf::Tiling t = perf::make_tiling(u, s.M, s.N, s.K, mt, nt, kt, nmk);
                if (perf::tiling_fits(u, t)) best = std::min(best, perf::simulate_cycles(u, t, best));
              }
        const double over = 100.0 * (static_cast<double>(auto_cycles) / static_cast<double>(best) - 1.0);
        std::printf("%s %s %-12s auto %7lu  best pinned %7lu  %+.2f %%\n", fmt, df, name(s).c_str(),
                    static_cast<unsigned long>(auto_cycles), static_cast<unsigned long>(best), over);
        EXPECT_LE(over, 3.0) << fmt << " " << df << " " << name(s);
        worst = std::max(worst, over);
      }
    }
  std::printf("largest excess of the automatic tiling over brute force: %.2f %%\n", worst);
}

namespace {

uint64_t auto_cycles(const cfg::UnitConfig& u, const Shape& s) {
  return perf::simulate_cycles(u, perf::choose_tiling(u, s.M, s.N, s.K));
}

}  // namespace

// A grid of shapes x bandwidth x latency x buffer size x outstanding transactions: along every
// axis, the faster memory never takes more cycles.
TEST(TilingSearch, FasterMemoryNeverTakesMoreCycles) {
  const std::vector<Shape> shapes = {{16, 16, 256}, {64, 64, 512}, {37, 90, 700}, {100, 24, 1024}, {8, 200, 384},
                                     {96, 96, 1536}};
  const std::vector<uint64_t> bws = {16, 32, 64, 256, 4096};  // increasing: faster
  const std::vector<uint64_t> lats = {100, 30, 5, 0};         // decreasing: faster
  const std::vector<uint64_t> bufs = {4, 8, 16, 64};          // KiB of A and B (acc: a quarter)
  const std::vector<uint64_t> outs = {2, 8, 64};
  int pairs = 0;
  for (const char* df : {"os", "ws"})
    for (const Shape& s : shapes) {
      // cycles[ib][il][iu][io]
      std::vector<uint64_t> c(bws.size() * lats.size() * bufs.size() * outs.size());
      auto at = [&](size_t ib, size_t il, size_t iu, size_t io) -> uint64_t& {
        return c[((ib * lats.size() + il) * bufs.size() + iu) * outs.size() + io];
      };
      for (size_t ib = 0; ib < bws.size(); ++ib)
        for (size_t il = 0; il < lats.size(); ++il)
          for (size_t iu = 0; iu < bufs.size(); ++iu)
            for (size_t io = 0; io < outs.size(); ++io) {
              const std::string k = std::to_string(bufs[iu]) + "KiB";
              const cfg::UnitConfig u =
                  unit("pe: {format: hif4}\narray: {rows: 4, cols: 4, dataflow: " + std::string(df) +
                       "}\nbuffers:\n  a: {bytes: " + k + "}\n  b: {bytes: " + k + "}\n  acc: {bytes: " +
                       std::to_string(bufs[iu] * 256) + "}\nmemory: {bytes_per_cycle: " + std::to_string(bws[ib]) +
                       ", latency: " + std::to_string(lats[il]) + "}\ndma: {outstanding: " + std::to_string(outs[io]) +
                       "}\n");
              at(ib, il, iu, io) = auto_cycles(u, s);
            }
      for (size_t ib = 0; ib < bws.size(); ++ib)
        for (size_t il = 0; il < lats.size(); ++il)
          for (size_t iu = 0; iu < bufs.size(); ++iu)
            for (size_t io = 0; io < outs.size(); ++io) {
              const uint64_t here = at(ib, il, iu, io);
              const std::string where = std::string(df) + " " + name(s) + " bw " + std::to_string(bws[ib]) + " lat " +
                                        std::to_string(lats[il]) + " buffers " + std::to_string(bufs[iu]) +
                                        " KiB outstanding " + std::to_string(outs[io]);
              // Braces: EXPECT_* expands to an if/else of its own (-Wdangling-else without them).
              if (ib + 1 < bws.size()) {
                EXPECT_LE(at(ib + 1, il, iu, io), here) << where << ": more bandwidth";
                ++pairs;
              }
              if (il + 1 < lats.size()) {
                EXPECT_LE(at(ib, il + 1, iu, io), here) << where << ": less latency";
                ++pairs;
              }
              if (iu + 1 < bufs.size()) {
                EXPECT_LE(at(ib, il, iu + 1, io), here) << where << ": bigger buffers";
                ++pairs;
              }
              if (io + 1 < outs.size()) {
                EXPECT_LE(at(ib, il, iu, io + 1), here) << where << ": more outstanding";
                ++pairs;
              }
            }
    }
  std::printf("%d neighbour pairs checked\n", pairs);
}

// The case of issue 14 on the shipped 32 x 32 HiF4 unit: 2048 x 4096 x 4096 took 41 % more cycles
// at 65,536 B/cycle than at 256 (latency 0) before the estimate counted one bus cycle per
// transaction.
TEST(TilingSearch, ShippedUnitFasterMemoryNeverTakesMoreCycles) {
  const Shape s{2048, 4096, 4096};
  uint64_t prev = UINT64_MAX;
  for (const char* bw : {"256", "1024", "4096", "65536"}) {
    const cfg::UnitConfig u = cfg::load_unit_config(std::string(HIFSIM_SOURCE_DIR) + "/configs/units/hif4-32x32.yaml",
                                                    {std::string("memory.bytes_per_cycle=") + bw, "memory.latency=0"});
    const uint64_t c = auto_cycles(u, s);
    std::printf("bytes_per_cycle %6s: %lu cycles\n", bw, static_cast<unsigned long>(c));
    EXPECT_LE(c, prev) << bw;
    prev = c;
  }
}
