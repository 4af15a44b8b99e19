// The packed container (formats/packed.hpp) and .npy I/O (io/npy.hpp): round trips for every
// tensor format and dtype, and clear errors for malformed input.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <unistd.h>

#include "formats/packed.hpp"
#include "formats/tensor.hpp"
#include "io/npy.hpp"
#include "reference.hpp"
#include "common/errors_and_temp.hpp"
#include "util/error.hpp"

using namespace hifsim;
using namespace hifsim::fmt;
using hifsim::test::error_of;

namespace {

std::string tmp_path(const std::string& name) {
  return ::testing::TempDir() + "hifsim_test_" + std::to_string(::getpid()) + "_" + name;
}
void write_bytes(const std::string& p, const std::string& b) {
  std::ofstream f(p, std::ios::binary);
  f.write(b.data(), static_cast<std::streamsize>(b.size()));
}
std::string read_bytes(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

}  // namespace

TEST(Packed, RoundTripEveryTensorFormatWithPadding) {
  ref::Gen g(ref::test_seed() + 400);
  for (const auto& info : all_formats()) {
    if (!info.tensor) continue;
    for (size_t cols : {size_t{1}, size_t{15}, size_t{16}, size_t{33}, size_t{64}, size_t{100}}) {
      const size_t rows = 3;
      std::vector<float> x(rows * cols);
      for (auto& v : x) v = static_cast<float>(std::ldexp(g.uniform() * 2 - 1, static_cast<int>(g.next() % 20) - 10));
      const QTensor q = quantize(info.id, x.data(), rows, cols);
      const std::string bytes = pack_tensor(q);
      const QTensor b = unpack_tensor(bytes, "test");
      EXPECT_EQ(b.codes, q.codes) << info.name << " cols " << cols;
      EXPECT_EQ(b.scales, q.scales) << info.name;
      EXPECT_EQ(b.l2, q.l2);
      EXPECT_EQ(b.l3, q.l3);
      EXPECT_EQ(b.tensor_scale, q.tensor_scale);
      const std::vector<float> yb = dequantize(b), yq = dequantize(q);  // bitwise (NaN != NaN)
      EXPECT_EQ(std::memcmp(yb.data(), yq.data(), yq.size() * 4), 0) << info.name;
      // Payload size: records x record bytes after the header.
      const size_t blk = info.block;
      const size_t nrec = blk == 1 ? rows * cols : rows * ((cols + blk - 1) / blk);
      EXPECT_GE(bytes.size(), nrec * packed_record_bytes(info.id));
    }
  }
}

TEST(Packed, MalformedContainers) {
  std::vector<float> x(64, 1.0f);
  const std::string good = pack_tensor(quantize(Format::hif4, x.data(), 1, 64));
  EXPECT_NE(error_of([&] { unpack_tensor("NOTMAGIC....", "f.bin"); }).find("f.bin: magic"), std::string::npos);
  EXPECT_NE(error_of([&] { unpack_tensor(good.substr(0, 20), "f.bin"); }).find("truncated"), std::string::npos);
  EXPECT_NE(error_of([&] { unpack_tensor(good.substr(0, good.size() - 1), "f.bin"); }).find("payload"), std::string::npos);
  std::string bad = good;
  bad.replace(bad.find("format=hif4"), 11, "format=xxx4");
  EXPECT_NE(error_of([&] { unpack_tensor(bad, "f.bin"); }).find("unknown tensor format"), std::string::npos);
  bad = good;
  bad.replace(bad.find("rows=1"), 6, "rows=x");
  EXPECT_NE(error_of([&] { unpack_tensor(bad, "f.bin"); }).find("rows"), std::string::npos);
  bad = good;
  bad.replace(bad.find("rows=1\n"), 7, "rows=9999999999999999999\ncols=64\n");  // header length now wrong too
  EXPECT_NE(error_of([&] { unpack_tensor(bad, "f.bin"); }), "");
  bad = good;
  bad.replace(bad.find("tensor_scale="), 13, "tensor_scale=z");
  EXPECT_NE(error_of([&] { unpack_tensor(bad, "f.bin"); }), "");
}

TEST(Npy, RoundTripAllDtypes) {
  const std::string p = tmp_path("rt.npy");
  std::vector<float> f = {1.5f, -2.0f, 0.0f, 3e38f, 1e-45f, -0.0f};
  io::write_npy(p, {2, 3}, f.data());
  io::NpyArray a = io::read_npy(p);
  EXPECT_EQ(a.dtype, io::NpyDtype::float32);
  EXPECT_EQ(a.shape, (std::vector<size_t>{2, 3}));
  EXPECT_EQ(std::memcmp(a.f32.data(), f.data(), 24), 0);
  std::vector<uint8_t> u8 = {0, 1, 255};
  io::write_npy(p, {3}, u8.data());
  a = io::read_npy(p);
  EXPECT_EQ(a.dtype, io::NpyDtype::uint8);
  EXPECT_EQ(a.u8, u8);
  std::vector<uint16_t> u16 = {0, 0x7FC0, 0xFFFF, 0x3F80};
  io::write_npy(p, {2, 2}, u16.data());
  a = io::read_npy(p);
  EXPECT_EQ(a.dtype, io::NpyDtype::uint16);
  EXPECT_EQ(a.shape, (std::vector<size_t>{2, 2}));
  EXPECT_EQ(a.u16, u16);
  // Header is padded to a multiple of 64 bytes (NumPy's rule) and starts with the magic.
  const std::string bytes = read_bytes(p);
  EXPECT_EQ(bytes.substr(0, 6), "\x93NUMPY");
  EXPECT_EQ((bytes.size() - 8) % 2, 0u);
  EXPECT_EQ((10 + (static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8))) % 64, 0u);
  // Scalars and empty arrays.
  io::write_npy(p, {}, f.data());
  EXPECT_EQ(io::read_npy(p).size(), 1u);
  io::write_npy(p, {0, 4}, f.data());
  EXPECT_EQ(io::read_npy(p).size(), 0u);
  std::remove(p.c_str());
}

