// The per-format record (formats/format.hpp FormatTraits) against the facts it summarises:
// the codecs, the format table, the packed container layout and the RTL module names. Every
// field the rest of the model dispatches on is pinned here, so a wrong row fails a test
// instead of silently changing a GEMM, a cycle count or a cost.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cmath>
#include <cstring>
#include <set>
#include <string>

#include "formats/codes.hpp"
#include "formats/format.hpp"
#include "formats/minifloat.hpp"

using namespace hifsim::fmt;

namespace {

// Bits of one code of each kind (independent of FormatInfo::code_bits, which is checked with it).
unsigned code_width(Code c) {
  if (c == Code::s1p2 || c == Code::e2m1) return 4;
  if (c == Code::bf16) return 16;
  return c == Code::none ? 0 : 8;
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, 4) == 0; }

}  // namespace

TEST(FormatTraits, EveryFormatHasExactlyOneRow) {
  for (const FormatInfo& f : all_formats()) {
    const FormatTraits& t = format_traits(f.id);
    EXPECT_EQ(t.id, f.id) << f.name;
  }
}

TEST(FormatTraits, ElementCodeMatchesTheFormatTable) {
  for (const FormatInfo& f : all_formats()) {
    const FormatTraits& t = format_traits(f.id);
    EXPECT_EQ(code_width(t.element), f.code_bits) << f.name;
    if (t.minifloat) {
      const int eb = t.minifloat->ebits, mb = t.minifloat->mbits;
      const bool ok = (t.element == Code::e2m1 && eb == 2 && mb == 1) || (t.element == Code::e4m3 && eb == 4 && mb == 3) ||
                      (t.element == Code::e5m2 && eb == 5 && mb == 2);
      EXPECT_TRUE(ok) << f.name << ": minifloat spec " << t.minifloat->name << " is not its element code";
    } else {
      EXPECT_TRUE(t.element != Code::e2m1 && t.element != Code::e4m3 && t.element != Code::e5m2)
          << f.name << ": a minifloat element without its spec";
    }
  }
}

// The packed container stores a block as its element codes plus its scale codes; the table's
// storage cost per value is the same number of bits.
TEST(FormatTraits, PackedBlockBytesAreElementsPlusScales) {
  for (const FormatInfo& f : all_formats()) {
    if (!f.tensor) continue;  // only tensors are packed
    const FormatTraits& t = format_traits(f.id);
    unsigned scale_bits = code_width(t.scale);
    if (t.scale == Code::e6m2) scale_bits += 8 + 16;  // HiF4: 8 level-2 and 16 level-3 micro-exponent bits
    EXPECT_EQ(t.packed_record_bytes * 8, f.block * f.code_bits + scale_bits) << f.name;
    EXPECT_DOUBLE_EQ(f.bits_per_value, 8.0 * t.packed_record_bytes / f.block) << f.name;
    EXPECT_EQ(t.scale == Code::none, f.block == 1) << f.name << ": a scale code exactly when values share scales";
  }
}

TEST(FormatTraits, TensorFormatsHaveAUnitConsumingWholeBlocks) {
  for (const FormatInfo& f : all_formats()) {
    const FormatTraits& t = format_traits(f.id);
    if (!f.tensor) {
      EXPECT_EQ(t.unit, DotUnit::none) << f.name;
      continue;
    }
    ASSERT_NE(t.unit, DotUnit::none) << f.name;
    EXPECT_GT(t.unit_lanes, 0u) << f.name;
    EXPECT_EQ(t.unit_lanes % f.block, 0u) << f.name << ": a dot would split a scale block";
    // Unit scales only where the unit has scale inputs the format does not provide.
    EXPECT_EQ(t.unit_scales, f.block == 1 && t.unit == DotUnit::mxfp8_dot32) << f.name;
    EXPECT_EQ(t.tensor_scale, f.id == Format::nvfp4) << f.name;
  }
}

// The unit names are the RTL modules' names (rtl/<unit>.sv), so a report naming the unit
// names the verified hardware.
TEST(FormatTraits, DotUnitNamesAreRtlModules) {
  const std::string rtl = std::string(HIFSIM_TEST_DATA) + "/../../../rtl/";
  std::set<DotUnit> seen;
  for (const FormatInfo& f : all_formats()) {
    const DotUnit u = format_traits(f.id).unit;
    if (u == DotUnit::none || !seen.insert(u).second) continue;
    struct stat st;
    const std::string path = rtl + dot_unit_name(u) + ".sv";
    EXPECT_EQ(stat(path.c_str(), &st), 0) << f.name << ": no " << path;
  }
  EXPECT_EQ(seen.size(), 6u);
  EXPECT_STREQ(dot_unit_name(DotUnit::none), "none");
}

// The code-table entries decode and encode exactly like the per-format codec of codes.hpp.
TEST(FormatTraits, CodeTableEntriesAgreeWithTheCodec) {
  const std::set<Format> with_table = {Format::hif8, Format::fp8_e4m3, Format::fp8_e5m2, Format::fp4_e2m1,
                                       Format::s1p2, Format::e6m2,     Format::e8m0};
  for (const FormatInfo& f : all_formats()) {
    const FormatTraits& t = format_traits(f.id);
    EXPECT_EQ(t.decode != nullptr, with_table.count(f.id) == 1) << f.name;
    EXPECT_EQ(t.encode != nullptr, t.decode != nullptr) << f.name;
    EXPECT_EQ(has_code_table(f.id), t.decode != nullptr) << f.name;
    if (!t.decode) continue;
    for (unsigned c = 0; c < (1u << f.code_bits); ++c) {
      const float v = t.decode(static_cast<uint8_t>(c));
      EXPECT_TRUE(same_bits(v, decode_code(f.id, static_cast<uint16_t>(c)))) << f.name << " code " << c;
      if (std::isfinite(v)) {
        const Rounding r = code_default_rounding(f.id);
        EXPECT_EQ(t.encode(v), encode_code(f.id, v, r, QuantOptions{}, 0)) << f.name << " value " << v;
      }
    }
  }
}
