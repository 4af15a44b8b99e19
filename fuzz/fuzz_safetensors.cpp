// libFuzzer harness: the .safetensors reader (io/safetensors.cpp, strict JSON header) on arbitrary
// bytes, reading the single tensor and the tensor named "a". An accepted tensor's bytes must lie
// inside the input: its element count times 4 cannot exceed the input's size.
#include "fuzz_common.hpp"
#include "io/safetensors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  for (const char* key : {"", "a"}) {
    hifsim::fuzz::expect_only_hifsim_errors("fuzz.safetensors", [&] {
      const hifsim::io::NpyArray a = hifsim::io::parse_safetensors_f32(bytes, key, "fuzz.safetensors");
      hifsim::fuzz::require(a.f32.size() == a.size(), "element count differs from the shape");
      hifsim::fuzz::require(a.f32.size() * 4 + 10 <= size, "tensor larger than the input");
    });
  }
  return 0;
}
