// The transpose buffer's model (datapath/transpose_buffer.hpp): the data contract (transpose()),
// the cycle model against it under random handshakes for every T and W class, the declared
// latency and throughput cycle by cycle, both banks full, reset mid-tile, the parameter range.
#include <gtest/gtest.h>

#include <deque>
#include <vector>

#include "datapath/transpose_buffer.hpp"
#include "util/error.hpp"
#include "util/rng.hpp"

using namespace hifsim;
using namespace hifsim::dp;

namespace {

std::vector<uint32_t> random_tile(SplitMix64& r, int t) {
  std::vector<uint32_t> v(static_cast<size_t>(t * t));
  for (uint32_t& x : v) x = r.next32();
  return v;
}

// Drives `tiles` through the model with input bubbles and output stalls of the given odds;
// returns the columns read, in order (T elements each).
std::vector<std::vector<uint32_t>> stream(TransposeBuffer& b, const std::vector<std::vector<uint32_t>>& tiles,
                                          SplitMix64& r, unsigned p_idle, unsigned p_stall) {
  const int t = b.tile();
  std::vector<std::vector<uint32_t>> out;
  size_t tile = 0;
  int row = 0;
  const size_t want = tiles.size() * static_cast<size_t>(t);
  for (int guard = 0; out.size() < want && guard < 1000000; ++guard) {
    const bool in_valid = tile < tiles.size() && r.below(100) >= p_idle;
    const bool out_ready = r.below(100) >= p_stall;
    if (b.out_valid() && out_ready) out.emplace_back(b.col(), b.col() + t);
    const bool fire_in = in_valid && b.in_ready();
    b.edge(in_valid, in_valid ? tiles[tile].data() + row * t : nullptr, out_ready);
    if (fire_in && ++row == t) {
      row = 0;
      ++tile;
    }
  }
  return out;
}

TEST(TransposeBuffer, TransposeIsTheDefinition) {
  const int t = 4;
  std::vector<uint32_t> rows(16), cols(16);
  for (int i = 0; i < 16; ++i) rows[static_cast<size_t>(i)] = 0xA0000000u | static_cast<uint32_t>(i);  // element (i/4, i%4)
  TransposeBuffer::transpose(rows.data(), t, 32, cols.data());
  for (int k = 0; k < t; ++k)
    for (int i = 0; i < t; ++i) EXPECT_EQ(cols[static_cast<size_t>(k * t + i)], 0xA0000000u | static_cast<uint32_t>(i * t + k));
  TransposeBuffer::transpose(rows.data(), t, 5, cols.data());  // W = 5 keeps the low 5 bits
  EXPECT_EQ(cols[1], 4u);
  EXPECT_EQ(cols[4], 1u);
}

TEST(TransposeBuffer, CycleModelDeliversEveryTileTransposedInOrder) {
  SplitMix64 r(0x7B5EED);
  for (int t : {2, 4, 8, 16, 64})
    for (int w : {1, 16, 32})
      for (int stages : {0, 1})
        for (unsigned stall : {0u, 25u, 70u}) {
          TransposeBuffer b(t, w, stages);
          b.reset();
          std::vector<std::vector<uint32_t>> tiles;
          for (int n = 0; n < (t == 64 ? 3 : 9); ++n) tiles.push_back(random_tile(r, t));
          const auto got = stream(b, tiles, r, 15, stall);
          ASSERT_EQ(got.size(), tiles.size() * static_cast<size_t>(t)) << "T=" << t << " W=" << w << " STAGES=" << stages;
          std::vector<uint32_t> cols(static_cast<size_t>(t * t));
          for (size_t n = 0; n < tiles.size(); ++n) {
            TransposeBuffer::transpose(tiles[n].data(), t, w, cols.data());
            for (int k = 0; k < t; ++k)
              for (int i = 0; i < t; ++i)
                ASSERT_EQ(got[n * static_cast<size_t>(t) + static_cast<size_t>(k)][static_cast<size_t>(i)],
                          cols[static_cast<size_t>(k * t + i)])
                    << "T=" << t << " W=" << w << " STAGES=" << stages << " stall " << stall << "% tile " << n
                    << " column " << k << " element " << i;
          }
        }
}

// Both sides always ready: rows at cycles 0, 1, ...; the first column at cycle T + STAGES (the
// edge after the last row plus the rank), then one column per cycle and in_ready never low.
TEST(TransposeBuffer, LatencyAndFullThroughputCycleByCycle) {
  for (int t : {2, 4, 16})
    for (int stages : {0, 1}) {
      TransposeBuffer b(t, 32, stages);
      b.reset();
      std::vector<uint32_t> row(static_cast<size_t>(t), 1);
      const int tiles = 4, cycles = tiles * t + t + stages;
      int first = -1, delivered = 0;
      for (int c = 0; c < cycles; ++c) {
        const bool in_valid = c < tiles * t;
        if (in_valid) {
          EXPECT_TRUE(b.in_ready()) << "T=" << t << " STAGES=" << stages << " cycle " << c;
        }
        if (b.out_valid()) {
          if (first < 0) first = c;
          ++delivered;
        } else if (first >= 0) {
          ADD_FAILURE() << "a bubble at cycle " << c << " T=" << t << " STAGES=" << stages;
        }
        b.edge(in_valid, row.data(), true);
      }
      EXPECT_EQ(first, t + stages) << "T=" << t << " STAGES=" << stages;
      EXPECT_EQ(delivered, tiles * t);
      EXPECT_FALSE(b.out_valid());
    }
}

// out_ready low: exactly 2 T rows (both banks) are taken, then in_ready stays low; reading one
// whole tile frees one bank.
TEST(TransposeBuffer, BothBanksFullBlockTheInput) {
  for (int stages : {0, 1}) {
    const int t = 8;
    TransposeBuffer b(t, 16, stages);
    b.reset();
    std::vector<uint32_t> row(static_cast<size_t>(t), 3);
    int taken = 0;
    for (int c = 0; c < 5 * t; ++c) {
      taken += b.in_ready() ? 1 : 0;
      b.edge(true, row.data(), false);
    }
    EXPECT_EQ(taken, 2 * t);
    EXPECT_TRUE(b.bank_full(0) && b.bank_full(1));
    // STAGES = 1: one column moves into the rank while out_ready is low, so a tile's last column
    // leaves the bank at the T-th read edge either way.
    int reads = 0;
    while (!b.in_ready() && reads < 4 * t) {
      b.edge(false, nullptr, true);
      ++reads;
    }
    EXPECT_EQ(reads, stages ? t - 1 : t) << "STAGES=" << stages;
  }
}

TEST(TransposeBuffer, ResetMidTileDropsThePartialTile) {
  SplitMix64 r(42);
  for (int stages : {0, 1}) {
    const int t = 4;
    TransposeBuffer b(t, 32, stages);
    b.reset();
    const auto junk = random_tile(r, t), junk2 = random_tile(r, t);
    for (int i = 0; i < t; ++i) b.edge(true, junk.data() + i * t, false);   // bank 0 full
    for (int i = 0; i < 2; ++i) b.edge(true, junk2.data() + i * t, true);   // bank 1 half, a column read
    b.reset();
    EXPECT_TRUE(b.in_ready());
    EXPECT_FALSE(b.out_valid());
    const std::vector<std::vector<uint32_t>> tiles = {random_tile(r, t), random_tile(r, t)};
    const auto got = stream(b, tiles, r, 0, 0);
    std::vector<uint32_t> cols(static_cast<size_t>(t * t));
    TransposeBuffer::transpose(tiles[0].data(), t, 32, cols.data());
    ASSERT_EQ(got.size(), 2u * t);
    for (int i = 0; i < t; ++i) EXPECT_EQ(got[0][static_cast<size_t>(i)], cols[static_cast<size_t>(i)]);
  }
}

TEST(TransposeBuffer, ParametersOutsideTheRangeAreRefused) {
  EXPECT_THROW(TransposeBuffer(12, 32, 1), Error);
  EXPECT_THROW(TransposeBuffer(1, 32, 1), Error);
  EXPECT_THROW(TransposeBuffer(128, 32, 1), Error);
  EXPECT_THROW(TransposeBuffer(16, 33, 1), Error);
  EXPECT_THROW(TransposeBuffer(16, 0, 1), Error);
  EXPECT_THROW(TransposeBuffer(16, 32, 2), Error);
  EXPECT_NO_THROW(TransposeBuffer(64, 1, 0));
}

}  // namespace
