// The timing core (model/perf, plain C++): hand-computed cycle counts of small cases, the step
// formulas, timing-only == value-mode timing, bit-exactness against dp::gemm for every format,
// dataflow and value engine, residual and quantizer paths, reproducibility over thread counts.
//
// Notation of the derivations (docs/tlm.md "Timing equations"): a transaction of b bytes issued
// at q starts at s = max(q, bus_free), holds the bus ceil(b / BW) cycles and completes at
// s + ceil(b / BW) + L. The tiny unit: R = C = 2, W = 64, P = 3, drain width 2 (D = ceil(4/2) = 2; OS tail P - 1 + D = 4),
// BW = 36 B/cycle, L = 10; an HiF4 row of k elements is 36 k / 64 bytes; C rows are 4 nl bytes.
// Attribution of the idle cycles (docs/tlm.md section 4): of the wait before the first step, L + 1
// = 11 cycles are fill (what an infinitely wide memory would still take), the rest memory; of the
// cycles after the last issue, the tail plus L + 1 are drain (OS: 4 + 11 = 15), the rest memory.
#include <gtest/gtest.h>

#include "gemm/gemm.hpp"
#include "gemm/residual_gemm.hpp"
#include "perf/array_timing.hpp"
#include "perf/autotile.hpp"
#include "perf/engine.hpp"
#include "perf/runner.hpp"
#include "perf/tiling.hpp"
#include "tlm_test_util.hpp"

using namespace hifsim;

namespace {

// The hand cases use one output tile unless they pin their own (the automatic tiling may split a
// tiny GEMM differently when that is faster; its own tests are in test_tiling_search.cpp).
perf::RunReport timing(cfg::UnitConfig u, uint64_t M, uint64_t N, uint64_t K) {
  if (!u.tile_m) u.tile_m = M;
  if (!u.tile_n) u.tile_n = N;
  perf::Job j;
  j.M = M;
  j.N = N;
  j.K = K;
  return perf::run_plain(u, {j})[0].report;
}

void expect_cycles(const perf::RunReport& r, uint64_t total, uint64_t fill, uint64_t compute, uint64_t mem,
                   uint64_t drain) {
  EXPECT_EQ(r.cycles.total, total);
  EXPECT_EQ(r.cycles.fill, fill);
  EXPECT_EQ(r.cycles.compute, compute);
  EXPECT_EQ(r.cycles.memory_stall, mem);
  EXPECT_EQ(r.cycles.drain, drain);
  EXPECT_EQ(r.cycles.fill + r.cycles.compute + r.cycles.memory_stall + r.cycles.drain, r.cycles.total);
}

}  // namespace

// Case A: M = N = 2, K = 128, one step (output tile 2 x 2, K tile 128).
//   loads (queue order A, B): rows of 72 B = 2 beats.
//     A row0 s=0 -> done 0+2+10 = 12; A row1 s=2 -> 14; B row0 s=4 -> 16; B row1 s=6 -> 18
//   step: start 18 (= fill), 1 pass, kb = 2, T = max(kb, D) = 2, ends 20
//   tail P - 1 + D = 4 -> results in the accumulator buffer at 24
//   store: rows of 8 B = 1 beat: s=24 -> 35, s=25 -> 36.   total 36
//   idle before: 18 = fill 11 + memory 7; after: 16 = drain 15 + memory 1 -> 11 + 2 + 8 + 15
TEST(TimingHand, OsOneStep) {
  const auto r = timing(test::tiny({"tiling.k=128"}), 2, 2, 128);
  expect_cycles(r, 36, 11, 2, 8, 15);
  EXPECT_EQ(r.tiling.steps, 1u);
  EXPECT_EQ(r.actions.get("pe.dot_ops"), 2u * 2u * 2u);
  EXPECT_EQ(r.actions.get("pe.macs"), 8u * 64u);
  EXPECT_EQ(r.actions.get("memory.read_bytes"), 4u * 72u);
  EXPECT_EQ(r.actions.get("memory.write_bytes"), 16u);
  EXPECT_EQ(r.actions.get("memory.reads"), 4u);
  EXPECT_EQ(r.actions.get("memory.writes"), 2u);
  EXPECT_EQ(r.actions.get("buffer_acc.writes"), 4u);
  EXPECT_EQ(r.actions.get("acc.loads"), 0u);
  // 2 issue cycles x 4 PEs = 8 slots, all busy (2 outputs x 2 x kb 2 = 8 dot ops)
  EXPECT_EQ(r.actions.get("pe.idle_slots"), 0u);
}

