// io/input_file (regular files only, sizes, realpath containment), util/checked (strict decimal
// parsing, overflow) and io/yaml_input (duplicate keys at any depth, alias bombs, strict integers).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>

#include "inputs_test_util.hpp"
#include "io/input_file.hpp"
#include "io/yaml_input.hpp"
#include "util/checked.hpp"

using namespace hifsim;
using inputs_test::contains;
using inputs_test::error_of;
using inputs_test::error_within;

TEST(InputFile, RegularFilesOnlyWithTheReason) {
  const std::string d = inputs_test::temp_dir();
  inputs_test::write_file(d + "/ok.bin", "hello");
  io::InputFile f(d + "/ok.bin");
  EXPECT_EQ(f.size(), 5u);
  EXPECT_EQ(f.read_all(100, "test"), "hello");
  char b[3];
  f.read_at(2, b, 3);
  EXPECT_EQ(std::string(b, 3), "llo");
  EXPECT_TRUE(contains(error_of([&] { f.read_at(3, b, 3); }), "the file has 5"));
  EXPECT_TRUE(contains(error_of([&] { f.read_at(UINT64_MAX, b, 3); }), "the file has 5"));  // no wrap
  EXPECT_TRUE(contains(error_of([&] { f.read_all(4, "a test limit"); }), "more than the limit of 4 bytes (a test limit)"));

  ASSERT_EQ(mkfifo((d + "/fifo").c_str(), 0600), 0);
  symlink((d + "/ok.bin").c_str(), (d + "/link.bin").c_str());
  struct Case {
    std::string path, want;
  } cases[] = {
      {d, "is a directory"},
      {d + "/fifo", "is a FIFO (named pipe)"},
      {"/dev/zero", "is a character device"},
      {"/dev/null", "is a character device"},
      {d + "/missing", "does not exist"},
      {d + "/ok.bin/x", "a part of the path is not a folder"},
  };
  for (const auto& c : cases) {
    // In a child with a deadline: before the fix, a FIFO blocked the open and /dev/zero read forever.
    const std::string e = error_within([&] { io::InputFile g(c.path); }, 10);
    EXPECT_TRUE(contains(e, c.path + ": " + c.want)) << c.path << " -> " << e;
  }
  EXPECT_EQ(io::InputFile(d + "/link.bin").size(), 5u);  // a symlink to a regular file is fine
}

TEST(InputFile, ResolveInsideFollowsSymlinks) {
  const std::string d = inputs_test::temp_dir(), outside = inputs_test::temp_dir();
  mkdir((d + "/sub").c_str(), 0700);
  inputs_test::write_file(d + "/sub/t.npy", "x");
  inputs_test::write_file(outside + "/secret.npy", "x");
  symlink((outside + "/secret.npy").c_str(), (d + "/escape.npy").c_str());
  symlink(outside.c_str(), (d + "/dirlink").c_str());
  symlink("sub/t.npy", (d + "/inner.npy").c_str());
  char real[4096];
  ASSERT_NE(realpath(d.c_str(), real), nullptr);
  EXPECT_EQ(io::resolve_inside(d, "sub/t.npy", "m.yaml", "a.file"), std::string(real) + "/sub/t.npy");
  EXPECT_EQ(io::resolve_inside(d, "inner.npy", "m.yaml", "a.file"), std::string(real) + "/sub/t.npy");
  EXPECT_TRUE(contains(error_of([&] { io::resolve_inside(d, "escape.npy", "m.yaml", "a.file"); }),
                       "m.yaml: a.file: 'escape.npy' resolves to"));
  EXPECT_TRUE(contains(error_of([&] { io::resolve_inside(d, "dirlink/secret.npy", "m.yaml", "a.file"); }), "outside the folder"));
  EXPECT_TRUE(contains(error_of([&] { io::resolve_inside(d, "sub/../../x.npy", "m.yaml", "a.file"); }), "does not exist"));
  EXPECT_TRUE(contains(error_of([&] { io::resolve_inside(d, ".", "m.yaml", "a.file"); }), "outside the folder"));
}

TEST(Checked, StrictDecimalAndOverflow) {
  uint64_t u = 0;
  int64_t i = 0;
  EXPECT_TRUE(parse_u64("18446744073709551615", u));
  EXPECT_EQ(u, UINT64_MAX);
  EXPECT_FALSE(parse_u64("18446744073709551616", u));
  EXPECT_FALSE(parse_u64("99999999999999999999", u));
  for (const char* bad : {"", " 1", "1 ", "+1", "-1", "0x10", "1e3", "1.0", "１"}) EXPECT_FALSE(parse_u64(bad, u)) << bad;
  EXPECT_TRUE(parse_i64("-9223372036854775808", i));
  EXPECT_EQ(i, INT64_MIN);
  EXPECT_TRUE(parse_i64("9223372036854775807", i));
  EXPECT_EQ(i, INT64_MAX);
  EXPECT_FALSE(parse_i64("9223372036854775808", i));
  EXPECT_FALSE(parse_i64("-9223372036854775809", i));
  EXPECT_FALSE(parse_i64("-", i));
  EXPECT_FALSE(mul_u64(uint64_t{1} << 32, uint64_t{1} << 32, u));
  EXPECT_TRUE(mul_u64(uint64_t{1} << 31, uint64_t{1} << 32, u));
  EXPECT_TRUE(contains(error_of([] { mul_or_throw(UINT64_MAX, 2, "f.yaml", "x"); }), "f.yaml: x: 18446744073709551615 x 2 overflows"));
}

