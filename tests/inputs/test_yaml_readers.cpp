// Every YAML reader of hifsim -- trace manifests, sweep files, unit configs, cost tables -- under
// the same hostile inputs: keys given twice, integers beyond 64 bits, sizes that wrap, grids that
// multiply to 2^64, workloads too large to count, non-regular files, and trace tensors that
// escape the trace folder through a symlink.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/unit_config.hpp"
#include "cost/tables.hpp"
#include "inputs_test_util.hpp"
#include "io/input_file.hpp"
#include "io/npy.hpp"
#include "io/trace.hpp"
#include "sweep/points.hpp"

using namespace hifsim;
using inputs_test::contains;
using inputs_test::error_of;
using inputs_test::error_within;
using inputs_test::write_file;

namespace {

const std::string kShapeTrace =
    "schema: hifsim-trace/1\nkind: shape-only\nmodel: {name: m, source: s, revision: r, architecture: llama}\n"
    "shape: {phase: prefill, sequences: 1, tokens: 8, context: 8, config: c}\n"
    "ops:\n- {name: q, layer: 0, op: q_proj, M: 8, N: 16, K: 32, batch: 1}\n";

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  const size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? s : s.replace(at, from.size(), to);
}

std::string trace_error(const std::string& yaml) {
  return error_of([&] { io::parse_trace(yaml, "t/trace.yaml"); });
}

// A captured trace of one 2x4 . 3x4 op whose A and B are .npy files of this folder.
std::string captured_trace(const std::string& dir, const std::string& a_file) {
  const std::vector<float> a(8, 1.0f), b(12, 2.0f);
  io::write_npy(dir + "/a.npy", {2, 4}, a.data());
  io::write_npy(dir + "/b.npy", {3, 4}, b.data());
  const std::string sha(64, 'a');
  write_file(dir + "/trace.yaml",
             "schema: hifsim-trace/1\nkind: captured\nmodel: {name: m, source: s, revision: " + sha +
                 ", architecture: llama}\ncapture: {script: s, token_source: model-sample, tokens: 2, token_ids: [1, 2], "
                 "seed: 0, layers: [0]}\nops:\n- {name: q, layer: 0, op: q_proj, M: 2, N: 3, K: 4, batch: 1, "
                 "a: {file: " + a_file + ", dtype: float32}, b: {file: b.npy, dtype: float32}}\n");
  return dir;
}

}  // namespace

TEST(TraceManifest, IntegersBeyond64BitsAreOutOfRangeNotInternalErrors) {
  // 19 digits passed the old digit-count check and then threw std::out_of_range from std::stoll.
  for (const char* big : {"9999999999999999999", "-9999999999999999999", "99999999999999999999999"}) {
    const std::string e = trace_error(replaced(kShapeTrace, "M: 8", std::string("M: ") + big));
    EXPECT_EQ(e, "t/trace.yaml: ops[0] (q).M: " + std::string(big) + " is out of range [1, 2147483647]");
  }
  EXPECT_EQ(trace_error(replaced(kShapeTrace, "M: 8", "M: 0x10")), "t/trace.yaml: ops[0] (q).M: must be an integer, got '0x10'");
  EXPECT_EQ(trace_error(replaced(kShapeTrace, "batch: 1", "batch: 99999999999999999999")),
            "t/trace.yaml: ops[0] (q).batch: 99999999999999999999 is out of range [1, 2147483647]");
}

TEST(TraceManifest, DuplicateKeysAreRejected) {
  EXPECT_TRUE(contains(trace_error(replaced(kShapeTrace, "M: 8,", "M: 8, M: 1,")), "t/trace.yaml: ops[0].M: given twice"));
  EXPECT_TRUE(contains(trace_error(kShapeTrace + "kind: captured\n"), "t/trace.yaml: kind: given twice (line 7; first at line 2)"));
}