TEST(Npy, ClearErrors) {
  const std::string p = tmp_path("bad.npy");
  auto header = [](const std::string& dict) {
    std::string d = dict;
    while ((10 + d.size() + 1) % 64) d += ' ';
    d += '\n';
    std::string h = "\x93NUMPY\x01";
    h += '\0';
    h += static_cast<char>(d.size() & 0xFF);
    h += static_cast<char>(d.size() >> 8);
    return h + d;
  };
  const std::string f4 = header("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }");
  struct Case {
    std::string bytes, want;
  } cases[] = {
      {f4 + std::string(8, '\0'), ""},
      {f4 + std::string(7, '\0'), "data: truncated"},
      {f4 + std::string(9, '\0'), "trailing bytes"},
      {f4.substr(0, 30), "truncated header"},
      {"hello", "not a .npy file"},
      {header("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }") + std::string(16, '\0'), "dtype: '<f8'"},
      {header("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }") + std::string(8, '\0'), "dtype: '>f4'"},
      {header("{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }") + std::string(8, '\0'), "fortran_order"},
      {header("{'descr': '<f4', 'fortran_order': False, 'shape': (2,x), }"), "shape"},
      {header("{'descr': '<f4', 'fortran_order': False }"), "missing key 'shape'"},
      {header("descr <f4"), "not a Python dict"},
      {header("{'descr': '<f4', 'fortran_order': Maybe, 'shape': (2,), }"), "fortran_order"},
      {header("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999,99999999999999), }"), "shape"},
  };
  for (const auto& c : cases) {
    write_bytes(p, c.bytes);
    const std::string e = error_of([&] { io::read_npy(p); });
    if (c.want.empty()) {
      EXPECT_EQ(e, "");
    } else {
      EXPECT_NE(e.find(c.want), std::string::npos) << "got: " << e << "\nwant: " << c.want;
      EXPECT_EQ(e.rfind(p, 0), 0u) << "message names the file: " << e;
    }
  }
  write_bytes(p, header("{'descr': '|u1', 'fortran_order': False, 'shape': (2,), }") + "ab");
  EXPECT_NE(error_of([&] { io::read_npy_f32(p); }).find("expected float32"), std::string::npos);
  EXPECT_NE(error_of([&] { io::read_npy(p + ".missing"); }).find("does not exist"), std::string::npos);
  std::remove(p.c_str());
}

TEST(Npy, AtomicWriteLeavesNothingOnFailure) {
  const std::string dir = tmp_path("no_such_dir") + "/out.npy";
  float v = 1.0f;
  EXPECT_NE(error_of([&] { io::write_npy(dir, {1}, &v); }), "");
  std::ifstream f(dir + ".tmp-hifsim");
  EXPECT_FALSE(f.good());
}