TEST(Yaml, DuplicateKeysAtAnyDepth) {
  EXPECT_EQ(error_of([] { io::load_yaml_text("a: 1\nb: {c: 2, d: [ {e: 1}, {e: 2} ]}\n", "t.yaml"); }), "");
  EXPECT_EQ(error_of([] { io::load_yaml_text("a: 1\nb: 2\na: 3\n", "t.yaml"); }), "t.yaml: a: given twice (line 3; first at line 1)");
  EXPECT_EQ(error_of([] { io::load_yaml_text("b:\n  c: 1\n  c: 2\n", "t.yaml"); }), "t.yaml: b.c: given twice (line 3; first at line 2)");
  EXPECT_TRUE(contains(error_of([] { io::load_yaml_text("ops:\n- {name: q, M: 1, M: 2}\n", "t.yaml"); }), "t.yaml: ops[0].M: given twice"));
  // Quoting does not make a different key, nor does an alias.
  EXPECT_TRUE(contains(error_of([] { io::load_yaml_text("a: 1\n'a': 2\n", "t.yaml"); }), "a: given twice"));
  EXPECT_TRUE(contains(error_of([] { io::load_yaml_text("x: &k a\n*k : 1\nz: {a: 1, *k : 2}\n", "t.yaml"); }), "z.a: given twice"));
}

TEST(Yaml, AliasBombsAndCyclesAreBounded) {
  // Nine levels of ten aliases each: 10^9 nodes once expanded, in a few hundred bytes.
  std::string bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i <= 9; ++i) {
    const std::string p = "*a" + std::to_string(i - 1);
    bomb += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [" + p;
    for (int k = 1; k < 10; ++k) bomb += ", " + p;
    bomb += "]\n";
  }
  const std::string e = error_within([&] { io::load_yaml_text(bomb, "bomb.yaml"); }, 20);
  EXPECT_TRUE(contains(e, "bomb.yaml: ") && contains(e, "nodes once aliases are expanded")) << e;
  // yaml-cpp builds a real cycle from an alias inside its own anchor: a walk must not follow it forever.
  const std::string c = error_within([] { io::load_yaml_text("a: &a [*a]\n", "cyc.yaml"); }, 20);
  EXPECT_TRUE(contains(c, "cyc.yaml: a[0][0][0]") && contains(c, "...: nested deeper than 256 levels (a cyclic alias?)")) << c;
}

// yaml-cpp 0.7's LoadAll never returned on this input (fuzz_sweep,
// fuzz/regressions/sweep/loadall-never-returns.yaml): documents are split at their markers and
// loaded one by one, their marks lines of the whole file.
TEST(Yaml, DocumentsAreSplitAtTheirMarkers) {
  const std::string hang = error_within([] { io::load_yaml_text(",;\xff\xff\xff\xff\n\xfd\xff\xff\xff" "a80x\n", "h.yaml"); }, 10);
  EXPECT_EQ(hang, "") << hang;  // "HUNG" with LoadAll
  EXPECT_EQ(error_of([] { io::load_yaml_text("a: 1\n---\nb: 2\n", "t.yaml"); }),
            "t.yaml: line 3: a second YAML document (after '---'): the file holds 2 documents and hifsim reads exactly one "
            "(remove the separator and what follows, or split the file)");
  EXPECT_TRUE(contains(error_of([] { io::load_yaml_text("a: 1\n...\nb: 2\n", "t.yaml"); }), "t.yaml: line 3: a second YAML document"));
  EXPECT_TRUE(contains(error_of([] { io::load_yaml_text("a: 1\n---\nb: [1,\n", "t.yaml"); }), "t.yaml: line 4, column 1: not valid YAML"));
  // One document with its markers, comments and empty documents around it is one document.
  const YAML::Node n = io::load_yaml_text("# c\n---\na: 1\n...\n---\n# only a comment\n", "t.yaml");
  EXPECT_EQ(n["a"].as<int>(), 1);
  EXPECT_EQ(n["a"].Mark().line, 2);  // marks are lines of the whole file
  EXPECT_EQ(error_of([] { io::load_yaml_text("s: '---'\nt: x---y\n", "t.yaml"); }), "");  // not markers
}

TEST(Yaml, StrictIntegersAndFileRules) {
  const YAML::Node n = io::load_yaml_text("a: 9223372036854775807\nb: 9223372036854775808\nc: '5'\nd: 0x10\ne: -3\nf: 18446744073709551615\n", "t");
  EXPECT_EQ(*io::yaml_int64(n["a"]), INT64_MAX);
  EXPECT_FALSE(io::yaml_int64(n["b"]).has_value());
  EXPECT_FALSE(io::yaml_int64(n["c"]).has_value());  // quoted: a string
  EXPECT_FALSE(io::yaml_int64(n["d"]).has_value());
  EXPECT_EQ(*io::yaml_int64(n["e"]), -3);
  EXPECT_FALSE(io::yaml_uint64(n["e"]).has_value());
  EXPECT_EQ(*io::yaml_uint64(n["f"]), UINT64_MAX);
  EXPECT_FALSE(io::yaml_int64(n["missing"]).has_value());
  const std::string d = inputs_test::temp_dir();
  EXPECT_TRUE(contains(error_within([&] { io::load_yaml_file(d); }, 10), d + ": is a directory"));
  EXPECT_TRUE(contains(error_within([] { io::load_yaml_file("/dev/zero"); }, 10), "/dev/zero: is a character device"));
  inputs_test::write_file(d + "/big.yaml", std::string(io::kYamlMaxBytes + 1, '#'));
  EXPECT_TRUE(contains(error_of([&] { io::load_yaml_file(d + "/big.yaml"); }), "more than the limit"));
  inputs_test::write_file(d + "/bad.yaml", "a: [1, 2\n");
  EXPECT_TRUE(contains(error_of([&] { io::load_yaml_file(d + "/bad.yaml"); }), d + "/bad.yaml: line 2, column 1: not valid YAML"));
}
