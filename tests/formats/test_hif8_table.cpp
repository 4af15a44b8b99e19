// HiF8 decode table against the specification's 256-entry table (transcribed as data from
// ../shared/reference/hif8.md section 4 into data/hif8_reference_table.csv).
#include <gtest/gtest.h>

#include <vector>

#include "formats/bits.hpp"
#include "formats/hif8.hpp"
#include "reference.hpp"

using namespace hifsim::fmt;

TEST(Hif8Table, MatchesSpecificationBitForBit) {
  const std::vector<ref::Hif8SpecRow> rows = ref::hif8_spec_rows();
  for (const ref::Hif8SpecRow& r : rows)
    EXPECT_EQ(f32_bits(hif8_decode(static_cast<uint8_t>(r.code))), r.bits) << "code " << std::hex << r.code << " (" << r.cls << ")";
  EXPECT_EQ(rows.size(), 256u);
}
