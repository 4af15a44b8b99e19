// Reading .npy files (io/npy.hpp): a strict parser of the header dict and a size check before
// any allocation. The same code reads a file (through io::InputFile) and bytes in memory (the
// fuzz harness fuzz/fuzz_npy.cpp).
#include <algorithm>
#include <cstring>
#include <string>

#include "io/input_file.hpp"
#include "io/npy.hpp"
#include "util/checked.hpp"
#include "util/content_hash.hpp"
#include "util/error.hpp"

namespace hifsim::io {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMaxDims = 64;  // NumPy's own limit (NPY_MAXDIMS) since 2.0

struct Header {
  std::string descr;
  bool fortran = false;
  std::vector<size_t> shape;
};

// The header is a Python dict literal, e.g. {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
// followed by padding (spaces, then '\n'). Parsed as a grammar, not searched for substrings: a
// key inside a string value, a key given twice or an unknown key is an error (NumPy too
// requires exactly these three keys).
class DictParser {
 public:
  DictParser(const std::string& h, const std::string& where) : h_(h), where_(where) {}

  Header parse() {
    Header out;
    bool seen[3] = {false, false, false};
    if (!eat('{')) fail("npy header", "not a Python dict literal (no '{')");
    while (!eat('}')) {
      const std::string key = quoted("npy header", "a quoted key");
      if (!eat(':')) fail("npy header", "no ':' after key '" + key + "'");
      int k = key == "descr" ? 0 : key == "fortran_order" ? 1 : key == "shape" ? 2 : -1;
      if (k < 0) fail("npy header", "unknown key '" + key + "' (expected descr, fortran_order, shape)");
      if (seen[k]) fail("npy header", "key '" + key + "' given twice");
      seen[k] = true;
      if (k == 0) out.descr = quoted("npy header: descr", "a quoted dtype");
      if (k == 1) out.fortran = boolean();
      if (k == 2) out.shape = tuple();
      if (!eat(',')) {
        if (!eat('}')) fail("npy header", "expected ',' or '}' after the value of '" + key + "'");
        break;
      }
    }
    static const char* const names[] = {"descr", "fortran_order", "shape"};
    for (int k = 0; k < 3; ++k)
      if (!seen[k]) fail("npy header", std::string("missing key '") + names[k] + "'");
    skip_space();
    if (i_ != h_.size()) fail("npy header", "unexpected text after the dict (only space padding may follow)");
    return out;
  }

