// 10^4 points through the sweep's record store with a real interruption: a child process
// evaluates the sweep and is killed with SIGKILL mid-way (no cleanup, like a node failure); the
// resumed run evaluates exactly the points without a complete record, every point is recorded
// exactly once, and the merge is byte-identical to an uninterrupted run. The evaluator is a
// stand-in (a deterministic function of the point, ~0.1 ms each) so the test measures the store,
// not the unit model; the 10^5-point figures with the real evaluator are in docs/sweeps.md.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "jobs/sweep_test_files.hpp"
#include "sweep/merge.hpp"
#include "sweep/records.hpp"
#include "sweep/run_points.hpp"
#include "sweep/sweep.hpp"

using namespace hifsim::sweep;
using hifsim::test::read_text;
using hifsim::test::ScratchDir;
using hifsim::test::write_text;

namespace {
// A result that depends on every override, with numbers of all kinds.
std::string result_of(const Point& p) {
  uint64_t h = 1469598103934665603ull;
  for (const auto& o : p.overrides)
    for (char c : o) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return "{\"status\": \"ok\", \"cycles\": " + std::to_string(h % 1000003) + ", \"energy_pj_per_mac\": " +
         std::to_string(static_cast<double>(h % 997) / 7.0) + ", \"tag\": \"p" + std::to_string(p.index) + "\"}";
}
}  // namespace

TEST(SweepScale, TenThousandPointsKilledMidWayResumeExactly) {
  const ScratchDir d("sweep-scale");
  write_text(d + "/base.yaml", "schema: hifsim-unit/1\n");
  write_text(d + "/s.yaml", "schema: hifsim-sweep/1\nname: scale\nbase: base.yaml\nworkload: {gemm: [8, 8, 8]}\ngrid:\n"
                       "  a: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\n  b: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\n"
                       "  c: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\n  d: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\n");
  const SweepSpec s = load_sweep(d + "/s.yaml");
  const auto pts = expand(s);
  ASSERT_EQ(pts.size(), 10000u);
  RunOptions o;
  o.quiet = true;
  o.jobs = 2;

  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    run_points(pts, d + "/out", [](const Point& p) {
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      return result_of(p);
    }, o);
    _exit(0);
  }
  // Kill it once a third of the points are finished (bounded: 60 s).
  size_t seen = 0;
  for (int i = 0; i < 60000 && seen < pts.size() / 3; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    seen = finished_ids(d + "/out").size();
  }
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the child finished before it was killed: " << seen << " points seen";

  const RecordSet after_kill = read_records(d + "/out", false);
  const size_t done = after_kill.done.size();
  ASSERT_GT(done, 0u);
  ASSERT_LT(done, pts.size());
  EXPECT_LE(after_kill.problems.size(), 1u);  // at most the line being written when it died

  std::set<size_t> ran;
  std::mutex mu;
  EXPECT_EQ(run_points(pts, d + "/out", [&](const Point& p) {
              std::lock_guard<std::mutex> lk(mu);
              EXPECT_FALSE(after_kill.done.count(p.id)) << "point " << p.index << " evaluated again";
              ran.insert(p.index);
              return result_of(p);
            }, o),
            pts.size() - done);
  EXPECT_EQ(ran.size(), pts.size() - done);

  // Every point exactly once, and the merge equals an uninterrupted run's.
  size_t lines = 0;
  for (const auto& f : read_records(d + "/out", false).files) {
    const std::string t = read_text(f);
    lines += static_cast<size_t>(std::count(t.begin(), t.end(), '\n'));
  }
  EXPECT_EQ(lines, pts.size());
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(merge_results(s, pts, d + "/out"), pts.size());
  const double merge_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("killed after %zu of %zu points; merge of %zu points: %.3f s\n", done, pts.size(), pts.size(), merge_s);
  run_points(pts, d + "/ref", result_of, o);
  EXPECT_EQ(merge_results(s, pts, d + "/ref"), pts.size());
  EXPECT_EQ(read_text(d + "/out/results.csv"), read_text(d + "/ref/results.csv"));
  EXPECT_EQ(read_text(d + "/out/missing.txt"), "");
}