// Case B: the same GEMM with tiling.k = 64: two K steps into one output tile.
//   loads, all four tiles fit the two slots of each buffer (queue: A00 B00 A01 B01), rows 36 B = 1 beat:
//     A00 done 11, 12; B00 13, 14; A01 15, 16; B01 17, 18
//   step 0: data at 14, one block (kb = 1): issue 14, ends 15 (no earlier pass is draining)
//   step 1: waits for B01 (18): memory stall 3; its pass's last issue must be D = 2 after step
//           0's (14): 18 is, so T = 1, ends 19; the PE accumulators were saved after step 0 and
//           are restored (acc.loads = 4)
//   tail 4 -> 23; store s = 23, 24 -> 34, 35.  total 35 = 11 + 2 + (3 + 3 + 1) + 15
TEST(TimingHand, OsTwoKSteps) {
  const auto r = timing(test::tiny({"tiling.k=64"}), 2, 2, 128);
  expect_cycles(r, 35, 11, 2, 7, 15);
  EXPECT_EQ(r.tiling.steps, 2u);
  EXPECT_EQ(r.actions.get("acc.loads"), 4u);
  EXPECT_EQ(r.actions.get("buffer_acc.writes"), 8u);
}

// Case C: weight-stationary, M = 4, N = 2, K = 128 (one step, one fold: kb = 2 = R, nl = 2 = C).
//   loads: A 4 rows of 72 B: s = 0, 2, 4, 6 -> done 12, 14, 16, 18; B 2 rows: s = 8, 10 -> 20, 22
//   step: data there at 22; the weights (Lw = R = 2 cycles) load from 22 (B ready), the stream
//         (S = M = 4 rows) starts at 24 and ends at 28: T = 28 - 22 = 6 (the exposed weight load
//         counts as issue cycles)
//   tail (WS) P + R - 2 = 3 -> 31; store 4 rows of 8 B: s = 31..34 -> done 42..45.
//   total 45; before 22 = 11 + 11, after 17 = drain (3 + 11) 14 + 3 -> 11 + 6 + 14 + 14
TEST(TimingHand, WsOneFold) {
  const auto r = timing(test::tiny({"array.dataflow=ws", "tiling.k=128"}), 4, 2, 128);
  expect_cycles(r, 45, 11, 6, 14, 14);
  EXPECT_EQ(r.actions.get("array.weight_loads"), 2u * 2u);
  // Without shadow weights the load is never hidden: T = S + Lw = 6 as well for one fold;
  // with kb = 4 (two folds): 2 x (2 + 4) = 12; with them, the second fold's weights load during the
  // first fold's stream: 2 + max(4, 2) + 4 = 10.
  const auto db = timing(test::tiny({"array.dataflow=ws", "tiling.k=256"}), 4, 2, 256);
  const auto nodb = timing(test::tiny({"array.dataflow=ws", "tiling.k=256", "array.weight_double_buffer=false"}), 4, 2, 256);
  EXPECT_EQ(db.cycles.compute, 10u);
  EXPECT_EQ(nodb.cycles.compute, 12u);
}

// Case D: two output tiles (M = 4, N = 2, K = 64, tiling 2 x 2 x 64, order mnk); B stays resident.
//   loads: A0 rows done 11, 12; B0 13, 14; A1 15, 16
//   step 0: data 14, T = 1, ends 15; store 0 earliest 15 + 4 = 19: s = 19, 20 -> done 30, 31
//   step 1: data 16 (A1), last issue >= 14 + D = 16: T = 1, ends 17; store 1 earliest 21:
//           s = 21, 22 -> 32, 33
//   total 33 = fill 11 + compute 2 + memory (3 + 1 + 1) + drain 15
// D': a single accumulator slot: output 1 cannot start before store 0 completes (31):
//   step 1 data 31 (memory stall 16), ends 32; store 1 earliest 36: -> done 47, 48; total 48.
TEST(TimingHand, AccumulatorSlots) {
  const auto r = timing(test::tiny({"tiling.m=2", "tiling.n=2", "tiling.k=64", "tiling.order=mnk"}), 4, 2, 64);
  expect_cycles(r, 33, 11, 2, 5, 15);
  EXPECT_EQ(r.actions.get("buffer_b.writes"), 2u);  // B loaded once
  const auto s = timing(test::tiny({"tiling.m=2", "tiling.n=2", "tiling.k=64", "tiling.order=mnk",
                                    "buffers.acc.double_buffer=false"}),
                        4, 2, 64);
  expect_cycles(s, 48, 11, 2, 3 + 16 + 1, 15);
}

