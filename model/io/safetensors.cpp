#include "io/safetensors.hpp"

#include <algorithm>
#include <cstring>

#include "io/input_file.hpp"
#include "io/json_input.hpp"
#include "util/checked.hpp"
#include "util/error.hpp"

namespace hifsim::io {
namespace {

using nlohmann::json;

// Bits per element of every dtype the format defines (safetensors 0.5: sub-byte floats too).
int dtype_bits(const std::string& d) {
  static const std::pair<const char*, int> table[] = {
      {"BOOL", 8}, {"U8", 8}, {"I8", 8}, {"F8_E5M2", 8}, {"F8_E4M3", 8}, {"F8_E8M0", 8}, {"F4", 4},
      {"F6_E2M3", 6}, {"F6_E3M2", 6}, {"I16", 16}, {"U16", 16}, {"F16", 16}, {"BF16", 16}, {"I32", 32},
      {"U32", 32}, {"F32", 32}, {"F64", 64}, {"I64", 64}, {"U64", 64}, {"C64", 64}};
  for (const auto& [name, bits] : table)
    if (d == name) return bits;
  return 0;
}

uint64_t le64(const unsigned char* b) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | b[i];
  return v;
}

uint64_t unsigned_of(const json& v, const std::string& where, const std::string& field) {
  if (!v.is_number_unsigned()) throw Error(where, field, "must be a non-negative integer below 2^64, got " + v.dump());
  return v.get<uint64_t>();
}

SafetensorsEntry entry_of(const std::string& name, const json& t, uint64_t data_bytes, const std::string& where) {
  const std::string f = "tensor '" + name + "'";
  if (!t.is_object()) throw Error(where, f, "must be an object {dtype, shape, data_offsets}");
  for (const auto& [k, v] : t.items()) {
    (void)v;
    if (k != "dtype" && k != "shape" && k != "data_offsets")
      throw Error(where, f + "." + k, "unknown field (a tensor has dtype, shape, data_offsets)");
  }
  for (const char* k : {"dtype", "shape", "data_offsets"})
    if (!t.contains(k)) throw Error(where, f + "." + k, "missing");
  SafetensorsEntry e;
  e.name = name;
  if (!t["dtype"].is_string()) throw Error(where, f + ".dtype", "must be a string");
  e.dtype = t["dtype"].get<std::string>();
  const int bits = dtype_bits(e.dtype);
  if (bits == 0) throw Error(where, f + ".dtype", "'" + e.dtype + "' is not a safetensors dtype");
  if (!t["shape"].is_array()) throw Error(where, f + ".shape", "must be a list of integers");
  uint64_t count = 1;
  for (size_t i = 0; i < t["shape"].size(); ++i) {
    const uint64_t d = unsigned_of(t["shape"][i], where, f + ".shape[" + std::to_string(i) + "]");
    e.shape.push_back(d);
    if (!mul_u64(count, d, count)) throw Error(where, f + ".shape", "element count overflows 64 bits");
  }
  uint64_t total_bits = 0;
  if (!mul_u64(count, static_cast<uint64_t>(bits), total_bits))
    throw Error(where, f + ".shape", "byte size overflows 64 bits");
  if (total_bits % 8) throw Error(where, f + ".shape", "is not a whole number of bytes of " + e.dtype);
  const json& o = t["data_offsets"];
  if (!o.is_array() || o.size() != 2) throw Error(where, f + ".data_offsets", "must be a [begin, end] pair");
  e.begin = unsigned_of(o[0], where, f + ".data_offsets[0]");
  e.end = unsigned_of(o[1], where, f + ".data_offsets[1]");
  if (e.end < e.begin) throw Error(where, f + ".data_offsets", "end " + std::to_string(e.end) + " is before begin " + std::to_string(e.begin));
  if (e.end > data_bytes)
    throw Error(where, f + ".data_offsets",
                "runs past the end of the file: ends at data byte " + std::to_string(e.end) + ", the data area has " +
                    std::to_string(data_bytes) + " bytes");
  if (e.end - e.begin != total_bits / 8)
    throw Error(where, f, "spans " + std::to_string(e.end - e.begin) + " bytes, but its shape needs " + std::to_string(total_bits / 8));
  return e;
}

template <class ReadAt>
NpyArray read_from(uint64_t size, const ReadAt& read_at, const std::string& key, const std::string& where) {
  unsigned char len_bytes[8];
  if (size < 8) throw Error(where, "", "too short for a safetensors header (" + std::to_string(size) + " bytes)");
  read_at(0, len_bytes, 8);
  const uint64_t n = le64(len_bytes);
  if (n < 2 || n > kSafetensorsMaxHeader || n > size - 8)
    throw Error(where, "header length", std::to_string(n) + " is not plausible for a file of " + std::to_string(size) +
                                            " bytes (at most " + std::to_string(kSafetensorsMaxHeader) + ")");
  std::string header(static_cast<size_t>(n), '\0');
  read_at(8, header.data(), header.size());
  const std::vector<SafetensorsEntry> all = parse_safetensors_header(header, size - 8 - n, where);
  const SafetensorsEntry* t = nullptr;
  if (key.empty()) {
    if (all.size() != 1) throw Error(where, "", "holds " + std::to_string(all.size()) + " tensors; name one with 'key'");
    t = &all[0];
  } else {
    for (const auto& e : all)
      if (e.name == key) t = &e;
    if (!t) throw Error(where, key, "no tensor named '" + key + "'");
  }
  if (t->dtype != "F32") throw Error(where, t->name, "dtype " + t->dtype + ", expected F32");
  NpyArray a;
  a.dtype = NpyDtype::float32;
  for (uint64_t d : t->shape) a.shape.push_back(static_cast<size_t>(d));
  std::vector<unsigned char> raw(static_cast<size_t>(t->end - t->begin));  // within the file: checked above
  if (!raw.empty()) read_at(8 + n + t->begin, raw.data(), raw.size());
  a.f32.resize(raw.size() / 4);
  for (size_t i = 0; i < a.f32.size(); ++i) {  // little endian on disk, whatever the host
    const uint32_t u = static_cast<uint32_t>(raw[4 * i]) | static_cast<uint32_t>(raw[4 * i + 1]) << 8 |
                       static_cast<uint32_t>(raw[4 * i + 2]) << 16 | static_cast<uint32_t>(raw[4 * i + 3]) << 24;
    std::memcpy(&a.f32[i], &u, 4);
  }
  return a;
}

}  // namespace