TEST(TraceManifest, WorkloadSizeIsCapped) {
  // 2^31-1 cubed times a batch of 2^31-1: 2^124 MACs; the old reader accepted it and the timing
  // core's uint64 counters wrapped.
  const std::string huge = replaced(replaced(replaced(replaced(kShapeTrace, "M: 8", "M: 2147483647"), "N: 16", "N: 2147483647"),
                                             "K: 32", "K: 2147483647"),
                                    "batch: 1", "batch: 2147483647");
  EXPECT_TRUE(contains(trace_error(huge), "t/trace.yaml: ops[0] (q): M x N x K x batch x repeat = more than 2^64"));
  const std::string over = replaced(replaced(kShapeTrace, "M: 8", "M: 1048576"), "N: 16", "N: 1048576");  // 2^40 * 2^5 * 2^16 = 2^61
  EXPECT_TRUE(contains(trace_error(replaced(over, "batch: 1", "batch: 65536")), "= 2305843009213693952 multiply-adds is above the limit of 2^60"));
  // Many ops under the limit each, over it together.
  std::string many = replaced(replaced(replaced(kShapeTrace, "M: 8", "M: 1048576"), "N: 16", "N: 1048576"), "K: 32", "K: 524288");
  many = replaced(many, "batch: 1}", "batch: 1, repeat: 2}");  // 2^60 exactly
  EXPECT_EQ(trace_error(many), "");
  many += "- {name: q2, layer: 0, op: k_proj, M: 8, N: 16, K: 32, batch: 1}\n";
  EXPECT_TRUE(contains(trace_error(many), "ops[1] (q2): the ops up to this one add up to more than 2^60"));
  EXPECT_EQ(io::checked_op_macs(1u << 20, 1u << 20, 1u << 19, 2, "w", "f"), io::kMaxOpMacs);
}

TEST(TraceManifest, NonRegularManifestsAreRejected) {
  const std::string d = inputs_test::temp_dir();
  ASSERT_EQ(mkfifo((d + "/trace.yaml").c_str(), 0600), 0);
  EXPECT_EQ(error_within([&] { io::read_trace(d); }, 10), d + "/trace.yaml: (file): is a FIFO (named pipe), not a regular file");
  EXPECT_EQ(error_within([] { io::read_trace("/dev/zero"); }, 10), "/dev/zero: (file): is a character device, not a regular file");
}

TEST(TraceTensors, SymlinksOutOfTheTraceFolderAreNotRead) {
  const std::string d = inputs_test::temp_dir(), outside = inputs_test::temp_dir();
  // The lexical check refused "../x.npy" but followed a symlink to the same file.
  const std::vector<float> secret(8, 7.0f);
  io::write_npy(outside + "/secret.npy", {2, 4}, secret.data());
  symlink((outside + "/secret.npy").c_str(), (d + "/link.npy").c_str());
  io::Trace t = io::read_trace(captured_trace(d, "link.npy"));
  EXPECT_TRUE(contains(error_of([&] { io::load_operand(t, t.ops[0], "a", 0); }),
                       d + "/trace.yaml: ops[0] (q).a.file link.npy: 'link.npy' resolves to"));
  // A symlink inside the folder is fine, and the values are the file's.
  symlink("b.npy", (d + "/inner.npy").c_str());
  t = io::read_trace(captured_trace(d, "inner.npy"));
  EXPECT_EQ(io::load_operand(t, t.ops[0], "b", 0).data[0], 2.0f);
  // A tensor that is a FIFO or a folder: rejected, not blocked on.
  ASSERT_EQ(mkfifo((d + "/fifo.npy").c_str(), 0600), 0);
  t = io::read_trace(captured_trace(d, "fifo.npy"));
  EXPECT_TRUE(contains(error_within([&] { io::load_operand(t, t.ops[0], "a", 0); }, 10), "is a FIFO (named pipe)"));
  mkdir((d + "/dir.npy").c_str(), 0700);
  t = io::read_trace(captured_trace(d, "dir.npy"));
  EXPECT_TRUE(contains(error_of([&] { io::load_operand(t, t.ops[0], "a", 0); }), "is a directory"));
}

TEST(SweepFile, GridsThatMultiplyTo2To64AreErrors) {
  const std::string d = inputs_test::temp_dir();
  write_file(d + "/base.yaml", "schema: hifsim-unit/1\narray: {rows: 4, cols: 4}\n");
  auto sweep = [&](const std::string& body) {
    write_file(d + "/s.yaml", "schema: hifsim-sweep/1\nname: t\nbase: base.yaml\nworkload: {gemm: [64, 64, 64]}\n" + body);
    return d + "/s.yaml";
  };
  // 64 axes of 2 values: 2^64 points, which wrapped to 0 (an empty sweep, exit 0).
  std::string grid = "grid:\n";
  for (int i = 0; i < 64; ++i) grid += "  f" + std::to_string(i) + ": [0, 1]\n";
  const sweep::SweepSpec s = sweep::load_sweep(sweep(grid));
  EXPECT_EQ(error_of([&] { sweep::expand(s); }), d + "/s.yaml: grid: expands to more than 1000000 points (the limit; split the sweep)");
  // 2^20 points: no wrap, but over the limit.
  grid = "grid:\n";
  for (int i = 0; i < 20; ++i) grid += "  f" + std::to_string(i) + ": [0, 1]\n";
  EXPECT_TRUE(contains(error_of([&] { sweep::expand(sweep::load_sweep(sweep(grid))); }), "expands to more than"));
  EXPECT_EQ(sweep::expand(sweep::load_sweep(sweep("grid:\n  array.rows: [8, 16]\n  array.cols: [8, 16, 32]\n"))).size(), 6u);
}

