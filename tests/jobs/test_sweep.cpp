// Sweep expansion (cartesian x zip), content-hashed ids, sharding, resume after an interruption,
// and merging. The Slurm files: test_sweep_slurm_files.cpp; the on-disk records: test_sweep_records.cpp.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <string>

#include "jobs/sweep_test_files.hpp"
#include "sweep/merge.hpp"
#include "sweep/run_points.hpp"
#include "sweep/sweep.hpp"

using namespace hifsim::sweep;
using hifsim::test::read_text;
using hifsim::test::ScratchDir;
using hifsim::test::write_text;

namespace {
// A sweep folder with a base config and a sweep file.
std::string make_sweep(const std::string& d, const std::string& body) {
  write_text(d + "/base.yaml", "schema: hifsim-unit/1\narray: {rows: 4, cols: 4}\n");
  write_text(d + "/s.yaml", "schema: hifsim-sweep/1\nname: t\nbase: base.yaml\nworkload: {gemm: [64, 64, 64]}\n" + body);
  return d + "/s.yaml";
}
}  // namespace

TEST(Sweep, CartesianTimesZipExpansion) {
  const ScratchDir d("sweep-test");
  const SweepSpec s = load_sweep(make_sweep(d,
      "grid:\n  array.rows: [8, 16, 32]\n  array.cols: [8, 16]\n"
      "zip:\n  - {pe.format: [hif4, nvfp4], pe.acc: [fp32, kulisch]}\n"));
  const auto pts = expand(s);
  ASSERT_EQ(pts.size(), 3u * 2u * 2u);
  // Last axis fastest: point 0 = rows 8, cols 8, (hif4, fp32); point 1 = (nvfp4, kulisch).
  EXPECT_EQ(pts[0].overrides, (std::vector<std::string>{"array.rows=8", "array.cols=8", "pe.format=hif4", "pe.acc=fp32"}));
  EXPECT_EQ(pts[1].overrides, (std::vector<std::string>{"array.rows=8", "array.cols=8", "pe.format=nvfp4", "pe.acc=kulisch"}));
  EXPECT_EQ(pts[11].overrides, (std::vector<std::string>{"array.rows=32", "array.cols=16", "pe.format=nvfp4", "pe.acc=kulisch"}));
  // Zipped values never cross: hif4 always with fp32.
  for (const auto& p : pts) {
    const bool hif4 = p.overrides[2] == "pe.format=hif4";
    EXPECT_EQ(p.overrides[3], hif4 ? "pe.acc=fp32" : "pe.acc=kulisch");
  }
  std::set<std::string> ids;
  for (const auto& p : pts) ids.insert(p.id);
  EXPECT_EQ(ids.size(), pts.size());
}

TEST(Sweep, IdsAreContentHashes) {
  const ScratchDir d1("sweep-test"), d2("sweep-test");
  // Same content, different axis order and folder: same ids.
  const auto a = expand(load_sweep(make_sweep(d1, "grid:\n  array.rows: [8, 16]\n  array.cols: [4]\n")));
  const auto b = expand(load_sweep(make_sweep(d2, "grid:\n  array.cols: [4]\n  array.rows: [8, 16]\n")));
  std::set<std::string> ia, ib;
  for (const auto& p : a) ia.insert(p.id);
  for (const auto& p : b) ib.insert(p.id);
  EXPECT_EQ(ia, ib);
  EXPECT_EQ(a[0].id.size(), 16u);
  // A different base config or workload changes every id.
  write_text(d2 + "/base.yaml", "schema: hifsim-unit/1\narray: {rows: 4, cols: 8}\n");
  const auto c = expand(load_sweep(d2 + "/s.yaml"));
  for (const auto& p : c) EXPECT_FALSE(ia.count(p.id));
  write_text(d1 + "/s.yaml", "schema: hifsim-sweep/1\nname: t\nbase: base.yaml\nworkload: {gemm: [64, 64, 128]}\n"
                        "grid:\n  array.rows: [8, 16]\n  array.cols: [4]\n");
  const auto e = expand(load_sweep(d1 + "/s.yaml"));
  for (const auto& p : e) EXPECT_FALSE(ia.count(p.id));
}