std::vector<SafetensorsEntry> parse_safetensors_header(const std::string& text, uint64_t data_bytes,
                                                       const std::string& where) {
  if (text.empty() || text[0] != '{') throw Error(where, "header", "does not start with '{' (not a JSON object)");
  // Depth 3 is all the format has (root, tensor, shape list); 8 leaves room for nothing else.
  const json h = parse_json_strict(text, where + ": header", 8);
  if (!h.is_object()) throw Error(where, "header", "is not a JSON object");
  std::vector<SafetensorsEntry> out;
  for (const auto& [name, v] : h.items()) {
    if (name == "__metadata__") {
      if (!v.is_object()) throw Error(where, "__metadata__", "must be an object of strings");
      for (const auto& [mk, mv] : v.items())
        if (!mv.is_string()) throw Error(where, "__metadata__." + mk, "must be a string");
      continue;
    }
    out.push_back(entry_of(name, v, data_bytes, where));
  }
  // The tensors must tile [0, data_bytes): no overlap (two tensors sharing bytes), no gap, no tail.
  std::vector<const SafetensorsEntry*> byoff;
  for (const auto& e : out) byoff.push_back(&e);
  std::sort(byoff.begin(), byoff.end(), [](const SafetensorsEntry* a, const SafetensorsEntry* b) {
    return a->begin != b->begin ? a->begin < b->begin : a->end < b->end;
  });
  uint64_t at = 0;
  for (const SafetensorsEntry* e : byoff) {
    if (e->begin < at)
      throw Error(where, "tensor '" + e->name + "'.data_offsets", "overlaps the previous tensor (begins at " +
                                                                     std::to_string(e->begin) + ", before " + std::to_string(at) + ")");
    if (e->begin > at)
      throw Error(where, "tensor '" + e->name + "'.data_offsets",
                  "leaves a gap: begins at " + std::to_string(e->begin) + ", the previous tensor ends at " + std::to_string(at));
    at = e->end;
  }
  if (at != data_bytes)
    throw Error(where, "data", std::to_string(data_bytes - at) + " bytes after the last tensor belong to no tensor");
  return out;
}

NpyArray read_safetensors_f32(const std::string& path, const std::string& key) {
  const InputFile f(path);
  return read_from(f.size(), [&](uint64_t off, void* buf, size_t n) { f.read_at(off, buf, n); }, key, path);
}

NpyArray parse_safetensors_f32(const std::string& bytes, const std::string& key, const std::string& where) {
  return read_from(
      bytes.size(), [&](uint64_t off, void* buf, size_t n) { std::memcpy(buf, bytes.data() + off, n); }, key, where);
}

}  // namespace hifsim::io
