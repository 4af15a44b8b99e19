#include "io/safetensors.hpp"

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <vector>

#include "util/error.hpp"

namespace hifsim::io {
namespace {

uint64_t le64(const unsigned char* b) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | b[i];
  return v;
}

}  // namespace

NpyArray read_safetensors_f32(const std::string& path, const std::string& key) {
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  if (!f) throw Error(path, "", "cannot open the safetensors file");
  const uint64_t size = static_cast<uint64_t>(f.tellg());
  f.seekg(0);
  unsigned char len_bytes[8];
  if (size < 8 || !f.read(reinterpret_cast<char*>(len_bytes), 8)) throw Error(path, "", "too short for a safetensors header");
  const uint64_t n = le64(len_bytes);
  // The format caps the header at 100 MB; a header must also fit in the file.
  if (n < 2 || n > 100000000 || n > size - 8) throw Error(path, "", "header length " + std::to_string(n) + " is not plausible");
  std::string json(n, '\0');
  if (!f.read(json.data(), static_cast<std::streamsize>(n))) throw Error(path, "", "truncated header");
  // JSON is valid YAML flow syntax: yaml-cpp (already a dependency) parses the header.
  YAML::Node h;
  try {
    h = YAML::Load(json);
  } catch (const YAML::Exception& e) {
    throw Error(path, "", std::string("header is not valid JSON (") + e.what() + ")");
  }
  if (!h.IsMap()) throw Error(path, "", "header is not a JSON object");
  std::string name = key;
  if (name.empty()) {
    std::vector<std::string> names;
    for (const auto& kv : h)
      if (kv.first.as<std::string>() != "__metadata__") names.push_back(kv.first.as<std::string>());
    if (names.size() != 1) throw Error(path, "", "holds " + std::to_string(names.size()) + " tensors; name one with 'key'");
    name = names[0];
  }
  const YAML::Node t = h[name];
  if (!t || !t.IsMap()) throw Error(path, name, "no tensor named '" + name + "'");
  NpyArray a;
  uint64_t count = 1, begin = 0, end = 0;
  try {
    if (t["dtype"].as<std::string>() != "F32")
      throw Error(path, name, "dtype " + t["dtype"].as<std::string>() + ", expected F32");
    if (!t["shape"].IsSequence()) throw Error(path, name + ".shape", "not a list");
    for (const auto& d : t["shape"]) {
      const int64_t v = d.as<int64_t>();
      if (v < 0) throw Error(path, name + ".shape", "negative dimension");
      a.shape.push_back(static_cast<size_t>(v));
      count *= static_cast<uint64_t>(v);
    }
    const YAML::Node o = t["data_offsets"];
    if (!o.IsSequence() || o.size() != 2) throw Error(path, name + ".data_offsets", "not a [begin, end] pair");
    begin = o[0].as<uint64_t>();
    end = o[1].as<uint64_t>();
  } catch (const YAML::Exception& e) {
    throw Error(path, name, std::string("malformed tensor entry (") + e.what() + ")");
  }
  if (end < begin || end - begin != 4 * count)
    throw Error(path, name, "spans " + std::to_string(end - begin) + " bytes, but its shape needs " + std::to_string(4 * count));
  if (8 + n + end > size) throw Error(path, name, "runs past the end of the file");
  std::vector<unsigned char> raw(static_cast<size_t>(end - begin));
  f.seekg(static_cast<std::streamoff>(8 + n + begin));
  if (!f.read(reinterpret_cast<char*>(raw.data()), static_cast<std::streamsize>(raw.size())))
    throw Error(path, name, "cannot read the data");
  a.dtype = NpyDtype::float32;
  a.f32.resize(static_cast<size_t>(count));
  for (size_t i = 0; i < a.f32.size(); ++i) {  // little endian on disk, whatever the host
    const uint32_t u = static_cast<uint32_t>(raw[4 * i]) | static_cast<uint32_t>(raw[4 * i + 1]) << 8 |
                       static_cast<uint32_t>(raw[4 * i + 2]) << 16 | static_cast<uint32_t>(raw[4 * i + 3]) << 24;
    std::memcpy(&a.f32[i], &u, 4);
  }
  return a;
}

}  // namespace hifsim::io
