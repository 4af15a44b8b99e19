// Shared by the C++ tests that check error messages and write files: the message of the
// hifsim::Error a call throws, and a fresh temporary folder.
#pragma once
#include <stdlib.h>

#include <string>

#include "util/error.hpp"

namespace hifsim::test {

// The message of the hifsim::Error f() throws; "" when it returns normally.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// A new empty folder under /tmp named after `what` (left for inspection after a failure).
inline std::string temp_dir(const std::string& what) {
  std::string t = "/tmp/hifsim-" + what + "-XXXXXX";
  const char* d = mkdtemp(&t[0]);
  return d ? d : "/tmp";
}

}  // namespace hifsim::test
