// The on-disk records of a sweep (model/sweep/records.hpp): a point is finished exactly when a
// complete, valid record of it exists, so a process killed mid-write, a damaged line or a
// result without "status": "ok" make that point (and only it) run again; concurrent writers
// never share a file; the earlier one-folder-per-point layout is still read; the merge keeps
// every number's exact text; two different results for one point are refused.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <set>
#include <string>
#include <mutex>
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
SweepSpec make_spec(const std::string& d, size_t n) {
  write_text(d + "/base.yaml", "schema: hifsim-unit/1\narray: {rows: 4, cols: 4}\n");
  std::string vals;
  for (size_t i = 1; i <= n; ++i) vals += (i > 1 ? ", " : "") + std::to_string(i);
  write_text(d + "/s.yaml", "schema: hifsim-sweep/1\nname: t\nbase: base.yaml\nworkload: {gemm: [8, 8, 8]}\ngrid:\n  array.rows: [" +
                           vals + "]\n");
  return load_sweep(d + "/s.yaml");
}
std::string result_of(const Point& p) {
  return "{\n  \"status\": \"ok\",\n  \"cycles\": " + std::to_string(1000 + p.index) + ",\n  \"x\": 0.10000000000000001\n}\n";
}
RunOptions quiet() {
  RunOptions o;
  o.quiet = true;
  o.jobs = 2;
  return o;
}
std::vector<std::string> record_files(const std::string& out) {
  std::vector<std::string> f;
  for (const auto& p : read_records(out, false).files) f.push_back(p);
  return f;
}
}  // namespace

TEST(SweepRecords, OneFilePerProcessOneLinePerPoint) {
  const ScratchDir d("sweep-records");
  const auto pts = expand(make_spec(d, 10));
  RunOptions o = quiet();
  o.tag = "shard-0-of-2";
  EXPECT_EQ(run_points(shard(pts, 0, 2), d + "/out", result_of, o), 5u);
  const auto files = record_files(d + "/out");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_NE(files[0].find("/records/shard-0-of-2-"), std::string::npos) << files[0];
  const std::string text = read_text(files[0]);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 5);
  // A line: the id, the index, the overrides, the result on one line. With 2 jobs the lines come
  // in completion order, so point 0's line is looked for at any line start, not only the first.
  const std::string line0 = "{\"id\":\"" + pts[0].id + "\",\"index\":0,\"overrides\":[\"array.rows=1\"],\"result\":{";
  EXPECT_TRUE(text.rfind(line0, 0) == 0 || text.find("\n" + line0) != std::string::npos) << text.substr(0, 400);
  // A run with nothing to do creates no file.
  EXPECT_EQ(run_points(shard(pts, 0, 2), d + "/out", result_of, o), 0u);
  EXPECT_EQ(record_files(d + "/out").size(), 1u);
}

TEST(SweepRecords, AProcessKilledMidWriteLosesOnlyThatPoint) {
  const ScratchDir d("sweep-records");
  const auto pts = expand(make_spec(d, 8));
  RunOptions o = quiet();
  o.max_points = 5;
  EXPECT_EQ(run_points(pts, d + "/out", result_of, o), 5u);
  const std::string f = record_files(d + "/out").at(0);
  // Cut the file inside its last line, as a kill during write_text() would leave it.
  const std::string text = read_text(f);
  // Lines come in completion order (2 jobs): the cut point is the last line's, not always point 4.
  const size_t last = text.rfind('\n', text.size() - 2) + 1, at = text.find("\"index\":", last);
  ASSERT_NE(at, std::string::npos) << text;
  const size_t cut = std::stoul(text.substr(at + 8));
  ASSERT_LT(cut, 5u);
  ASSERT_EQ(truncate(f.c_str(), static_cast<off_t>(text.size() - 7)), 0);
  const RecordSet set = read_records(d + "/out", false);
  EXPECT_EQ(set.done.size(), 4u);
  ASSERT_EQ(set.problems.size(), 1u);
  EXPECT_NE(set.problems[0].find(":5: incomplete last line"), std::string::npos) << set.problems[0];
  // The rerun evaluates exactly the cut point and the three never started.
  std::set<size_t> ran;
  std::mutex mu;
  o.max_points = 0;
  EXPECT_EQ(run_points(pts, d + "/out", [&](const Point& p) {
              std::lock_guard<std::mutex> lk(mu);
              ran.insert(p.index);
              return result_of(p);
            }, o), 4u);
  EXPECT_EQ(ran, (std::set<size_t>{cut, 5, 6, 7}));
  EXPECT_EQ(finished_ids(d + "/out").size(), 8u);
}

TEST(SweepRecords, DamagedLinesAndUnfinishedResultsRunAgain) {
  const ScratchDir d("sweep-records");
  const auto pts = expand(make_spec(d, 4));
  const std::string rec = d + "/out/records";
  mkdir((d + "/out").c_str(), 0777);
  mkdir(rec.c_str(), 0777);
  auto line = [&](const Point& p, const std::string& result) {
    return "{\"id\":\"" + p.id + "\",\"index\":" + std::to_string(p.index) + ",\"overrides\":[],\"result\":" + result + "}\n";
  };
  write_text(rec + "/a.jsonl", line(pts[0], "{\"status\":\"ok\",\"cycles\":1}") +  // finished
                              line(pts[1], "{\"status\":\"failed\",\"cycles\":1}") +  // not finished
                              std::string("\0\0\0\0garbage\n", 12) +                  // what a crash can leave
                              line(pts[2], "{\"status\":\"ok\",\"cycles\":1") +       // not JSON (no closing brace)
                              line(pts[3], "{\"status\":\"ok\"} trailing"));          // not strict JSON
  const RecordSet set = read_records(d + "/out", false);
  EXPECT_EQ(set.done.size(), 1u);
  EXPECT_TRUE(set.done.count(pts[0].id));
  EXPECT_EQ(set.problems.size(), 4u);
  EXPECT_NE(set.problems[0].find("a.jsonl:2: result without \"status\": \"ok\""), std::string::npos) << set.problems[0];
  EXPECT_NE(set.problems[1].find("a.jsonl:3: not a sweep record"), std::string::npos) << set.problems[1];
}