TEST(SweepFile, DuplicateKeysAndHugeIntegers) {
  const std::string d = inputs_test::temp_dir();
  write_file(d + "/base.yaml", "schema: hifsim-unit/1\narray: {rows: 4, cols: 4}\n");
  auto err = [&](const std::string& text) {
    write_file(d + "/s.yaml", text);
    return error_of([&] { sweep::load_sweep(d + "/s.yaml"); });
  };
  const std::string head = "schema: hifsim-sweep/1\nname: t\nbase: base.yaml\n";
  // yaml-cpp keeps both keys; the sweep swept only the first list.
  EXPECT_EQ(err(head + "workload: {gemm: [64, 64, 64]}\ngrid:\n  array.rows: [8]\n  array.rows: [16, 32]\n"),
            d + "/s.yaml: grid.array.rows: given twice (line 7; first at line 6)");
  EXPECT_TRUE(contains(err(head + "name: u\nworkload: {gemm: [64, 64, 64]}\ngrid: {array.rows: [8]}\n"), "name: given twice"));
  // A 20-digit size threw std::out_of_range from std::stoull.
  EXPECT_EQ(err(head + "workload: {gemm: [64, 99999999999999999999, 64]}\ngrid: {array.rows: [8]}\n"),
            d + "/s.yaml: workload.gemm[1]: must be a positive integer below 2^64, got '99999999999999999999'");
  EXPECT_TRUE(contains(error_within([] { sweep::load_sweep("/dev/zero"); }, 10), "/dev/zero: is a character device"));
}

// A value listed twice in one axis made two points with the same id: the point was evaluated
// twice and results.csv held two identical rows (exit 0). A zip group compares whole entries, so
// a path may repeat a value with a different partner. An empty zip group (found by fuzz_sweep)
// crashed the expansion.
TEST(SweepFile, RepeatedAxisValuesAndEmptyZipGroupsAreErrors) {
  const std::string d = inputs_test::temp_dir();
  write_file(d + "/base.yaml", "schema: hifsim-unit/1\narray: {rows: 4, cols: 4}\n");
  const std::string head = "schema: hifsim-sweep/1\nname: t\nbase: base.yaml\nworkload: {gemm: [64, 64, 64]}\n";
  auto write = [&](const std::string& body) {
    write_file(d + "/s.yaml", head + body);
    return d + "/s.yaml";
  };
  EXPECT_EQ(error_of([&] { sweep::load_sweep(write("grid:\n  array.rows: [8, 16, 8]\n")); }),
            d + "/s.yaml: grid.array.rows[2]: the same value as entry [0]: the two points would be one");
  EXPECT_EQ(error_of([&] {
              sweep::load_sweep(write("zip:\n  - {pe.format: [hif4, hif4, nvfp4, hif4], pe.accumulator: [fp32, kulisch, fp32, fp32]}\n"));
            }),
            d + "/s.yaml: zip[0][3]: the same value as entry [0]: the two points would be one");
  // An empty zip group: the expansion read the first list of an empty group (SIGSEGV).
  EXPECT_EQ(error_of([&] { sweep::load_sweep(write("grid:\n  array.rows: [8, 16]\nzip:\n  - {}\n")); }),
            d + "/s.yaml: zip[0]: an empty group: give field paths with their lists of values");
  const auto pts = sweep::expand(sweep::load_sweep(write("zip:\n  - {pe.format: [hif4, hif4], pe.accumulator: [fp32, kulisch]}\n")));
  ASSERT_EQ(pts.size(), 2u);
  EXPECT_NE(pts[0].id, pts[1].id);
}

