// Hostile .npy and .safetensors files: every case names the file and the field, never allocates
// what the file cannot hold, never reads outside it, and never accepts a file the format forbids.
// The .safetensors bytes are written here byte by byte, independently of the reader.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstring>

#include "inputs_test_util.hpp"
#include "io/npy.hpp"
#include "io/safetensors.hpp"
#include "util/content_hash.hpp"

using namespace hifsim;
using inputs_test::contains;
using inputs_test::error_of;
using inputs_test::error_within;

namespace {

std::string npy_bytes(const std::string& dict, const std::string& data, int major = 1) {
  std::string d = dict;
  const size_t pre = major == 1 ? 10 : 12;
  while ((pre + d.size() + 1) % 64) d += ' ';
  d += '\n';
  std::string h = "\x93NUMPY";
  h += static_cast<char>(major);
  h += '\0';
  for (size_t i = 0; i < pre - 8; ++i) h += static_cast<char>((d.size() >> (8 * i)) & 0xFF);
  return h + d + data;
}

std::string le64(uint64_t n) {
  std::string s;
  for (int i = 0; i < 8; ++i) s += static_cast<char>((n >> (8 * i)) & 0xFF);
  return s;
}

std::string st_bytes(const std::string& json, size_t data_bytes) { return le64(json.size()) + json + std::string(data_bytes, '\x01'); }

}  // namespace

TEST(NpyStrict, HeaderIsParsedNotSearched) {
  const std::string ok = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
  EXPECT_EQ(io::parse_npy(npy_bytes(ok, std::string(8, '\0')), "x.npy").size(), 2u);
  EXPECT_EQ(io::parse_npy(npy_bytes(ok, std::string(8, '\0'), 2), "x.npy").size(), 2u);
  EXPECT_EQ(io::parse_npy(npy_bytes(ok, std::string(8, '\0'), 3), "x.npy").size(), 2u);
  struct Case {
    std::string dict, data, want;
  } cases[] = {
      // A key given twice: the old reader took the first 'descr' it found.
      {"{'descr': '|u1', 'fortran_order': False, 'shape': (2,), 'descr': '<f4'}", std::string(8, '\0'), "key 'descr' given twice"},
      // A key inside a string value must not be found by a substring search.
      {"{'x': \"'descr': '<f4'\", 'descr': '|u1', 'fortran_order': False, 'shape': (2,)}", "ab", "unknown key 'x'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), } trailing", std::string(8, '\0'), "unexpected text after the dict"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2), }", std::string(8, '\0'), "(2) is not a tuple"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }", "", "dimension '-2' is not a non-negative integer"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (02,), }", std::string(8, '\0'), "dimension '02'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (18446744073709551616,), }", "", "does not fit in 64 bits"},
      // 2^32 x 2^32 elements: the product overflows; the old reader saturated it.
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", "", "overflows 64 bits"},
      // 2^62 bytes declared, 16 present: refused before any allocation.
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (1073741824, 1073741824), }", std::string(16, '\0'), "needs 4611686018427387904 bytes, file has 16"},
      {"{'descr': 'f4\\x00', 'fortran_order': False, 'shape': (2,), }", "", "escape sequences"},
  };
  for (const auto& c : cases) {
    const std::string e = error_of([&] { io::parse_npy(npy_bytes(c.dict, c.data), "x.npy"); });
    EXPECT_TRUE(contains(e, "x.npy: ") && contains(e, c.want)) << c.dict << "\n  got: " << e << "\n  want: " << c.want;
  }
  // A header length field of 2^32 - 1 (format 2.0) is refused without reading it.
  std::string v2 = std::string("\x93NUMPY\x02\x00", 8) + "\xff\xff\xff\xff" + "{}";
  EXPECT_TRUE(contains(error_of([&] { io::parse_npy(v2, "x.npy"); }), "above the limit of 65536 bytes"));
  EXPECT_TRUE(contains(error_of([&] { io::parse_npy(std::string("\x93NUMPY\x01\x05\x10\x00", 10), "x.npy"); }), "version 1.5"));
}

TEST(NpyStrict, DevicesFifosAndFoldersAreRejectedBeforeReading) {
  const std::string d = inputs_test::temp_dir();
  ASSERT_EQ(mkfifo((d + "/in.npy").c_str(), 0600), 0);
  for (const std::string& p : {std::string("/dev/zero"), d + "/in.npy", d, std::string("/dev/stdin")}) {
    const std::string e = error_within([&] { io::read_npy(p); }, 10);
    EXPECT_TRUE(e.rfind(p + ": ", 0) == 0 && contains(e, "not a") && !contains(e, "HUNG")) << p << " -> " << e;
  }
}

