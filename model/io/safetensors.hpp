// Reading one float32 tensor from a .safetensors file (the Hugging Face format): an 8-byte
// little-endian header length N, N bytes of JSON {"name": {"dtype", "shape", "data_offsets":
// [begin, end]}, "__metadata__": {...}}, then the data, offsets relative to the end of the header.
// Only dtype F32 is accepted (docs/traces.md, tensor refs). Every problem throws hifsim::Error
// naming the file and the reason; nothing is read past the file's end.
#pragma once
#include <string>

#include "io/npy.hpp"

namespace hifsim::io {

// key empty: the file must hold exactly one tensor. Returns shape and data as an NpyArray.
NpyArray read_safetensors_f32(const std::string& path, const std::string& key);

}  // namespace hifsim::io
