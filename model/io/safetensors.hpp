// Reading one float32 tensor from a .safetensors file (the Hugging Face format): an 8-byte
// little-endian header length N, N bytes of JSON {"name": {"dtype", "shape", "data_offsets":
// [begin, end]}, "__metadata__": {...}}, then the data, offsets relative to the end of the header.
// Only dtype F32 is read (docs/traces.md, tensor refs), but the whole header is checked as the
// format defines it, with a strict JSON parser (io/json_input.hpp):
//   - N <= 100,000,000 (the format's own limit) and 8 + N within the file; the JSON starts with '{'
//     and nothing but JSON whitespace follows the object (the format pads with spaces);
//   - every entry is {dtype, shape, data_offsets} and nothing else; a known dtype; the shape a
//     list of non-negative integers; __metadata__ a map of strings to strings; no key twice;
//   - every tensor's byte size (elements x dtype bits / 8, checked arithmetic, whole bytes) equals
//     end - begin, and the tensors tile the data area exactly: sorted by offset they start at 0,
//     do not overlap, leave no gap and end at the end of the file (no trailing bytes).
// Every problem throws hifsim::Error naming the file, the tensor and field, and the reason;
// nothing is allocated beyond the file's size and nothing is read past its end.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "io/npy.hpp"

namespace hifsim::io {

inline constexpr uint64_t kSafetensorsMaxHeader = 100000000;

struct SafetensorsEntry {
  std::string name, dtype;
  std::vector<uint64_t> shape;
  uint64_t begin = 0, end = 0;  // relative to the start of the data area
};

// Validates a header (the JSON text) for a data area of `data_bytes`; returns the tensors in
// header order.
std::vector<SafetensorsEntry> parse_safetensors_header(const std::string& json, uint64_t data_bytes,
                                                       const std::string& where);

// key empty: the file must hold exactly one tensor. Returns shape and data as an NpyArray.
NpyArray read_safetensors_f32(const std::string& path, const std::string& key);
// The same from the bytes of a whole file in memory: the fuzz harness's entry point.
NpyArray parse_safetensors_f32(const std::string& bytes, const std::string& key, const std::string& where);

}  // namespace hifsim::io