TEST(SweepRecords, ConcurrentWritersOfOneShardNeverShareAFile) {
  const ScratchDir d("sweep-records");
  const SweepSpec s = make_spec(d, 40);
  const auto pts = expand(s);
  // The same shard twice at once (a task resubmitted while its first run still writes): each
  // run's first evaluation waits until the other run has started evaluating too, so both have
  // read the folder before either wrote to it and both evaluate every point.
  std::atomic<bool> started[2] = {false, false};
  auto evaluator = [&](int me) {
    return [&, me](const Point& p) {
      started[me] = true;
      for (int i = 0; i < 10000 && !started[1 - me]; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      return result_of(p);
    };
  };
  std::thread a([&] { run_points(pts, d + "/out", evaluator(0), quiet()); });
  std::thread b([&] { run_points(pts, d + "/out", evaluator(1), quiet()); });
  a.join();
  b.join();
  const auto files = record_files(d + "/out");
  EXPECT_EQ(files.size(), 2u);
  size_t lines = 0;
  for (const auto& f : files) {
    const std::string t = read_text(f);
    lines += std::count(t.begin(), t.end(), '\n');
    EXPECT_EQ(t.back(), '\n');
  }
  EXPECT_EQ(lines, 80u);  // both evaluated everything; every line whole
  EXPECT_EQ(merge_results(s, pts, d + "/out"), 40u);
  EXPECT_EQ(read_text(d + "/out/missing.txt"), "");
}

TEST(SweepRecords, TwoDifferentResultsForOnePointAreRefused) {
  const ScratchDir d("sweep-records");
  const SweepSpec s = make_spec(d, 3);
  const auto pts = expand(s);
  run_points(pts, d + "/out", result_of, quiet());
  run_points(pts, d + "/other", [](const Point& p) { return "{\"status\": \"ok\", \"cycles\": " + std::to_string(p.index) + "}"; },
             quiet());
  const std::string other = record_files(d + "/other").at(0);
  const std::string copy = d + "/out/records/copy.jsonl";
  write_text(copy, read_text(other));
  try {
    merge_results(s, pts, d + "/out");
    FAIL() << "two different results of one point were merged";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("differs from the record of the same point"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("copy.jsonl:1"), std::string::npos) << e.what();
  }
}

TEST(SweepRecords, MergeKeepsTheExactTextOfEveryNumber) {
  const ScratchDir d("sweep-records");
  const SweepSpec s = make_spec(d, 2);
  const auto pts = expand(s);
  run_points(pts, d + "/out", [](const Point& p) {
    return "{\"status\": \"ok\", \"x\": 0.10000000000000001, \"big\": 1e999, \"n\": " + std::to_string(p.index) +
           ", \"e\": {\"pj\": 2.5e-12}, \"name\": \"a,b\", \"flag\": true, \"none\": null, \"list\": [1, 2]}";
  }, quiet());
  ASSERT_EQ(merge_results(s, pts, d + "/out"), 2u);
  const std::string csv = read_text(d + "/out/results.csv");
  EXPECT_EQ(csv, "id,array.rows,x,big,n,e.pj,name,flag,none\n" + pts[0].id + ",1,0.10000000000000001,1e999,0,2.5e-12,\"a,b\",true,\n" +
                     pts[1].id + ",2,0.10000000000000001,1e999,1,2.5e-12,\"a,b\",true,\n");
}

TEST(SweepRecords, EarlierOneFolderPerPointLayoutIsRead) {
  const ScratchDir d("sweep-records");
  const SweepSpec s = make_spec(d, 3);
  const auto pts = expand(s);
  const std::string pd = d + "/out/points/" + pts[1].id;
  ASSERT_EQ(system(("mkdir -p " + pd).c_str()), 0);
  write_text(pd + "/result.json", "{\n  \"status\": \"ok\",\n  \"cycles\": 1001,\n  \"x\": 0.10000000000000001\n}\n");
  std::atomic<int> calls{0};
  EXPECT_EQ(run_points(pts, d + "/out", [&](const Point& p) {
              ++calls;
              return result_of(p);
            }, quiet()), 2u);
  EXPECT_EQ(calls.load(), 2);
  EXPECT_EQ(merge_results(s, pts, d + "/out"), 3u);
  EXPECT_NE(read_text(d + "/out/results.csv").find(pts[1].id + ",2,1001,0.10000000000000001\n"), std::string::npos);
}

TEST(SweepRecords, EntriesThatAreNotRegularFilesAreRefused) {
  const ScratchDir d("sweep-records");
  const auto pts = expand(make_spec(d, 2));
  run_points(pts, d + "/out", result_of, quiet());
  write_text(d + "/secret", "{}\n");
  ASSERT_EQ(symlink((d + "/secret").c_str(), (d + "/out/records/link.jsonl").c_str()), 0);
  EXPECT_THROW(read_records(d + "/out", false), std::runtime_error);
  unlink((d + "/out/records/link.jsonl").c_str());
  ASSERT_EQ(mkdir((d + "/out/records/dir.jsonl").c_str(), 0777), 0);
  try {
    read_records(d + "/out", false);
    FAIL() << "a folder named like a record file was read";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("dir.jsonl: not a regular file"), std::string::npos) << e.what();
  }
}
