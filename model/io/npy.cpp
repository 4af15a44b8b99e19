#include "io/npy.hpp"

#include <cctype>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "util/error.hpp"

namespace hifsim::io {
namespace {

constexpr char kMagic[] = "\x93NUMPY";

// Parses the Python-dict header, e.g. {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
struct Header {
  std::string descr;
  bool fortran = false;
  std::vector<size_t> shape;
};

std::string field_value(const std::string& path, const std::string& h, const std::string& key) {
  std::string q1 = "'" + key + "'", q2 = "\"" + key + "\"";
  size_t p = h.find(q1);
  if (p == std::string::npos) p = h.find(q2);
  if (p == std::string::npos) throw Error(path, "npy header", "missing key '" + key + "'");
  p = h.find(':', p);
  if (p == std::string::npos) throw Error(path, "npy header", "no value for key '" + key + "'");
  ++p;
  while (p < h.size() && std::isspace(static_cast<unsigned char>(h[p]))) ++p;
  if (p >= h.size()) throw Error(path, "npy header", "no value for key '" + key + "'");
  size_t e;
  if (h[p] == '\'' || h[p] == '"') {
    e = h.find(h[p], p + 1);
    if (e == std::string::npos) throw Error(path, "npy header", "unterminated string for '" + key + "'");
    return h.substr(p + 1, e - p - 1);
  }
  if (h[p] == '(') {
    e = h.find(')', p);
    if (e == std::string::npos) throw Error(path, "npy header", "unterminated shape tuple");
    return h.substr(p, e - p + 1);
  }
  e = p;
  while (e < h.size() && h[e] != ',' && h[e] != '}') ++e;
  std::string v = h.substr(p, e - p);
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back()))) v.pop_back();
  return v;
}

Header parse_header(const std::string& path, const std::string& h) {
  Header out;
  std::string t = h;
  size_t a = t.find('{'), b = t.rfind('}');
  if (a == std::string::npos || b == std::string::npos || b < a)
    throw Error(path, "npy header", "not a Python dict literal");
  out.descr = field_value(path, t, "descr");
  std::string fo = field_value(path, t, "fortran_order");
  if (fo == "True") out.fortran = true;
  else if (fo == "False") out.fortran = false;
  else throw Error(path, "npy header: fortran_order", "expected True or False, got '" + fo + "'");
  std::string sh = field_value(path, t, "shape");
  if (sh.size() < 2 || sh.front() != '(' || sh.back() != ')')
    throw Error(path, "npy header: shape", "expected a tuple, got '" + sh + "'");
  std::string inner = sh.substr(1, sh.size() - 2);
  std::stringstream ss(inner);
  std::string item;
  while (std::getline(ss, item, ',')) {
    size_t i = 0;
    while (i < item.size() && std::isspace(static_cast<unsigned char>(item[i]))) ++i;
    size_t j = item.size();
    while (j > i && std::isspace(static_cast<unsigned char>(item[j - 1]))) --j;
    std::string num = item.substr(i, j - i);
    if (num.empty()) continue;  // trailing comma in "(3,)"
    for (char c : num)
      if (!std::isdigit(static_cast<unsigned char>(c)))
        throw Error(path, "npy header: shape", "dimension '" + num + "' is not a non-negative integer");
    if (num.size() > 15) throw Error(path, "npy header: shape", "dimension '" + num + "' is too large");
    out.shape.push_back(std::stoull(num));
  }
  return out;
}

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

size_t product(const std::vector<size_t>& shape) {
  size_t n = 1;
  for (size_t d : shape) {
    if (d != 0 && n > SIZE_MAX / d) return SIZE_MAX;
    n *= d;
  }
  return n;
}

}  // namespace

size_t NpyArray::size() const { return product(shape); }

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

