#include "io/npy.hpp"

#include <cctype>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "util/error.hpp"
#include "util/files.hpp"

namespace hifsim::io {
namespace {

constexpr char kMagic[] = "\x93NUMPY";

std::string header_bytes(const std::string& descr, const std::vector<size_t>& shape) {
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < shape.size(); ++i) {
    dict += std::to_string(shape[i]);
    if (shape.size() == 1 || i + 1 < shape.size()) dict += ",";
    if (i + 1 < shape.size()) dict += " ";
  }
  dict += "), }";
  // Pad with spaces so magic(6)+version(2)+len(2)+dict+'\n' is a multiple of 64.
  size_t total = 10 + dict.size() + 1;
  size_t pad = (64 - total % 64) % 64;
  dict.append(pad, ' ');
  dict += '\n';
  std::string out(kMagic, 6);
  out += '\x01';
  out += '\x00';
  uint16_t len = static_cast<uint16_t>(dict.size());
  out += static_cast<char>(len & 0xFF);
  out += static_cast<char>(len >> 8);
  out += dict;
  return out;
}

}  // namespace

size_t npy_element_count(const std::vector<size_t>& shape) {
  size_t n = 1;
  for (size_t d : shape) {
    if (d != 0 && n > SIZE_MAX / d) return SIZE_MAX;
    n *= d;
  }
  return n;
}

size_t NpyArray::size() const { return npy_element_count(shape); }

const char* dtype_name(NpyDtype d) {
  switch (d) {
    case NpyDtype::float32: return "float32";
    case NpyDtype::uint8: return "uint8";
    case NpyDtype::uint16: return "uint16";
  }
  return "?";
}

std::string shape_str(const std::vector<size_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  if (shape.size() == 1) s += ",";
  return s + ")";
}

void write_file_atomic(const std::string& path, const std::string& bytes) { hifsim::write_file_atomic(path, bytes); }

void write_npy(const std::string& path, const std::vector<size_t>& shape, const float* data) {
  const std::string head = header_bytes("<f4", shape);
  hifsim::write_file_atomic(path, {ByteSpan{head.data(), head.size()}, ByteSpan{data, npy_element_count(shape) * 4}});
}

void write_npy(const std::string& path, const std::vector<size_t>& shape, const uint8_t* data) {
  const std::string head = header_bytes("|u1", shape);
  hifsim::write_file_atomic(path, {ByteSpan{head.data(), head.size()}, ByteSpan{data, npy_element_count(shape)}});
}

}  // namespace hifsim::io

namespace hifsim::io {
void write_npy(const std::string& path, const std::vector<size_t>& shape, const uint16_t* data) {
  const std::string head = header_bytes("<u2", shape);
  hifsim::write_file_atomic(path, {ByteSpan{head.data(), head.size()}, ByteSpan{data, npy_element_count(shape) * 2}});
}
}  // namespace hifsim::io