// Case E: one outstanding transaction (case A): each waits for the previous completion.
//   A row0 0 -> 12; A row1 12 -> 24; B row0 24 -> 36; B row1 36 -> 48; step 48..50; tail -> 54;
//   store row0 54 -> 65; row1 65 -> 76.   total 76 = 11 + 2 + (37 + 11) + 15
TEST(TimingHand, OutstandingLimit) {
  expect_cycles(timing(test::tiny({"dma.outstanding=1", "tiling.k=128"}), 2, 2, 128), 76, 11, 2, 48, 15);
}

// Case F: buffer A with one bank while a pass reads R = 2 rows per cycle: issue at half rate,
//   S = kb x ceil(2 / 1) = 4, T = max(4, 2) = 4 (2 of them bank stall); store at 18 + 4 + 4 = 26:
//   done 37, 38.   total 38 = 11 + 4 + (7 + 1) + 15
TEST(TimingHand, BankConflicts) {
  const auto r = timing(test::tiny({"buffers.a.banks=1", "tiling.k=128"}), 2, 2, 128);
  expect_cycles(r, 38, 11, 4, 8, 15);
  EXPECT_EQ(r.cycles.bank_stall, 2u);
}

// Case G: the on-line quantizer, FP32 A (case A): A rows are 128 x 4 = 512 B = 15 beats.
//   A row0 s=0 -> bus 15, done 25; A row1 s=15 -> bus 30, done 40; B rows s=30, 32 -> 42, 44
//   quantizer: 2 rows x 2 blocks = 4 blocks at 1 block/cycle from the first issue (0) -> 4;
//   A ready = max(40, 4) + latency 4 = 44. step 44..46, tail -> 50, store -> 61, 62. total 62
//   fill: L + 1 + quantizer latency = 15 -> 15 + 2 + (29 + 1) + 15
TEST(TimingHand, Quantizer) {
  const auto r = timing(test::tiny({"quantizer.enabled=true", "tiling.k=128"}), 2, 2, 128);
  expect_cycles(r, 62, 15, 2, 30, 15);
  EXPECT_EQ(r.actions.get("quantizer.blocks"), 4u);
  EXPECT_EQ(r.actions.get("memory.read_bytes"), 2u * 512u + 2u * 72u);
  EXPECT_EQ(r.actions.get("buffer_a.write_bytes"), 2u * 72u);
}

// Case H: the shared residual path, fused (M = N = 2, K = 64): per output tile a main step and a
//   residual step; the A tile carries main and residual rows.
//   loads: A main rows done 11, 12, residual rows 13, 14; B 15, 16
//   main step: issue 16, ends 17; residual step: its last issue >= 16 + D = 18, ends 19 (residual
//   cycles 2); tail -> 23; store -> 34, 35.  total 35 = 11 + 3 + (5 + 1) + 15.
//   Dedicated path (unfused): one step 16..17, tail -> 21, store -> 32, 33 = 11 + 1 + (5 + 1) + 15.
TEST(TimingHand, ResidualPaths) {
  const auto r = timing(test::tiny({"residual.enabled=true", "residual.kind=dense", "residual.mode=fused"}), 2, 2, 64);
  expect_cycles(r, 35, 11, 3, 6, 15);
  EXPECT_EQ(r.cycles.residual, 2u);
  EXPECT_EQ(r.actions.get("residual.dot_ops"), 4u);
  EXPECT_EQ(r.actions.get("pe.dot_ops"), 4u);
  const auto d = timing(test::tiny({"residual.enabled=true", "residual.kind=2:4", "residual.path=dedicated"}), 2, 2, 64);
  expect_cycles(d, 33, 11, 1, 6, 15);
  EXPECT_EQ(d.cycles.residual, 0u);
  EXPECT_EQ(d.actions.get("residual.products"), 4u * 32u);  // 2:4: 32 products per 64-block
  EXPECT_EQ(d.actions.get("acc.residual_adds"), 4u);
}

