// One design-sweep point (eval/sweep_point, eval/accuracy_memo): which config changes share an
// accuracy result, the result.json fields a point writes, and the workload a sweep file names.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "eval/sweep_point.hpp"
#include "util/error.hpp"

using namespace hifsim;

namespace {
const std::string kBase = std::string(HIFSIM_SOURCE_DIR) + "/configs/units/hif4-32x32.yaml";

std::string key(const std::vector<std::string>& overrides) {
  return eval::AccuracyMemo::arithmetic_key(cfg::load_unit_config(kBase, overrides));
}
}  // namespace

// Array size, dataflow and memory do not change a unit's values; the arithmetic does.
TEST(SweepPoint, AccuracyKeyFollowsTheArithmeticOnly) {
  const std::string base = key({});
  EXPECT_EQ(key({"array.rows=16", "array.cols=8"}), base);
  EXPECT_EQ(key({"array.dataflow=ws"}), base);
  EXPECT_EQ(key({"memory.bytes_per_cycle=256"}), base);
  EXPECT_NE(key({"pe.format=nvfp4"}), base);
  EXPECT_NE(key({"pe.accumulator=fp32-m13-rz"}), base);
  EXPECT_NE(key({"residual.enabled=true"}), base);
  EXPECT_NE(key({"pe.format=hif8", "pe.hif8_lanes=32"}), key({"pe.format=hif8"}));
}

TEST(SweepPoint, ResultJsonNamesTimingCostAndAccuracy) {
  eval::UnitEval e;
  e.unit = cfg::load_unit_config(kBase);
  e.totals.cycles.total = 1000;
  e.totals.macs = 2048;
  e.utilization = 0.5;
  e.cost_unsupported = "no cost for this unit";
  const std::string no_cost = eval::sweep_point_json(e, std::nullopt);
  EXPECT_NE(no_cost.find("\"status\": \"ok\""), std::string::npos) << no_cost;
  EXPECT_NE(no_cost.find("\"cycles\": 1000"), std::string::npos) << no_cost;
  EXPECT_NE(no_cost.find("\"cost_unsupported\": \"no cost for this unit\""), std::string::npos) << no_cost;
  EXPECT_EQ(no_cost.find("sqnr_db"), std::string::npos) << no_cost;
  eval::AccuracyFigures a;
  a.sqnr_db = 21.5;
  const std::string with_acc = eval::sweep_point_json(e, a);
  EXPECT_NE(with_acc.find("\"sqnr_db\": 21.5"), std::string::npos) << with_acc;
}

TEST(SweepPoint, ShapeOnlyAccuracyTraceIsRefused) {
  const std::string shapes = std::string(HIFSIM_SOURCE_DIR) + "/traces/shapes/llama3-8b-decode-b64";
  try {
    eval::AccuracyMemo m(shapes, {}, "s.yaml");
    FAIL() << "a shape-only trace was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("shape-only"), std::string::npos) << e.what();
  }
}