// A folder named as the base config (or as a trace's trace.yaml) passed the existence check and
// made the config hash throw std::ios_base::failure ("basic_filebuf::underflow ... Is a
// directory"), not a hifsim error (found by fuzz_sweep, fuzz/regressions/sweep/base-is-a-folder.yaml).
TEST(SweepFile, FoldersNamedAsFilesAreErrors) {
  const std::string d = inputs_test::temp_dir();
  ASSERT_EQ(mkdir((d + "/t").c_str(), 0700), 0);
  ASSERT_EQ(mkdir((d + "/t/trace.yaml").c_str(), 0700), 0);
  write_file(d + "/base.yaml", "schema: hifsim-unit/1\narray: {rows: 4, cols: 4}\n");
  auto err = [&](const std::string& body) {
    write_file(d + "/s.yaml", "schema: hifsim-sweep/1\nname: t\n" + body + "grid: {array.rows: [8]}\n");
    return error_of([&] { sweep::load_sweep(d + "/s.yaml"); });
  };
  EXPECT_EQ(err("base: t\nworkload: {gemm: [64, 64, 64]}\n"), d + "/s.yaml: base: '" + d + "/t' is a directory, not a file");
  EXPECT_EQ(err("base: base.yaml\nworkload: {trace: t}\n"),
            d + "/s.yaml: workload.trace: '" + d + "/t/trace.yaml' is a directory, not a file");
  EXPECT_EQ(err("base: base.yaml\nworkload: {gemm: [64, 64, 64]}\naccuracy: {trace: t}\n"),
            d + "/s.yaml: accuracy.trace: '" + d + "/t/trace.yaml' is a directory, not a file");
  EXPECT_EQ(err("base: nothing.yaml\nworkload: {gemm: [64, 64, 64]}\n"), d + "/s.yaml: base: 'nothing.yaml' does not exist");
}

TEST(UnitConfig, NonRegularFilesAndHugeIntegers) {
  EXPECT_EQ(error_within([] { cfg::load_unit_config("/dev/zero"); }, 10), "/dev/zero: is a character device, not a regular file");
  const std::string d = inputs_test::temp_dir();
  ASSERT_EQ(mkfifo((d + "/u.yaml").c_str(), 0600), 0);
  EXPECT_EQ(error_within([&] { cfg::load_unit_config(d + "/u.yaml"); }, 10), d + "/u.yaml: is a FIFO (named pipe), not a regular file");
  const std::string base = io::read_regular_file(HIFSIM_SOURCE_DIR "/configs/units/hif4-32x32.yaml", 1 << 20, "test");
  EXPECT_EQ(error_of([&] { cfg::unit_config_from_string(base, "u.yaml"); }), "");
  // 2^63 - 1 GiB: saturated and multiplied as long double before (then out of range); now refused as too large.
  const std::string big = replaced(base, "a: {bytes: 2MiB,", "a: {bytes: 9223372036854775807GiB,");
  const std::string e = error_of([&] { cfg::unit_config_from_string(big, "u.yaml"); });
  EXPECT_TRUE(contains(e, "u.yaml: buffers.a.bytes: '9223372036854775807GiB' does not fit in 64 bits")) << e;
  EXPECT_TRUE(contains(error_of([&] { cfg::unit_config_from_string(base, "u.yaml", {"array.rows=99999999999999999999"}); }),
                       "(--set array.rows=99999999999999999999): array.rows: '99999999999999999999' does not fit in 64 bits"));
}

TEST(CostTables, DuplicateKeysAndSizesThatWrap) {
  const std::string d = inputs_test::temp_dir();
  const std::string head = "schema: hifsim-cost-sram/1\nnode: 45nm\nsizes:\n";
  const std::string row = "  - {bytes: 1KiB, read_pj_per_byte: 1, write_pj_per_byte: 1, area_mm2: 1, source: s}\n";
  write_file(d + "/sram.yaml", head + row);
  EXPECT_EQ(cost::load_sram_table(d + "/sram.yaml").rows.size(), 1u);
  write_file(d + "/sram.yaml", head + replaced(row, "1KiB", "18014398509481984KiB"));  // 2^54 KiB = 2^64 bytes: wrapped to 0
  EXPECT_TRUE(contains(error_of([&] { cost::load_sram_table(d + "/sram.yaml"); }), "sizes[0].bytes: '18014398509481984KiB' is not a size in bytes below 2^64"));
  write_file(d + "/sram.yaml", head + replaced(row, "area_mm2: 1,", "area_mm2: 1, area_mm2: 1000,"));
  EXPECT_TRUE(contains(error_of([&] { cost::load_sram_table(d + "/sram.yaml"); }), "sram.yaml: sizes[0].area_mm2: given twice"));
  write_file(d + "/sram.yaml", head + row + "node: 7nm\n");
  EXPECT_TRUE(contains(error_of([&] { cost::load_sram_table(d + "/sram.yaml"); }), "sram.yaml: node: given twice"));
  EXPECT_TRUE(contains(error_within([] { cost::load_sram_table("/dev/zero"); }, 10), "/dev/zero: cannot open the cost table: is a character device"));
}