// Step formulas directly (docs/tlm.md section 4): steady state OS passes x max(kb f, D), WS folds x
// max(S, Lw); with history: a pass's last issue >= the previous pass's + D, the first fold's
// weights load from max(previous fold start, B ready).
TEST(TimingFormulas, StepCycles) {
  const cfg::UnitConfig os = test::tiny();
  perf::Tiling t = perf::make_tiling(os, 5, 3, 640, 5, 3, 640, false);
  perf::Step s;
  s.ml = 5;
  s.nl = 3;
  s.kl = 640;  // kb = 10
  EXPECT_EQ(perf::steady_step_cycles(os, t, s), 3u * 2u * 10u);  // 6 passes x max(10, 2)
  s.kl = 64;
  EXPECT_EQ(perf::steady_step_cycles(os, t, s), 6u * 2u);  // drain-bound: max(1, 2)
  // After idle the first pass need not wait for a drain: 1 + 5 x 2 issue cycles.
  perf::ArrayHistory h;
  perf::StepTime st = perf::time_step(os, t, s, 100, 100, 100, h);
  EXPECT_EQ(st.end - st.data, 1u + 5u * 2u);
  // Right after it, the next step's first pass waits for the drain: 6 x 2.
  st = perf::time_step(os, t, s, st.end, st.end, st.end, h);
  EXPECT_EQ(st.end - st.data, 6u * 2u);
  const cfg::UnitConfig ws = test::tiny({"array.dataflow=ws"});
  t = perf::make_tiling(ws, 5, 3, 640, 5, 3, 640, false);
  s.kl = 640;  // kb 10 -> 5 K folds x 2 N folds, S = 5, Lw = 2
  EXPECT_EQ(perf::steady_step_cycles(ws, t, s), 10u * 5u);
  perf::ArrayHistory hw;
  st = perf::time_step(ws, t, s, 0, 0, 0, hw);  // the first weights load before the first stream
  EXPECT_EQ(st.end - st.data, 2u + 10u * 5u);
  // B arrives 1 cycle before the previous step ends: its first weights load from then (2 cycles).
  const uint64_t e = st.end;
  st = perf::time_step(ws, t, s, e, e, e - 1, hw);
  EXPECT_EQ(st.end - st.data, 1u + 10u * 5u);
  EXPECT_EQ(perf::output_tail(os), 3u - 1u + 2u);                 // P - 1 + D
  EXPECT_EQ(perf::output_tail(ws), 3u + 2u - 2u);                 // P + R - 2
  EXPECT_EQ(perf::output_tail(test::tiny({"array.interconnect=systolic"})), 4u + 2u + 2u - 2u);
  EXPECT_EQ(perf::output_tail(test::tiny({"array.drain_width=0"})), 3u - 1u);  // write-through
}

// Stall attribution: when the memory bus needs more cycles than the array (bus beats >= bytes /
// BW), that time must show as memory stalls, whatever the number of steps. total = fill + compute
// + memory + drain with fill <= L + 1 and drain <= tail + L + 1, and total >= bytes / BW, so
//   memory >= bytes / BW - compute - (L + 1) - (tail + L + 1).
// Before the attribution fix a single-step GEMM reported all of it as fill and drain (memory 0).
TEST(TimingAttribution, MemoryBoundRunsReportMemoryStalls) {
  int bound = 0;
  for (const char* df : {"os", "ws"})
    for (const char* bw : {"4", "16"})
      for (uint64_t M : {2, 8, 30})
        for (uint64_t K : {64, 640, 2048}) {
          const cfg::UnitConfig u = test::tiny({std::string("array.dataflow=") + df, std::string("memory.bytes_per_cycle=") + bw});
          perf::Job j;
          j.M = M;
          j.N = 6;
          j.K = K;
          const perf::RunReport r = perf::run_plain(u, {j})[0].report;
          const double bytes = static_cast<double>(r.actions.get("memory.read_bytes") + r.actions.get("memory.write_bytes"));
          const double bus = bytes / static_cast<double>(u.mem_bytes_per_cycle);
          const double lat = static_cast<double>(u.mem_latency), tail = static_cast<double>(perf::output_tail(u));
          const double c = static_cast<double>(r.cycles.compute);
          SCOPED_TRACE(std::string(df) + " bw " + bw + " M " + std::to_string(M) + " K " + std::to_string(K));
          EXPECT_LE(r.cycles.fill, u.mem_latency + 1);
          EXPECT_LE(r.cycles.drain, perf::output_tail(u) + u.mem_latency + 1);
          EXPECT_EQ(r.cycles.fill + r.cycles.compute + r.cycles.memory_stall + r.cycles.drain, r.cycles.total);
          if (bus > c) {
            EXPECT_GE(static_cast<double>(r.cycles.memory_stall), bus - c - (lat + 1) - (tail + lat + 1));
            EXPECT_GT(r.cycles.memory_stall, 0u);
            ++bound;
          }
        }
  EXPECT_GE(bound, 20);  // most of the grid is memory-bound at 4 and 16 B/cycle
}

