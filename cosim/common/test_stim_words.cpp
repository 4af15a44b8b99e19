// The HiF4 unit <-> 32-bit word packing of the generators (verif/stimulus.hpp), which every
// hif4_dot64 vector goes through: both the RTL and the golden model read the words, so a wrong
// packing would go unseen by the co-simulation itself. Pinned here against the layout written
// out per element: word 0 = E6M2 | E1_8 << 8 | E1_16 << 16, element k at bits 4(k % 8) of word
// 1 + k / 8.
#include <gtest/gtest.h>

#include <cstdint>

#include "util/rng.hpp"
#include "verif/stimulus.hpp"

using namespace hifsim;

TEST(StimWords, Hif4ToWordsIsLayoutAAndFromWordsItsInverse) {
  SplitMix64 r(7);
  for (int t = 0; t < 20000; ++t) {
    fmt::Hif4Unit u;
    u.e6m2 = static_cast<uint8_t>(r.next());
    u.e1_8 = static_cast<uint8_t>(r.next());
    u.e1_16 = static_cast<uint16_t>(r.next());
    for (auto& n : u.nib) n = static_cast<uint8_t>(r.below(16));
    uint32_t w[verif::stim::kHif4Words];
    verif::stim::hif4_to_words(u, w);
    ASSERT_EQ(w[0], u.e6m2 | (uint32_t{u.e1_8} << 8) | (uint32_t{u.e1_16} << 16));
    for (int k = 0; k < 64; ++k) ASSERT_EQ((w[1 + k / 8] >> (4 * (k % 8))) & 0xFu, u.nib[k]) << "element " << k;
    ASSERT_TRUE(verif::stim::hif4_from_words(w) == u);
  }
}
