// Table completeness (docs/cost.md, "Tables"): every committed table loads, every entry has a
// source, and a missing, unknown, negative or unsourced entry fails loudly naming the file and
// the field. Never a default.
#include <gtest/gtest.h>

#include "cost/tables.hpp"
#include "cost_test_util.hpp"
#include "util/error.hpp"

using namespace hifsim;
using namespace hifsim::cost;

namespace {

// Runs load_tables on `dir` and returns the error message ("" if it loaded).
std::string load_error(const std::string& dir) {
  try {
    load_tables(dir, "45nm");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(CostTables, CommittedTablesLoadAndEveryEntryHasASource) {
  const CostTables t = load_tables(tables_dir(), "45nm");
  for (const auto& n : area_entry_names()) {
    ASSERT_TRUE(t.area.entries.count(n)) << n;
    EXPECT_FALSE(t.area.entries.at(n).source.empty()) << n;
    EXPECT_FALSE(t.area.entries.at(n).unit.empty()) << n;
  }
  for (const auto& n : energy_entry_names()) {
    ASSERT_TRUE(t.energy.entries.count(n)) << n;
    EXPECT_FALSE(t.energy.entries.at(n).source.empty()) << n;
  }
  ASSERT_GE(t.sram.rows.size(), 2u);
  for (const auto& r : t.sram.rows) EXPECT_FALSE(r.source.empty());
}

TEST(CostTables, EveryMissingEntryFailsNamingFileAndField) {
  for (const auto& [file, names] : {std::pair<std::string, std::vector<std::string>>{"area.yaml", area_entry_names()},
                                    {"energy-45nm.yaml", energy_entry_names()}}) {
    for (const std::string& n : names) {
      const std::string d = scratch_tables();
      write_text(d + "/" + file, drop_line(read_text(d + "/" + file), n + ":"));
      const std::string msg = load_error(d);
      EXPECT_NE(msg.find(d + "/" + file), std::string::npos) << msg;
      EXPECT_NE(msg.find(": " + n + ": missing entry"), std::string::npos) << msg;
    }
  }
}

TEST(CostTables, UnknownNegativeUnsourcedAndMalformedEntriesFail) {
  // file, the entry line dropped ("" = none), the line appended, a part of the error it must give
  const struct {
    const char *file, *drop, *line, *want;
  } cases[] = {
      {"energy-45nm.yaml", "", "e_bogus: {value: 1, unit: fJ, source: x}", "energy-45nm.yaml: e_bogus: unknown entry"},
      {"energy-45nm.yaml", "e_mul:", "e_mul: {value: -0.5, unit: fJ, source: x}", "e_mul.value: must not be negative"},
      {"area.yaml", "add_w:", "add_w: {value: 13, unit: GE/bit}", "area.yaml: add_w.source: missing"},
      {"area.yaml", "add_w:", "add_w: {value: lots, unit: GE/bit, source: x}", "add_w.value: 'lots' is not a finite number"},
      {"energy-45nm.yaml", "unmeasured_activity:", "unmeasured_activity: {value: 1.5, unit: fraction, source: x}",
       "unmeasured_activity: is a toggle fraction"},
  };
  for (const auto& c : cases) {
    const std::string d = scratch_tables(), f = d + "/" + c.file;
    const std::string t = read_text(f);
    write_text(f, (*c.drop ? drop_line(t, c.drop) : t) + c.line + "\n");
    EXPECT_NE(load_error(d).find(c.want), std::string::npos) << load_error(d);
  }
  {
    const std::string d = scratch_tables();
    std::string t = read_text(d + "/energy-45nm.yaml");
    t.replace(t.find("node: 45nm"), 10, "node: 7nm");
    write_text(d + "/energy-45nm.yaml", t);
    EXPECT_NE(load_error(d).find("energy-45nm.yaml: node: expected '45nm'"), std::string::npos) << load_error(d);
  }
  EXPECT_NE(load_error("/nonexistent").find("/nonexistent/area.yaml: cannot open"), std::string::npos);
}

TEST(CostTables, SramRowsFailLoudlyAndInterpolateMonotonically) {
  {
    const std::string d = scratch_tables();
    std::string t = read_text(d + "/sram.yaml");
    const auto p = t.find("write_pj_per_byte: 1.25, ");
    ASSERT_NE(p, std::string::npos);
    t.erase(p, std::string("write_pj_per_byte: 1.25, ").size());
    write_text(d + "/sram.yaml", t);
    EXPECT_NE(load_error(d).find("sram.yaml: sizes[1].write_pj_per_byte: missing number"), std::string::npos) << load_error(d);
  }
  const SramTable s = load_tables(tables_dir()).sram;
  EXPECT_THROW(s.at(16, "tiny"), Error);                        // below the table
  EXPECT_THROW(s.at(uint64_t{1} << 40, "huge"), Error);         // above the table
  try {
    s.at(16, "buffer_x");
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("sram.yaml: sizes: buffer_x: a macro of 16 bytes is outside the table"), std::string::npos)
        << e.what();
  }
  double prev_e = 0, prev_a = 0;
  for (uint64_t b = s.rows.front().bytes; b <= s.rows.back().bytes; b *= 2) {
    const SramRow r = s.at(b, "t");
    EXPECT_GT(r.read_pj_per_byte, prev_e) << b;
    EXPECT_GT(r.area_mm2, prev_a) << b;
    prev_e = r.read_pj_per_byte;
    prev_a = r.area_mm2;
  }
  // A table row is returned exactly (Horowitz: 32 KB, 20 pJ per 64 bits).
  EXPECT_DOUBLE_EQ(s.at(32768, "t").read_pj_per_byte, 2.5);
}
