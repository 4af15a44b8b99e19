// libFuzzer harness: the packed-code container (formats/packed.cpp) on arbitrary bytes. An
// accepted container must decode (every code of every format has a value) and survive
// pack -> unpack unchanged.
#include "formats/packed.hpp"
#include "formats/tensor.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  hifsim::fuzz::expect_only_hifsim_errors("fuzz.bin", [&] {
    const hifsim::fmt::QTensor q = hifsim::fmt::unpack_tensor(bytes, "fuzz.bin");
    const std::vector<float> v = hifsim::fmt::dequantize(q);
    hifsim::fuzz::require(v.size() == q.rows * q.cols, "dequantized size differs from rows x cols");
    const hifsim::fmt::QTensor r = hifsim::fmt::unpack_tensor(hifsim::fmt::pack_tensor(q), "repacked");
    hifsim::fuzz::require(r.codes == q.codes && r.scales == q.scales && r.l2 == q.l2 && r.l3 == q.l3, "pack(unpack(x)) changed the codes");
  });
  return 0;
}