TEST(TimingFormulas, AutoTilingFitsTheBuffers) {
  const cfg::UnitConfig u = test::small_unit("hif4");
  for (uint64_t M : {1, 7, 64, 300})
    for (uint64_t K : {64, 1000, 4096}) {
      const perf::Tiling t = perf::choose_tiling(u, M, 33, K);
      EXPECT_LE(t.mt * u.row_bytes(t.kt), u.a.slot_bytes());
      EXPECT_LE(t.nt * u.row_bytes(t.kt), u.b.slot_bytes());
      EXPECT_LE(t.mt * t.nt * 4, u.acc_buf.slot_bytes());
      EXPECT_EQ(t.kt % 64, 0u);
      EXPECT_GE(t.tm * t.mt, M);
      EXPECT_GE(t.tk * t.kt, t.Kp);
    }
}

// ---------------------------------------------------------------------------------------------
// Values

namespace {

struct Case {
  uint64_t M, N, K;
};
const Case kCases[] = {{5, 7, 130}, {16, 12, 640}, {33, 9, 200}};

void check_one(const cfg::UnitConfig& u, bool specials, const Case& c, bool split) {
  SCOPED_TRACE(std::to_string(c.M) + "x" + std::to_string(c.N) + "x" + std::to_string(c.K) + (split ? " small tiles" : ""));
  const auto A = test::random_values(c.M * c.K, 11 + c.M, specials && u.format != fmt::Format::nvfp4);
  const auto B = test::random_values(c.N * c.K, 17 + c.N, false);
  perf::Job j;
  j.M = c.M;
  j.N = c.N;
  j.K = c.K;
  j.A = A.data();
  j.B = B.data();
  j.values = j.keep_result = true;
  const auto r = perf::run_plain(u, {j})[0];
  const auto ref = dp::gemm_with_residual(A.data(), c.M, c.K, B.data(), c.N, u.gemm_spec(), u.residual_spec);
  EXPECT_TRUE(test::same_bits(r.C, ref)) << "not bit-identical to dp::gemm";
  EXPECT_EQ(r.report.checksum, perf::float_checksum(ref.data(), ref.size()));
  if (split) {
    EXPECT_GT(r.report.tiling.tiles_m, 1u);
    EXPECT_GT(r.report.tiling.tiles_n, 1u);
    EXPECT_GT(r.report.tiling.tiles_k, 1u);
  }
  // Timing does not depend on values.
  perf::Job tj = j;
  tj.values = false;
  const auto t = perf::run_plain(u, {tj})[0].report;
  EXPECT_EQ(t.cycles, r.report.cycles);
  EXPECT_EQ(t.actions, r.report.actions);
}

// Every case with the automatic tiling and with small tiles (several M, N and K tiles, so partial
// sums go through the accumulator buffer between K tiles).
void check_values(const std::string& format, std::vector<std::string> o, bool specials, const std::string& what) {
  SCOPED_TRACE(format + " " + what);
  const cfg::UnitConfig u = test::small_unit(format, o);
  const uint32_t W = u.dot_width();
  o.push_back("tiling.m=4");
  o.push_back("tiling.n=4");
  o.push_back("tiling.k=" + std::to_string(W));
  const cfg::UnitConfig s = test::small_unit(format, o);
  for (const Case& c : kCases) {
    check_one(u, specials, c, false);
    check_one(s, specials, c, true);
  }
}

}  // namespace