// `hifsim gemm` reads its operands with read_npy_f32_uninit (no zero fill, issue 27): on every
// file it must do what read_npy_f32 does -- the same values, the same error (file, field,
// reason) -- and remember the content hash of the whole file for the manifest.
TEST(NpyStrict, UninitReaderIsTheReader) {
  const std::string d = inputs_test::temp_dir();
  const std::string f4 = "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 2), }";
  std::string data(24, '\0');
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<char>(i * 37 + 1);
  const std::pair<const char*, std::string> files[] = {
      {"ok.npy", npy_bytes(f4, data)},
      {"ok2.npy", npy_bytes(f4, data, 2)},
      {"u8.npy", npy_bytes("{'descr': '|u1', 'fortran_order': False, 'shape': (24,), }", data)},
      {"short.npy", npy_bytes(f4, data.substr(0, 20))},
      {"long.npy", npy_bytes(f4, data + "x")},
      {"fortran.npy", npy_bytes("{'descr': '<f4', 'fortran_order': True, 'shape': (3, 2), }", data)},
      {"twice.npy", npy_bytes("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (3, 2), }", data)},
      {"magic.npy", "\x93NUMPX" + data},
      {"overflow.npy", npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", "")},
      {"shapetype.npy", npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': ('3', 2), }", data)},
      {"headertrunc.npy", npy_bytes(f4, data).substr(0, 30)},
  };
  int ok = 0;
  for (const auto& [name, bytes] : files) {
    const std::string p = d + "/" + name;
    inputs_test::write_file(p, bytes);
    io::NpyArray want;
    io::NpyF32 got;
    const std::string got_err = error_of([&] { got = io::read_npy_f32_uninit(p); });
    if (got_err.empty()) EXPECT_EQ(file_content_hash(p), content_hash_hex(bytes)) << name;  // as read
    const std::string want_err = error_of([&] { want = io::read_npy_f32(p); });
    EXPECT_EQ(got_err, want_err) << name;
    // Into storage given, a bad file (overflow, truncation, wrong type) is refused the same way.
    EXPECT_EQ(error_of([&] { io::read_npy_f32_uninit(p, UninitBuffer<float>(40, -1.0f)); }), want_err) << name;
    if (!want_err.empty()) continue;
    ++ok;
    EXPECT_EQ(got.shape, want.shape) << name;
    ASSERT_EQ(got.values.size(), want.f32.size()) << name;
    EXPECT_EQ(std::memcmp(got.values.data(), want.f32.data(), want.f32.size() * 4), 0) << name;
    // Into storage given (`hifsim gemm` reads B into A's buffer): used when it has the capacity,
    // whatever it holds; a smaller one gives way to a fresh buffer. The same values either way.
    for (const size_t have : {size_t{4}, size_t{6}, size_t{40}}) {
      UninitBuffer<float> storage(have, -1.0f);
      const float* at = storage.data();
      const io::NpyF32 again = io::read_npy_f32_uninit(p, std::move(storage));
      if (have >= 6) {  // (a fresh buffer may happen to get the freed address back)
        EXPECT_EQ(again.values.data(), at) << name << " " << have;
      }
      ASSERT_EQ(again.values.size(), want.f32.size()) << name << " " << have;
      EXPECT_EQ(std::memcmp(again.values.data(), want.f32.data(), want.f32.size() * 4), 0) << name << " " << have;
    }
  }
  EXPECT_EQ(ok, 2);
  // A folder is refused by name before anything is read, like the other reader.
  const std::string dir_err = error_of([&] { io::read_npy_f32_uninit(d); });
  EXPECT_FALSE(dir_err.empty());
  EXPECT_EQ(dir_err, error_of([&] { io::read_npy_f32(d); }));
}

TEST(SafetensorsStrict, OffsetsNear2To64DoNotWrap) {
  // The old check `8 + n + end > size` wrapped for end near 2^64, and the tensor was read from
  // the JSON header (exit 0, garbage operands).
  const std::string j = R"({"t": {"dtype": "F32", "shape": [1], "data_offsets": [18446744073709551612, 18446744073709551616]}})";
  EXPECT_TRUE(contains(error_of([&] { io::parse_safetensors_f32(st_bytes(j, 4), "", "w.st"); }),
                       "w.st: tensor 't'.data_offsets[1]: must be a non-negative integer below 2^64"));
  const std::string k = R"({"t": {"dtype": "F32", "shape": [1], "data_offsets": [18446744073709551600, 18446744073709551604]}})";
  EXPECT_TRUE(contains(error_of([&] { io::parse_safetensors_f32(st_bytes(k, 4), "", "w.st"); }), "runs past the end of the file"));
  // The element count 2^32 x 2^32 x 4 bytes wrapped to 0 in `count *= v`.
  const std::string c = R"({"t": {"dtype": "F32", "shape": [4294967296, 4294967296], "data_offsets": [0, 0]}})";
  EXPECT_TRUE(contains(error_of([&] { io::parse_safetensors_f32(st_bytes(c, 0), "", "w.st"); }), "tensor 't'.shape: element count overflows"));
  const std::string b = R"({"t": {"dtype": "F32", "shape": [4611686018427387904], "data_offsets": [0, 0]}})";
  EXPECT_TRUE(contains(error_of([&] { io::parse_safetensors_f32(st_bytes(b, 0), "", "w.st"); }), "byte size overflows"));
}

TEST(SafetensorsStrict, TheFormatIsEnforced) {
  const std::string good = R"({"__metadata__": {"format": "pt"}, "a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},)"
                           R"( "b": {"dtype": "BF16", "shape": [2], "data_offsets": [8, 12]}})";
  EXPECT_EQ(io::parse_safetensors_f32(st_bytes(good, 12), "a", "w.st").f32.size(), 2u);
  EXPECT_EQ(io::parse_safetensors_f32(st_bytes(good + "    ", 12), "a", "w.st").f32.size(), 2u);  // space padding is the format's
  const std::string a = R"("a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]})";
  struct Case {
    std::string json;
    size_t data;
    std::string want;
  } cases[] = {
      {"{" + a + ", " + R"("b": {"dtype": "F32", "shape": [1], "data_offsets": [4, 8]}})", 8, "tensor 'b'.data_offsets: overlaps"},
      {"{" + a + ", " + R"("b": {"dtype": "F32", "shape": [1], "data_offsets": [12, 16]}})", 16, "tensor 'b'.data_offsets: leaves a gap"},
      {"{" + a + "}", 12, "data: 4 bytes after the last tensor belong to no tensor"},
      {"{" + a + ", " + a + "}", 8, "header: a: key given twice"},
      {"{" + a + "} x", 8, "not valid JSON"},
      {"{" + a + ",}", 8, "not valid JSON"},
      // JSON's grammar, not YAML's: the old yaml-cpp parser accepted all of these.
      {R"({a: {dtype: F32, shape: [2], data_offsets: [0, 8]}})", 8, "not valid JSON"},
      {R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}} # comment)", 8, "not valid JSON"},
      {R"({"a": {"dtype": 'F32', "shape": [2], "data_offsets": [0, 8]}})", 8, "not valid JSON"},
      {"\xef\xbb\xbf{" + a + "}", 8, "does not start with '{'"},
      {R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8], "extra": 1}})", 8, "tensor 'a'.extra: unknown field"},
      {R"({"a": {"dtype": "F32", "shape": [2.0], "data_offsets": [0, 8]}})", 8, "tensor 'a'.shape[0]: must be a non-negative integer"},
      {R"({"a": {"dtype": "F32", "shape": [-2], "data_offsets": [0, 8]}})", 8, "tensor 'a'.shape[0]"},
      {R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [8, 0]}})", 8, "end 0 is before begin 8"},
      {R"({"a": {"dtype": "Q4", "shape": [2], "data_offsets": [0, 8]}})", 8, "'Q4' is not a safetensors dtype"},
      {R"({"a": {"dtype": "F4", "shape": [3], "data_offsets": [0, 2]}})", 2, "not a whole number of bytes"},
      {R"({"__metadata__": {"k": 1}, )" + a + "}", 8, "__metadata__.k: must be a string"},
      {R"({"a": {"dtype": "F32", "shape": [2]}})", 8, "tensor 'a'.data_offsets: missing"},
      {"{" + std::string(20, '[') + std::string(20, ']') + "}", 0, "not valid JSON"},
      {R"({"a": [[[[[[[[[[1]]]]]]]]]]})", 0, "nested deeper than 8 levels"},
  };
  for (const auto& c : cases) {
    const std::string e = error_of([&] { io::parse_safetensors_f32(st_bytes(c.json, c.data), "a", "w.st"); });
    EXPECT_TRUE(contains(e, "w.st: ") && contains(e, c.want)) << c.json << "\n  got: " << e << "\n  want: " << c.want;
  }
  // The header length field: beyond the format's 100 MB limit, or beyond the file.
  EXPECT_TRUE(contains(error_of([] { io::parse_safetensors_f32(le64(100000001) + "{}", "", "w.st"); }), "header length"));
  EXPECT_TRUE(contains(error_of([] { io::parse_safetensors_f32(le64(3) + "{}", "", "w.st"); }), "header length: 3 is not plausible"));
  EXPECT_TRUE(contains(error_of([] { io::parse_safetensors_f32("1234567", "", "w.st"); }), "too short"));
}

TEST(SafetensorsStrict, DevicesAndFifosAreRejected) {
  const std::string d = inputs_test::temp_dir();
  ASSERT_EQ(mkfifo((d + "/w.safetensors").c_str(), 0600), 0);
  for (const std::string& p : {std::string("/dev/zero"), d + "/w.safetensors", d}) {
    const std::string e = error_within([&] { io::read_safetensors_f32(p, ""); }, 10);
    EXPECT_TRUE(e.rfind(p + ": ", 0) == 0 && contains(e, "not a")) << p << " -> " << e;
  }
}
