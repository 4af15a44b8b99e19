// PipeTiming, the declared handshake timing the scoreboards hold every unit to (pipe_timing.hpp),
// against cycle traces worked out by hand from the hifsim_pipe_reg rule (up_ready = !valid ||
// dn_ready).
#include "pipe_timing.hpp"

#include <gtest/gtest.h>

#include <string>

using hifsim::cosim::PipeTiming;

namespace {

// Runs `in` / `ready` ('1' / '0' per cycle) and returns out_valid and in_ready per cycle.
struct Trace {
  std::string out_valid, in_ready;
};
Trace run(int ranks, const std::string& in, const std::string& ready) {
  PipeTiming p(ranks);
  Trace t;
  for (size_t c = 0; c < in.size(); ++c) {
    const bool iv = in[c] == '1', orr = ready[c] == '1';
    t.out_valid += p.out_valid(iv) ? '1' : '0';
    t.in_ready += p.in_ready(orr) ? '1' : '0';
    p.edge(iv, orr);
  }
  return t;
}

TEST(PipeTiming, CombinationalUnitPassesHandshakeThrough) {
  const Trace t = run(0, "1101", "1011");
  EXPECT_EQ(t.out_valid, "1101");
  EXPECT_EQ(t.in_ready, "1011");
}

TEST(PipeTiming, LatencyEqualsRanksAndOneResultPerCycle) {
  // Back-to-back valid, no back-pressure: the first result after `ranks` cycles, then one per cycle.
  EXPECT_EQ(run(1, "11110000", "11111111").out_valid, "01111000");
  EXPECT_EQ(run(3, "11110000", "11111111").out_valid, "00011110");
  EXPECT_EQ(run(5, "1000000000", "1111111111").out_valid, "0000010000");
  EXPECT_EQ(run(3, "11110000", "11111111").in_ready, "11111111");
}

TEST(PipeTiming, BackPressureFillsEveryRankThenStalls) {
  // out_ready = 0: three ranks take three transactions, then in_ready drops.
  const Trace t = run(3, "111111", "000000");
  EXPECT_EQ(t.in_ready, "111000");
  EXPECT_EQ(t.out_valid, "000111");
}

TEST(PipeTiming, BubblesAreSqueezedOutUnderBackPressure) {
  // Two transactions with a gap, the output stalled: the second catches up with the first, so
  // once out_ready rises they leave on consecutive cycles.
  const Trace t = run(3, "1010000000", "0000001111");
  EXPECT_EQ(t.out_valid, "0001111100");
}

TEST(PipeTiming, FullPipelineAcceptsWhileDelivering) {
  // Full (3 in flight) with out_ready = 1: in_ready stays 1 (the ready path is combinational).
  const Trace t = run(3, "11111111", "00011111");
  EXPECT_EQ(t.in_ready, "11111111");
  EXPECT_EQ(t.out_valid, "00011111");
}

}  // namespace