 private:
  [[noreturn]] void fail(const std::string& field, const std::string& reason) const { throw Error(where_, field, reason); }
  void skip_space() {
    while (i_ < h_.size() && (h_[i_] == ' ' || h_[i_] == '\t' || h_[i_] == '\n' || h_[i_] == '\r')) ++i_;
  }
  bool eat(char c) {
    skip_space();
    if (i_ < h_.size() && h_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  std::string quoted(const std::string& field, const std::string& what) {
    skip_space();
    if (i_ >= h_.size() || (h_[i_] != '\'' && h_[i_] != '"')) fail(field, "expected " + what);
    const char q = h_[i_++];
    const size_t end = h_.find(q, i_);
    if (end == std::string::npos) fail(field, "unterminated string");
    std::string s = h_.substr(i_, end - i_);
    if (s.find('\\') != std::string::npos) fail(field, "escape sequences are not supported in '" + s + "'");
    i_ = end + 1;
    return s;
  }
  bool boolean() {
    skip_space();
    for (const char* w : {"True", "False"})
      if (h_.compare(i_, std::strlen(w), w) == 0) {
        i_ += std::strlen(w);
        return w[0] == 'T';
      }
    size_t e = i_;
    while (e < h_.size() && h_[e] != ',' && h_[e] != '}') ++e;
    fail("npy header: fortran_order", "expected True or False, got '" + h_.substr(i_, e - i_) + "'");
  }
  std::vector<size_t> tuple() {
    std::vector<size_t> dims;
    if (!eat('(')) fail("npy header: shape", "expected a tuple such as (3, 4)");
    if (eat(')')) return dims;  // () : a scalar
    for (;;) {
      skip_space();
      const size_t b = i_;
      while (i_ < h_.size() && h_[i_] >= '0' && h_[i_] <= '9') ++i_;
      const std::string num = h_.substr(b, i_ - b);
      uint64_t v = 0;
      if (num.empty() || (num.size() > 1 && num[0] == '0')) {
        size_t e = b;
        while (e < h_.size() && h_[e] != ',' && h_[e] != ')') ++e;
        fail("npy header: shape", "dimension '" + h_.substr(b, e - b) + "' is not a non-negative integer");
      }
      if (!parse_u64(num, v)) fail("npy header: shape", "dimension " + num + " does not fit in 64 bits");
      if (dims.size() == kMaxDims) fail("npy header: shape", "more than " + std::to_string(kMaxDims) + " dimensions");
      dims.push_back(static_cast<size_t>(v));
      const bool comma = eat(',');
      if (eat(')')) {
        if (dims.size() == 1 && !comma) fail("npy header: shape", "(" + num + ") is not a tuple; a 1-D shape is (" + num + ",)");
        return dims;
      }
      if (!comma) fail("npy header: shape", "expected ',' or ')' in the shape tuple");
    }
  }

  const std::string& h_;
  const std::string& where_;
  size_t i_ = 0;
};

// Where the array's bytes are, from the preamble and header (checked against the input's size).
struct Layout {
  NpyDtype dtype = NpyDtype::float32;
  std::vector<size_t> shape;
  uint64_t elements = 0, at = 0, bytes = 0;  // element count, data offset, data size
};

// `read_at(offset, buf, n)` reads exactly n bytes; `total` is the size of the whole input.
template <class ReadAt>
Layout read_layout(uint64_t total, const ReadAt& read_at, const std::string& where) {
  char pre[12] = {};
  if (total < 10) throw Error(where, "npy magic", "not a .npy file (shorter than the 10-byte preamble)");
  read_at(0, pre, total < 12 ? static_cast<size_t>(total) : 12);
  if (std::memcmp(pre, kMagic, 6) != 0) throw Error(where, "npy magic", "not a .npy file (missing \\x93NUMPY magic)");
  const unsigned major = static_cast<unsigned char>(pre[6]), minor = static_cast<unsigned char>(pre[7]);
  uint64_t hlen = 0, hstart = 0;
  if (major == 1 && minor == 0) {
    hlen = static_cast<unsigned char>(pre[8]) | (static_cast<unsigned>(static_cast<unsigned char>(pre[9])) << 8);
    hstart = 10;
  } else if ((major == 2 || major == 3) && minor == 0) {
    if (total < 12) throw Error(where, "npy header", "truncated header length");
    for (int i = 0; i < 4; ++i) hlen |= static_cast<uint64_t>(static_cast<unsigned char>(pre[8 + i])) << (8 * i);
    hstart = 12;
  } else {
    throw Error(where, "npy version", "unsupported format version " + std::to_string(major) + "." + std::to_string(minor));
  }
  if (hlen > kNpyMaxHeader)
    throw Error(where, "npy header", "length " + std::to_string(hlen) + " is above the limit of " +
                                         std::to_string(kNpyMaxHeader) + " bytes (corrupt header length?)");
  if (total - hstart < hlen) throw Error(where, "npy header", "truncated header");
  std::string hbytes(static_cast<size_t>(hlen), '\0');
  if (hlen) read_at(hstart, hbytes.data(), hbytes.size());
  const Header h = DictParser(hbytes, where).parse();

  Layout arr;
  size_t esize = 0;
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
    throw Error(where, "dtype", "'" + h.descr + "' is not supported (expected float32 '<f4', uint8 '|u1' or uint16 '<u2')");
  }
  if (h.fortran)
    throw Error(where, "fortran_order", "Fortran-ordered arrays are not supported; save with np.ascontiguousarray");
  arr.shape = h.shape;
  uint64_t n = 1, need = 0;
  for (size_t d : arr.shape)
    if (!mul_u64(n, d, n)) throw Error(where, "shape", "shape " + shape_str(arr.shape) + " overflows 64 bits");
  if (!mul_u64(n, esize, need)) throw Error(where, "shape", "shape " + shape_str(arr.shape) + " overflows 64 bits");
  // The declared size against the file, before anything is allocated.
  const uint64_t have = total - hstart - hlen;
  if (have < need)
    throw Error(where, "data", "truncated: shape " + shape_str(arr.shape) + " needs " + std::to_string(need) +
                                   " bytes, file has " + std::to_string(have));
  if (have > need) throw Error(where, "data", "corrupt: " + std::to_string(have - need) + " trailing bytes after the array");
  arr.elements = n;
  arr.at = hstart + hlen;
  arr.bytes = need;
  return arr;
}

// The array's bytes into `v` (little endian on disk and host: x86, arm64).
template <class Vec, class ReadAt>
void read_values(const Layout& l, Vec& v, const ReadAt& read_at) {
  v.resize(static_cast<size_t>(l.elements));
  if (l.bytes) read_at(l.at, v.data(), static_cast<size_t>(l.bytes));
}

template <class ReadAt>
NpyArray read_from(uint64_t total, const ReadAt& read_at, const std::string& where) {
  const Layout l = read_layout(total, read_at, where);
  NpyArray arr;
  arr.dtype = l.dtype;
  arr.shape = l.shape;
  if (l.dtype == NpyDtype::float32) read_values(l, arr.f32, read_at);
  else if (l.dtype == NpyDtype::uint16) read_values(l, arr.u16, read_at);
  else read_values(l, arr.u8, read_at);
  return arr;
}

// An input file read front to back with the manifest's content hash computed as its bytes arrive
// (util/content_hash.hpp): the header's first bytes are read twice, so each read hashes the bytes
// past those already hashed, and the array is read in 1 MiB chunks hashed while in cache.
class HashedReader {
 public:
  explicit HashedReader(const std::string& path) : f_(path) {}
  uint64_t size() const { return f_.size(); }
  void operator()(uint64_t off, void* buf, size_t n) const {
    constexpr size_t kChunk = size_t(1) << 20;
    char* p = static_cast<char*>(buf);
    for (size_t done = 0; done < n;) {
      const size_t len = std::min(kChunk, n - done);
      f_.read_at(off + done, p + done, len);
      const uint64_t end = off + done + len;
      if (off + done <= hashed_ && end > hashed_) {
        hash_.update(p + done + (hashed_ - off - done), static_cast<size_t>(end - hashed_));
        hashed_ = end;
      }
      done += len;
    }
  }
  // Remembers the hash for the path once every byte went through.
  void remember() const {
    if (hashed_ == f_.size()) remember_content_hash(f_.path(), hash_.hex());
  }