NpyArray read_npy(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error(path, "", "cannot open file for reading");
  std::string data((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (data.size() < 10 || std::memcmp(data.data(), kMagic, 6) != 0)
    throw Error(path, "npy magic", "not a .npy file (missing \\x93NUMPY magic)");
  unsigned major = static_cast<unsigned char>(data[6]);
  size_t hlen, hstart;
  if (major == 1) {
    hlen = static_cast<unsigned char>(data[8]) | (static_cast<unsigned char>(data[9]) << 8);
    hstart = 10;
  } else if (major == 2 || major == 3) {
    if (data.size() < 12) throw Error(path, "npy header", "truncated header length");
    hlen = 0;
    for (int i = 0; i < 4; ++i) hlen |= static_cast<size_t>(static_cast<unsigned char>(data[8 + i])) << (8 * i);
    hstart = 12;
  } else {
    throw Error(path, "npy version", "unsupported format version " + std::to_string(major));
  }
  if (data.size() < hstart + hlen) throw Error(path, "npy header", "truncated header");
  Header h = parse_header(path, data.substr(hstart, hlen));
  NpyArray arr;
  size_t esize;
  if (h.descr == "<f4") {
    arr.dtype = NpyDtype::float32;
    esize = 4;
  } else if (h.descr == "|u1" || h.descr == "<u1" || h.descr == "u1") {
    arr.dtype = NpyDtype::uint8;
    esize = 1;
  } else if (h.descr == "<u2") {
    arr.dtype = NpyDtype::uint16;
    esize = 2;
  } else {
    throw Error(path, "dtype",
                "'" + h.descr + "' is not supported (expected float32 '<f4', uint8 '|u1' or uint16 '<u2')");
  }
  if (h.fortran)
    throw Error(path, "fortran_order", "Fortran-ordered arrays are not supported; save with np.ascontiguousarray");
  arr.shape = h.shape;
  size_t n = product(arr.shape);
  if (n == SIZE_MAX || n > SIZE_MAX / esize) throw Error(path, "shape", "shape " + shape_str(arr.shape) + " overflows");
  size_t need = n * esize;
  size_t have = data.size() - hstart - hlen;
  if (have < need)
    throw Error(path, "data", "truncated: shape " + shape_str(arr.shape) + " needs " + std::to_string(need) +
                                  " bytes, file has " + std::to_string(have));
  if (have > need)
    throw Error(path, "data", "corrupt: " + std::to_string(have - need) + " trailing bytes after the array");
  const char* p = data.data() + hstart + hlen;
  if (arr.dtype == NpyDtype::float32) {
    arr.f32.resize(n);
    if (need) std::memcpy(arr.f32.data(), p, need);  // empty arrays: data() may be null
  } else if (arr.dtype == NpyDtype::uint16) {
    arr.u16.resize(n);
    if (need) std::memcpy(arr.u16.data(), p, need);
  } else {
    arr.u8.assign(reinterpret_cast<const uint8_t*>(p), reinterpret_cast<const uint8_t*>(p) + n);
  }
  return arr;
}

NpyArray read_npy_f32(const std::string& path) {
  NpyArray a = read_npy(path);
  if (a.dtype != NpyDtype::float32)
    throw Error(path, "dtype", std::string("expected float32 ('<f4'), got ") + dtype_name(a.dtype));
  return a;
}

void write_file_atomic(const std::string& path, const std::string& bytes) {
  std::string tmp = path + ".tmp-hifsim";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) throw Error(path, "", "cannot open file for writing");
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    f.flush();
    if (!f) {
      std::remove(tmp.c_str());
      throw Error(path, "", "write failed");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw Error(path, "", "cannot rename temporary file into place");
  }
}

void write_npy(const std::string& path, const std::vector<size_t>& shape, const float* data) {
  std::string out = header_bytes("<f4", shape);
  out.append(reinterpret_cast<const char*>(data), product(shape) * 4);
  write_file_atomic(path, out);
}

void write_npy(const std::string& path, const std::vector<size_t>& shape, const uint8_t* data) {
  std::string out = header_bytes("|u1", shape);
  out.append(reinterpret_cast<const char*>(data), product(shape));
  write_file_atomic(path, out);
}

}  // namespace hifsim::io

namespace hifsim::io {
void write_npy(const std::string& path, const std::vector<size_t>& shape, const uint16_t* data) {
  std::string out = header_bytes("<u2", shape);
  out.append(reinterpret_cast<const char*>(data), product(shape) * 2);
  write_file_atomic(path, out);
}
}  // namespace hifsim::io
