// Li et al.'s zero-free linear 4-bit second moment (train/linear4_state.hpp) on hand-computed cases:
// the rank-1 normaliser min(row max, column max), the codes (i + 1)/16, a value of 0 stored as
// 1/16 of its normaliser (never 0), the tie to the larger code, a vector normalised per block of
// 128. Mutations shown failing (docs/training.md): the normaliser as max(r_i, c_j); the codes i/15
// (a linear code that includes zero).
#include <gtest/gtest.h>

#include <vector>

#include "train/linear4_state.hpp"

using hifsim::train::linear4_rank1_store;

TEST(Linear4State, RankOneNormaliserAndZeroFreeCodes) {
  // r = (4, 8), c = (4, 8, 0.5): n = [[4, 4, 0.5], [4, 8, 0.5]].
  std::vector<float> v = {4.0f, 1.0f, 0.5f,  //
                          2.0f, 8.0f, 0.0f};
  linear4_rank1_store(v, 2, 3);
  // 4/4 = 1 -> code 15 -> 1; 1/4 = 0.25 -> 16 * 0.25 - 1 = 3 -> 4/16; 0.5/0.5 -> 1;
  // 2/4 = 0.5 -> 7 -> 8/16; 8/8 -> 1; 0 -> code 0 -> 1/16 of 0.5 (never 0).
  const std::vector<float> want = {4.0f, 1.0f, 0.5f, 2.0f, 8.0f, 0.5f / 16.0f};
  EXPECT_EQ(v, want);
}

TEST(Linear4State, NearestCodeTieToTheLargerAndVectorBlocks) {
  // Row vector: blocks of 128 normalised by their own maximum. Block 0: max 16; 16 * (3/16) - 1 =
  // 2 exactly -> 3/16 * 16 = 3; 2.5 -> 16 * 2.5 / 16 - 1 = 1.5, a tie -> 2 -> 3/16 * 16 = 3;
  // 0.1 -> code 0 -> 1.  Block 1: max 0.25; 0.25 -> 0.25.
  std::vector<float> v(130, 0.0f);
  v[0] = 16.0f, v[1] = 3.0f, v[2] = 2.5f, v[3] = 0.1f, v[128] = 0.25f;
  linear4_rank1_store(v, 1, 130);
  EXPECT_EQ(v[0], 16.0f);
  EXPECT_EQ(v[1], 3.0f);
  EXPECT_EQ(v[2], 3.0f);
  EXPECT_EQ(v[3], 1.0f);
  EXPECT_EQ(v[4], 1.0f);           // a 0 of a block with a positive maximum: 1/16 of it
  EXPECT_EQ(v[128], 0.25f);
  EXPECT_EQ(v[129], 0.25f / 16.0f);
}

TEST(Linear4State, AllZeroStaysZero) {
  std::vector<float> v(6, 0.0f);
  linear4_rank1_store(v, 2, 3);
  EXPECT_EQ(v, std::vector<float>(6, 0.0f));
}
