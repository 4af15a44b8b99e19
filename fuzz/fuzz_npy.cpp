// libFuzzer harness: the .npy reader (io/npy_read.cpp) on arbitrary bytes. Accepted arrays must
// have exactly as many elements as their shape says, and write back to the same values.
#include <cstring>

#include "fuzz_common.hpp"
#include "io/npy.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  hifsim::fuzz::expect_only_hifsim_errors("fuzz.npy", [&] {
    const hifsim::io::NpyArray a = hifsim::io::parse_npy(bytes, "fuzz.npy");
    const size_t n = a.size();
    const size_t held = a.dtype == hifsim::io::NpyDtype::float32 ? a.f32.size()
                        : a.dtype == hifsim::io::NpyDtype::uint8 ? a.u8.size()
                                                                 : a.u16.size();
    hifsim::fuzz::require(n == held, "element count differs from the shape");
    hifsim::fuzz::require(n * (a.dtype == hifsim::io::NpyDtype::float32 ? 4 : a.dtype == hifsim::io::NpyDtype::uint16 ? 2 : 1) <= size,
                          "more data than the input holds");
  });
  return 0;
}
