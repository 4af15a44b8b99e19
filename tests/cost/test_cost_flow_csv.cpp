// The synthesis flows' tables (synth.csv of scripts/synth.sh / cost_synth.sh, a node's units.csv)
// are read by one strict reader (model/cost/flow_csv.hpp): a malformed field is refused with the
// file, "line N <column>" and the reason, never read as a prefix ("3x" as 3), a NaN, an infinity
// or a negative count. The earlier synth.csv reader of area.cpp (std::stod / stoull / stoi)
// accepted 16 of the 17 malformed rows below, and fed them to the area fit; the 17th it refused
// without naming the column.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cmath>
#include <string>
#include <vector>

#include "common/errors_and_temp.hpp"
#include "cost/area.hpp"
#include "cost/node_units.hpp"
#include "cost_test_util.hpp"
#include "util/error.hpp"

using namespace hifsim;
using namespace hifsim::cost;
using hifsim::test::error_of;
using hifsim::test::temp_dir;

namespace {

const char* const kSynthHeader = "module,parameters,cells,transistors,flip_flops,transistors_exclude_ffs,yosys_version,seconds\n";
const char* const kGoodRow = "cost_probe_add,W=8,40,300,0,no,Yosys 0.23,0.4\n";

// A synth.csv of the header, one good row (line 2) and `row` (line 3).
std::string synth_csv_with(const std::string& row) {
  static const std::string dir = temp_dir("flow-csv");
  const std::string p = dir + "/synth.csv";
  write_text(p, std::string(kSynthHeader) + kGoodRow + row + "\n");
  return p;
}

struct BadField {
  const char* row;     // line 3 of the file
  const char* column;  // the column the error must name
};

}  // namespace

TEST(CostFlowCsv, SynthRowsAreRead) {
  const std::string p = synth_csv_with("hif4_dot64,STAGES=3;W=-2,9381,12000,194,yes,Yosys 0.23,12.5");
  const std::vector<SynthRow> rows = read_synth_csv(p);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].module, "cost_probe_add");
  EXPECT_EQ(rows[0].params.at("W"), 8);
  EXPECT_EQ(rows[0].transistors, 300);
  EXPECT_FALSE(rows[0].excl_ffs);
  EXPECT_EQ(rows[1].parameters, "STAGES=3;W=-2");
  EXPECT_EQ(rows[1].params.size(), 2u);
  EXPECT_EQ(rows[1].params.at("STAGES"), 3);
  EXPECT_EQ(rows[1].params.at("W"), -2);
  EXPECT_EQ(rows[1].transistors, 12000);
  EXPECT_EQ(rows[1].flip_flops, 194u);
  EXPECT_TRUE(rows[1].excl_ffs);
  EXPECT_EQ(rows[1].yosys, "Yosys 0.23");
}

// Every field the area fit or a report uses, malformed in a way the old reader let through.
TEST(CostFlowCsv, MalformedSynthFieldsNameFileLineAndColumn) {
  const std::vector<BadField> bad = {
      {"cost_probe_add,W=8,40,nan,0,no,Yosys 0.23,0.4", "transistors"},     // stod: NaN
      {"cost_probe_add,W=8,40,inf,0,no,Yosys 0.23,0.4", "transistors"},     // stod: infinity
      {"cost_probe_add,W=8,40,-5,0,no,Yosys 0.23,0.4", "transistors"},      // negative area
      {"cost_probe_add,W=8,40,12abc,0,no,Yosys 0.23,0.4", "transistors"},   // stod: 12
      {"cost_probe_add,W=8,40,0x12C,0,no,Yosys 0.23,0.4", "transistors"},   // stod: hex 300
      {"cost_probe_add,W=8,40, 300,0,no,Yosys 0.23,0.4", "transistors"},    // stod skips the space
      {"cost_probe_add,W=8,40,300,3x,no,Yosys 0.23,0.4", "flip_flops"},     // stoull: 3
      {"cost_probe_add,W=8,40,300,-1,no,Yosys 0.23,0.4", "flip_flops"},     // stoull: 2^64 - 1
      {"cost_probe_add,W=8,40,300,2.5,no,Yosys 0.23,0.4", "flip_flops"},    // stoull: 2
      {"cost_probe_add,W=8,4o,300,0,no,Yosys 0.23,0.4", "cells"},           // never checked
      {"cost_probe_add,W=8,40,300,0,maybe,Yosys 0.23,0.4", "transistors_exclude_ffs"},  // read as "no"
      {"cost_probe_add,W=8,40,300,0,no,Yosys 0.23,slow", "seconds"},        // never checked
      {"cost_probe_add,STAGES=3x,40,300,0,no,Yosys 0.23,0.4", "parameters"},  // stoi: 3
      {"cost_probe_add,W=8;W=9,40,300,0,no,Yosys 0.23,0.4", "parameters"},    // the second W won
      {"cost_probe_add,=8,40,300,0,no,Yosys 0.23,0.4", "parameters"},         // no name
      {"cost_probe_add,W=99999999999,40,300,0,no,Yosys 0.23,0.4", "parameters"},  // out of range
      {"cost_probe_add,,40,300,0,no,Yosys 0.23,0.4", "parameters"},           // empty, not "-"
      {"cost_probe_add,W=8,40,1e999,0,no,Yosys 0.23,0.4", "transistors"},     // overflows a double
      {"cost_probe_add,W=8,40,300,1e16,no,Yosys 0.23,0.4", "flip_flops"},     // past any count
      {"cost_probe_add,W=8,40,300,0,no,Yosys 0.23,", "seconds"},              // empty last field
  };
  for (const BadField& b : bad) {
    const std::string p = synth_csv_with(b.row);
    const std::string e = error_of([&] { read_synth_csv(p); });
    EXPECT_NE(e.find(p + ": line 3 " + b.column + ": "), std::string::npos) << b.row << "\n  -> " << e;
  }
}

