// The hardware descriptions (model/datapath/*_hw.cpp) and the files generated from them: the
// generated section of rtl/hifsim_pkg.sv and the stage / cut tables of docs/datapath.md must be
// exactly what the descriptions give now (`hifsim units --update FILE` rewrites them); every cut
// table has STAGES ranks at STAGES; the element exponent ranges the aligned unit's widths come
// from are those of the decoders.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "datapath/aligned_dot.hpp"
#include "datapath/element.hpp"
#include "datapath/hw.hpp"
#include "datapath/hw_text.hpp"
#include "text_diff.hpp"
#include "util/error.hpp"

using namespace hifsim;
using namespace hifsim::dp::hw;
using hifsim::test::first_difference;
using hifsim::test::read_text;

namespace {

// HIFSIM_HW_PKG / HIFSIM_HW_DOC (environment) override the paths: used to show a stale file failing.
std::string path(const char* env, const char* rel) {
  const char* e = std::getenv(env);
  return e && *e ? e : std::string(HIFSIM_SOURCE_DIR) + "/" + rel;
}

}  // namespace

// The committed file `rel` (or $env) must be what `update` makes of it now.
static void expect_generated(const char* env, const char* rel, std::string (*update)(const std::string&, const std::string&)) {
  const std::string f = path(env, rel);
  const std::string text = read_text(f);
  const std::string want = update(text, f);
  // EXPECT_TRUE, not EXPECT_EQ: the message is the first differing line, not two whole files.
  EXPECT_TRUE(text == want) << f << " differs from the unit descriptions; run `hifsim units --update " << rel << "`\n"
                            << first_difference(text, want);
}

TEST(HwDescriptions, PackageSectionIsGenerated) { expect_generated("HIFSIM_HW_PKG", "rtl/hifsim_pkg.sv", updated_package); }

TEST(HwDescriptions, DatapathDocTablesAreGenerated) {
  expect_generated("HIFSIM_HW_DOC", "docs/datapath.md", updated_datapath_doc);
}

TEST(HwDescriptions, AStaleFileIsDetected) {
  const std::string f = std::string(HIFSIM_SOURCE_DIR) + "/rtl/hifsim_pkg.sv";
  std::string text = read_text(f);
  const std::string from = "localparam int NV_W_PARTIAL    = 20;";
  const size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, from.size(), "localparam int NV_W_PARTIAL    = 21;");
  EXPECT_NE(updated_package(text, f), text);
  EXPECT_THROW(updated_package("package p; endpackage\n", "x.sv"), Error);
}

TEST(HwDescriptions, CutTablesHaveStagesRanks) {
  for (const NamedUnit& u : all_units()) {
    ASSERT_GE(u.desc.max_stages(), 0) << u.name;
    for (int s = 0; s <= u.desc.max_stages(); ++s) {
      UnitDesc d = u.desc;
      d.stages = s;
      int ranks = 0, bits = 0;
      for (int k = 1; k <= static_cast<int>(d.cuts.size()); ++k)
        if (d.cut_on(k)) ++ranks, bits += d.cuts[static_cast<size_t>(k - 1)].bits;
      EXPECT_EQ(ranks, s) << u.name << " STAGES=" << s;
      EXPECT_EQ(d.cut_masks[static_cast<size_t>(s)] >> d.cuts.size(), 0u) << u.name << ": a mask names a cut that does not exist";
      int inv = 0;
      for (const Component& c : inventory(d))
        if (c.name.rfind("pipe.c", 0) == 0) inv += c.p1 * c.count;
      EXPECT_EQ(inv, bits) << u.name << " STAGES=" << s;
    }
    UnitDesc d = u.desc;
    d.stages = d.max_stages() + 1;
    if (!d.cuts.empty()) {
      EXPECT_THROW(d.cut_on(1), Error) << u.name;
    }
  }
}

TEST(HwDescriptions, ElementExponentRangesAreTheDecoders) {
  int lo = INT_MAX, hi = INT_MIN;
  for (int c = 0; c < 256; ++c) {
    const dp::Elem e = dp::decode_hif8(static_cast<uint8_t>(c));
    if (e.kind == dp::Elem::num && e.sig) lo = std::min(lo, e.exp), hi = std::max(hi, e.exp);
  }
  EXPECT_EQ(lo, dp::kHif8ExpMin);
  EXPECT_EQ(hi, dp::kHif8ExpMax);
  lo = INT_MAX, hi = INT_MIN;
  for (int c = 0; c < 65536; ++c) {
    const dp::Elem e = dp::decode_bf16(static_cast<uint16_t>(c));
    if (e.kind == dp::Elem::num && e.sig) lo = std::min(lo, e.exp), hi = std::max(hi, e.exp);
  }
  EXPECT_EQ(lo, dp::kBf16ExpMin);
  EXPECT_EQ(hi, dp::kBf16ExpMax);
}

TEST(HwDescriptions, UnitsByNameCheckTheirParameters) {
  EXPECT_THROW(unit_by_name("hif4_dot65", {}), Error);
  EXPECT_THROW(unit_by_name("hif4_dot64", {{"STAGES", 6}}), Error);
  EXPECT_THROW(unit_by_name("hif4_dot64", {{"W", 8}}), Error);
  EXPECT_EQ(unit_by_name("hif8_dot", {{"N", 16}, {"W", 24}}).rtl_params.front().value, 16);
  EXPECT_EQ(unit_by_name("mxfp4_dot64", {}).stages, 2);  // the RTL module's default
}
