// libFuzzer harness: the unit-config loader (config/schema.cpp + config/unit_config.cpp) on
// arbitrary YAML text, and the same text split at the first '=' as a --set override.
#include "config/unit_config.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  hifsim::fuzz::expect_only_hifsim_errors("fuzz.yaml", [&] { hifsim::cfg::unit_config_from_string(text, "fuzz.yaml"); });
  static const std::string base = "schema: hifsim-unit/1\nname: u\npe: {format: hif4}\narray: {rows: 4, cols: 4}\n";
  const size_t nl = text.find('\n');
  hifsim::fuzz::expect_only_hifsim_errors(
      "base.yaml", [&] { hifsim::cfg::unit_config_from_string(base, "base.yaml", {text.substr(0, nl)}); });
  return 0;
}