// The file's shape: the exact header, the header's width on every row.
TEST(CostFlowCsv, SynthShapeErrorsNameFileAndLine) {
  const std::string dir = temp_dir("flow-csv");
  const std::string p = dir + "/synth.csv";
  write_text(p, "module,parameters,cells,transistors,flip_flops,yosys_version,seconds\n" + std::string(kGoodRow));
  EXPECT_NE(error_of([&] { read_synth_csv(p); }).find(p + ": line 1: header is not"), std::string::npos);
  write_text(p, std::string(kSynthHeader) + kGoodRow + "cost_probe_add,W=8,40,300,0,no,Yosys 0.23,0.4,\n");
  EXPECT_NE(error_of([&] { read_synth_csv(p); }).find(p + ": line 3: expected 8 comma-separated fields, got 9"), std::string::npos);
  write_text(p, std::string(kSynthHeader) + kGoodRow + "cost_probe_add,W=8,40,300,0,no\n");  // a truncated row
  EXPECT_NE(error_of([&] { read_synth_csv(p); }).find(p + ": line 3: expected 8 comma-separated fields, got 6"), std::string::npos);
  write_text(p, "");
  EXPECT_NE(error_of([&] { read_synth_csv(p); }).find(p + ": line 1: empty file (no header)"), std::string::npos);
  const std::string none = dir + "/none.csv";
  EXPECT_NE(error_of([&] { read_synth_csv(none); }).find(none + ": cannot open the synthesis CSV"), std::string::npos);
}

// units.csv goes through the same reader: same refusals, same message form.
TEST(CostFlowCsv, MalformedNodeUnitFieldsNameFileLineAndColumn) {
  const std::string dir = temp_dir("flow-csv");
  ASSERT_EQ(mkdir((dir + "/n").c_str(), 0700), 0);
  const std::string p = dir + "/n/units.csv";
  const std::string head = "module,parameters,area_um2,cells,flip_flops,min_period_ns,fmax_mhz,min_period_ss_ns,fmax_ss_mhz\n";
  write_text(p, head + "hif4_dot64,STAGES=1,100.5,10,33,8,125,16,62.5\n");
  const NodeUnits u = load_node_units(dir, "n");
  ASSERT_EQ(u.rows.size(), 1u);
  EXPECT_EQ(u.rows[0].area_um2, 100.5);
  EXPECT_EQ(u.rows[0].flip_flops, 33u);
  EXPECT_EQ(u.rows[0].fmax_ss_mhz, 62.5);
  const std::vector<BadField> bad = {
      {"hif4_dot64,STAGES=1,nan,10,33,8,125,16,62.5", "area_um2"},
      {"hif4_dot64,STAGES=1,100.5,10,-33,8,125,16,62.5", "flip_flops"},
      {"hif4_dot64,STAGES=1x,100.5,10,33,8,125,16,62.5", "parameters"},
      {"hif4_dot64,STAGES=1,100.5,10,33,8,fast,16,62.5", "fmax_mhz"},
      {"hif4_dot64,STAGES=1,100.5,10,33,8,126,16,62.5", "fmax_mhz"},  // not 1000 / min_period_ns
      {"hif4_dot64,STAGES=1,100.5,10,33,8,125,16,63", "fmax_ss_mhz"},  // not 1000 / min_period_ss_ns
      {"hif4_dot64,STAGES=1,100.5,10,33,8,125,4,250", "fmax_ss_mhz"},  // the slow corner faster than tt
  };
  for (const BadField& b : bad) {
    write_text(p, head + "hif4_dot64,STAGES=0,90,9,0,10,100,20,50\n" + b.row + "\n");
    const std::string e = error_of([&] { load_node_units(dir, "n"); });
    EXPECT_NE(e.find(p + ": line 3 " + b.column + ": "), std::string::npos) << b.row << "\n  -> " << e;
  }
}
