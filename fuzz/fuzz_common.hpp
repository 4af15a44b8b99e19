// The contract every harness checks: a reader given any bytes either returns or throws
// hifsim::Error whose message names the input (`where`: the file the bytes stand for), as every
// refusal must (docs/testing.md "Inputs"). Any other exception (std::out_of_range from a stoll, a
// yaml-cpp exception leaking out, std::bad_alloc from a size taken on trust), a message that does
// not name the input, and everything ASan and UBSan report is a finding. libFuzzer reports an
// abort as a crash.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "util/error.hpp"

namespace hifsim::fuzz {

template <class F>
void expect_only_hifsim_errors(const std::string& where, F&& f) {
  try {
    f();
  } catch (const hifsim::Error& e) {
    // the expected way to refuse an input, if it says which
    if (std::string(e.what()).find(where) == std::string::npos) {
      std::fprintf(stderr, "FINDING: a refusal that does not name %s: %s\n", where.c_str(), e.what());
      std::abort();
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "FINDING: exception other than hifsim::Error: %s\n", e.what());
    std::abort();
  } catch (...) {
    std::fprintf(stderr, "FINDING: non-standard exception\n");
    std::abort();
  }
}

// A property that must hold for every accepted input.
inline void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "FINDING: %s\n", what);
    std::abort();
  }
}

}  // namespace hifsim::fuzz