TEST(Sweep, ShardsPartitionThePoints) {
  const ScratchDir d("sweep-test");
  const auto pts = expand(load_sweep(make_sweep(d, "grid:\n  array.rows: [1, 2, 3, 4, 5, 6, 7]\n")));
  std::multiset<std::string> seen;
  for (size_t i = 0; i < 3; ++i)
    for (const auto& p : shard(pts, i, 3)) seen.insert(p.id);
  EXPECT_EQ(seen.size(), pts.size());
  EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()).size(), pts.size());
  EXPECT_EQ(parse_shard("2/5"), std::make_pair(size_t{2}, size_t{5}));
  for (const char* bad : {"5/5", "1", "a/3", "1/0", "-1/3"}) EXPECT_THROW(parse_shard(bad), std::runtime_error) << bad;
}

TEST(Sweep, ResumesAfterInterruptionAndMerges) {
  const ScratchDir d("sweep-test");
  const SweepSpec s = load_sweep(make_sweep(d, "grid:\n  array.rows: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n  array.cols: [1, 2]\n"));
  const auto pts = expand(s);
  std::atomic<int> calls{0};
  Evaluator ev = [&](const Point& p) {
    ++calls;
    return "{\n  \"status\": \"ok\",\n  \"cycles\": " + std::to_string(100 + p.index) + ",\n  \"energy\": {\"pj\": 1.5}\n}\n";
  };
  RunOptions o;
  o.quiet = true;
  o.jobs = 3;
  o.max_points = 7;  // the interruption: only 7 of 20 points finish
  EXPECT_EQ(run_points(pts, d + "/out", ev, o), 7u);
  EXPECT_EQ(calls.load(), 7);
  // Exactly the 7 finished points count as done.
  EXPECT_EQ(finished_ids(d + "/out").size(), 7u);
  o.max_points = 0;
  EXPECT_EQ(run_points(pts, d + "/out", ev, o), 13u);  // resume: only the rest
  EXPECT_EQ(calls.load(), 20);
  EXPECT_EQ(run_points(pts, d + "/out", ev, o), 0u);    // nothing left
  EXPECT_EQ(merge_results(s, pts, d + "/out"), 20u);
  const std::string csv = read_text(d + "/out/results.csv");
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "id,array.rows,array.cols,cycles,energy.pj");
  EXPECT_NE(csv.find(",119,1.5"), std::string::npos) << csv.substr(0, 300);
  EXPECT_EQ(read_text(d + "/out/missing.txt"), "");
}

TEST(Sweep, ErrorsNameFileFieldAndReason) {
  const ScratchDir d("sweep-test");
  auto err = [&](const std::string& body) {
    try {
      load_sweep(make_sweep(d, body));
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(err("grid:\n  array.rows: []\n").find("grid.array.rows: must be a non-empty list"), std::string::npos);
  EXPECT_NE(err("zip:\n  - {a.b: [1, 2], c.d: [1]}\n").find("zip[0].c.d: has 1 values"), std::string::npos);
  EXPECT_NE(err("grid:\n  a: [1]\nzip:\n  - {a: [2]}\n").find("field swept twice"), std::string::npos);
  EXPECT_NE(err("").find("nothing to sweep"), std::string::npos);
  EXPECT_NE(err("grid:\n  a: [1]\nbogus: 1\n").find("bogus: unknown field"), std::string::npos);
  EXPECT_EQ(err("grid:\n  a: [1]\n"), "no error");
  EXPECT_EQ(err("grid:\n  a: [1]\nbogus: 1\n").rfind(d + "/s.yaml: ", 0), 0u);  // the message starts with the file
}
