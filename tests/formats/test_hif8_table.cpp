// HiF8 decode table against the specification's 256-entry table (transcribed as data from
// ../shared/reference/hif8.md section 4 into data/hif8_reference_table.csv).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "formats/bits.hpp"
#include "formats/hif8.hpp"

using namespace hifsim::fmt;

TEST(Hif8Table, MatchesSpecificationBitForBit) {
  std::ifstream f(HIFSIM_TEST_DATA "/hif8_reference_table.csv");
  ASSERT_TRUE(f) << "missing test data";
  std::string line;
  int rows = 0;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("code", 0) == 0) continue;
    std::stringstream ss(line);
    std::string code, cls, bits;
    std::getline(ss, code, ',');
    std::getline(ss, cls, ',');
    std::getline(ss, bits, ',');
    const unsigned c = std::stoul(code, nullptr, 16);
    const uint32_t want = static_cast<uint32_t>(std::stoul(bits, nullptr, 16));
    EXPECT_EQ(f32_bits(hif8_decode(static_cast<uint8_t>(c))), want) << "code " << code << " (" << cls << ")";
    ++rows;
  }
  EXPECT_EQ(rows, 256);
}