 private:
  InputFile f_;
  mutable ContentHasher hash_;
  mutable uint64_t hashed_ = 0;
};

Error wrong_dtype(const std::string& path, NpyDtype d) {
  return Error(path, "dtype", std::string("expected float32 ('<f4'), got ") + dtype_name(d));
}

}  // namespace

NpyArray read_npy(const std::string& path) {
  const HashedReader r(path);
  NpyArray a = read_from(r.size(), r, path);
  r.remember();
  return a;
}

NpyF32 read_npy_f32_uninit(const std::string& path, UninitBuffer<float> storage) {
  const HashedReader r(path);
  const Layout l = read_layout(r.size(), r, path);
  if (l.dtype != NpyDtype::float32) throw wrong_dtype(path, l.dtype);
  NpyF32 a;
  a.shape = l.shape;
  // Too small: released before the fresh allocation (a resize would copy its contents over).
  if (storage.capacity() >= l.elements) a.values = std::move(storage);
  storage = UninitBuffer<float>();
  a.values.clear();  // resize() below then constructs nothing: the read writes every element
  read_values(l, a.values, r);
  r.remember();
  return a;
}

NpyArray parse_npy(const std::string& bytes, const std::string& where) {
  return read_from(
      bytes.size(), [&](uint64_t off, void* buf, size_t n) { std::memcpy(buf, bytes.data() + off, n); }, where);
}

NpyArray read_npy_f32(const std::string& path) {
  NpyArray a = read_npy(path);
  if (a.dtype != NpyDtype::float32) throw wrong_dtype(path, a.dtype);
  return a;
}

}  // namespace hifsim::io
