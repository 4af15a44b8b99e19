// libFuzzer harness: the trace-manifest reader (io/trace.cpp through io/yaml_input.cpp) on
// arbitrary text. Accepted traces must respect the documented limits.
#include "fuzz_common.hpp"
#include "io/trace.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  hifsim::fuzz::expect_only_hifsim_errors("/nonexistent/fuzz/trace.yaml", [&] {
    const hifsim::io::Trace t = hifsim::io::parse_trace(text, "/nonexistent/fuzz/trace.yaml");
    for (const auto& op : t.ops)
      hifsim::fuzz::require(op.M > 0 && op.N > 0 && op.K > 0 && op.batch > 0 && op.repeat > 0, "zero dimension accepted");
    for (const auto& op : t.ops)
      hifsim::fuzz::require(op.macs_per_step() <= static_cast<double>(hifsim::io::kMaxOpMacs), "op above the MAC limit");
  });
  return 0;
}
