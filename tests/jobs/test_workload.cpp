// eval/workload: the one place jobs and activity operand sets are built from a workload for
// `hifsim run`, `cost`, `compare` and `sweep` -- GEMM shapes, op selection, instances, and which
// operands the energy model measures under each sampling policy.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>

#include "eval/workload.hpp"
#include "common/errors_and_temp.hpp"
#include "util/error.hpp"

using namespace hifsim;
using test::error_of;

namespace {
const std::string kShapes = std::string(HIFSIM_SOURCE_DIR) + "/traces/shapes/llama3-8b-decode-b64";
const std::string kCaptured = std::string(HIFSIM_SOURCE_DIR) + "/traces/stories260k";

eval::Workload shape_trace() {
  eval::Workload w;
  w.trace = io::read_trace(kShapes);
  return w;
}

}  // namespace

TEST(Workload, GemmShapeIsCheckedWholly) {
  eval::Workload w;
  eval::parse_gemm_shape("64,128,2048", w);
  EXPECT_EQ(w.M, 64u);
  EXPECT_EQ(w.N, 128u);
  EXPECT_EQ(w.K, 2048u);
  EXPECT_EQ(w.source(), "gemm 64,128,2048");
  for (const char* bad : {"0,1,1", "1,2", "-1,2,3", "2147483649,1,1", "a,b,c", "1,2,3,4", ",1,1"})
    EXPECT_NE(error_of([&] { eval::parse_gemm_shape(bad, w); }).find("--gemm"), std::string::npos) << bad;
}

TEST(Workload, OpsAreSelectedByNameInTraceOrder) {
  eval::Workload w = shape_trace();
  eval::select_ops(*w.trace, {"down_proj", "q_proj"});
  ASSERT_EQ(w.trace->ops.size(), 2u);
  EXPECT_EQ(w.trace->ops[0].name, "q_proj");
  EXPECT_EQ(w.trace->ops[1].name, "down_proj");
  EXPECT_NE(error_of([&] { eval::select_ops(*w.trace, {"nope"}); }).find("no op named 'nope'"), std::string::npos);
}

TEST(Workload, TimingJobsCountEveryInstance) {
  eval::Workload w = shape_trace();
  const auto jobs = eval::timing_jobs(w);
  ASSERT_EQ(jobs.size(), w.trace->ops.size());
  for (size_t i = 0; i < jobs.size(); ++i) {
    const io::TraceOp& op = w.trace->ops[i];
    EXPECT_EQ(jobs[i].instances, op.batch * op.repeat) << op.name;
    EXPECT_FALSE(jobs[i].values);
  }
  w.one_layer = true;
  EXPECT_EQ(eval::timing_jobs(w)[0].instances, w.trace->ops[0].batch);
  eval::select_ops(*w.trace, {"q_proj"});
  const auto each = eval::timing_jobs(w, true);
  ASSERT_EQ(each.size(), w.trace->ops[0].batch);
  EXPECT_EQ(each[0].name, "q_proj#0");
  eval::Workload g;
  eval::parse_gemm_shape("8,16,64", g);
  const auto one = eval::timing_jobs(g);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].name, "gemm");
}

// The seeded operands of the GEMM are reproducible by seed and differ between A and B.
TEST(Workload, SeededGemmOperands) {
  eval::Workload w;
  eval::parse_gemm_shape("4,3,16", w);
  eval::OperandStore k1, k2;
  const auto j1 = eval::value_jobs(w, k1), j2 = eval::value_jobs(w, k2);
  ASSERT_EQ(j1.size(), 1u);
  ASSERT_TRUE(j1[0].values && j1[0].A && j1[0].B);
  EXPECT_EQ(std::vector<float>(j1[0].A, j1[0].A + 64), std::vector<float>(j2[0].A, j2[0].A + 64));
  EXPECT_NE(j1[0].A[0], j1[0].B[0]);
  w.seed = 2;
  eval::OperandStore k3;
  EXPECT_NE(eval::value_jobs(w, k3)[0].A[0], j1[0].A[0]);
}

// Shape-only traces: seeded values shaped like the jobs (at most 64 rows), at most max_ops of
// them, in job order, each weighing its MACs.
TEST(Workload, ShapeOnlyActivityIsSeededInJobOrder) {
  eval::Workload w = shape_trace();
  const auto jobs = eval::timing_jobs(w);
  eval::OperandStore keep;
  const auto sets = eval::activity_sets(jobs, &*w.trace, {3, true, 1}, keep);
  ASSERT_EQ(sets.size(), 3u);
  EXPECT_TRUE(eval::seeded_sets(sets));
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(sets[i].name, jobs[i].name + " (seeded normal values)");
    EXPECT_EQ(sets[i].M, std::min<uint64_t>(jobs[i].M, 64));
    EXPECT_EQ(sets[i].K, jobs[i].K);
    EXPECT_DOUBLE_EQ(sets[i].weight, double(jobs[i].M) * double(jobs[i].N) * double(jobs[i].K) * double(jobs[i].instances));
  }
}

// Captured traces: the largest ops first (compare, sweep) or every op in trace order (cost).
TEST(Workload, CapturedActivityOrder) {
  eval::Workload w;
  try {
    w.trace = io::read_trace(kCaptured);
    eval::OperandStore probe;
    (void)eval::trace_operand_set(*w.trace, w.trace->ops.front(), 1, probe);
  } catch (const Error&) {
    GTEST_SKIP() << "stories260k tensors missing (scripts/capture/ensure_traces.sh --only stories260k)";
  }
  const auto jobs = eval::timing_jobs(w);
  eval::OperandStore keep;
  const auto largest = eval::activity_sets(jobs, &*w.trace, {4, true, 1}, keep);
  ASSERT_EQ(largest.size(), 4u);
  EXPECT_FALSE(eval::seeded_sets(largest));
  for (size_t i = 1; i < largest.size(); ++i) EXPECT_GE(largest[i - 1].weight, largest[i].weight);
  const auto in_order = eval::activity_sets(jobs, &*w.trace, {SIZE_MAX, false, 1}, keep);
  ASSERT_EQ(in_order.size(), w.trace->ops.size());
  for (size_t i = 0; i < in_order.size(); ++i) EXPECT_EQ(in_order[i].name, w.trace->ops[i].name);
}