class ValuesPerFormat : public ::testing::TestWithParam<const char*> {};

TEST_P(ValuesPerFormat, BitExactWithGemmForBothDataflowsAndEngines) {
  const std::string f = GetParam();
  const bool specials = f == "hif8" || f == "bf16";
  for (const char* df : {"os", "ws"})
    for (const char* eng : {"gemm", "unit"})
      check_values(f, {std::string("array.dataflow=") + df, std::string("sim.value_engine=") + eng}, specials,
                   std::string(df) + "/" + eng);
}

INSTANTIATE_TEST_SUITE_P(Formats, ValuesPerFormat,
                         ::testing::Values("hif4", "nvfp4", "mxfp4", "hif8", "bf16", "mxfp8-e4m3", "fp8-e5m2"));

TEST(Values, AccumulatorKindsAndAlignment) {
  check_values("hif4", {"pe.accumulator=fp32-m10-rz", "sim.value_engine=unit"}, false, "fp32-m10-rz unit");
  check_values("hif4", {"pe.accumulator=kulisch", "array.dataflow=ws", "sim.value_engine=unit"}, false, "kulisch ws unit");
  check_values("bf16", {"pe.align_width=16", "pe.align_policy=trunc"}, false, "W16 trunc");
  check_values("hif8", {"pe.hif8_lanes=16", "sim.value_engine=unit"}, false, "16 lanes");
}

TEST(Values, ResidualPaths) {
  for (const char* f : {"hif4", "mxfp4", "nvfp4"})
    for (const char* kind : {"dense", "2:4", "top50"})
      for (const char* mode : {"unfused", "fused"})
        for (const char* eng : {"gemm", "unit"}) {
          std::vector<std::string> o = {"residual.enabled=true", std::string("residual.kind=") + kind,
                                        std::string("residual.mode=") + mode, std::string("sim.value_engine=") + eng};
          check_values(f, o, false, std::string(kind) + " " + mode + " shared " + eng);
          if (std::string(mode) == "unfused") {
            o.push_back("residual.path=dedicated");
            check_values(f, o, false, std::string(kind) + " dedicated " + eng);
          }
        }
  check_values("hif4", {"residual.enabled=true", "residual.kind=2:4", "residual.blocks_per_cycle=2"}, false,
               "2:4 at 2 blocks per cycle");
}

TEST(Values, OnlineQuantizer) {
  for (const char* f : {"hif4", "mxfp4", "nvfp4", "hif8", "bf16"})
    check_values(f, {"quantizer.enabled=true"}, false, "quantizer");
  for (const char* f : {"hif4", "mxfp4"})
    for (const char* kind : {"dense", "2:4"})
      check_values(f, {"quantizer.enabled=true", "residual.enabled=true", std::string("residual.kind=") + kind}, false,
                   std::string("quantizer + residual ") + kind);
}

TEST(Values, ThreadCountAndRerunsGiveTheSameBitsAndCycles) {
  const cfg::UnitConfig u = test::small_unit("hif4");
  const auto A = test::random_values(40 * 300, 5), B = test::random_values(24 * 300, 6);
  perf::Job j;
  j.M = 40;
  j.N = 24;
  j.K = 300;
  j.A = A.data();
  j.B = B.data();
  j.values = j.keep_result = true;
  perf::RunOptions o1, o2;
  o1.threads = 1;
  o2.threads = 2;
  const auto r1 = perf::run_plain(u, {j, j}, o1), r2 = perf::run_plain(u, {j}, o2);
  EXPECT_TRUE(test::same_bits(r1[0].C, r2[0].C));
  EXPECT_TRUE(test::same_bits(r1[0].C, r1[1].C));
  EXPECT_EQ(r1[0].report.cycles, r2[0].report.cycles);
  EXPECT_EQ(r1[0].report.cycles, r1[1].report.cycles);  // back-to-back commands start from an idle unit
  EXPECT_EQ(r1[0].report.actions, r1[1].report.actions);
}
