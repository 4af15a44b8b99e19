// Reading a committed file and naming the first line where it differs from its generated text
// (the generated-file tests of tests/hw).
#pragma once
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace hifsim::test {

inline std::string read_text(const std::string& p) {
  std::ifstream f(p);
  EXPECT_TRUE(f.good()) << "cannot open " << p;
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// The first line where two texts differ, for the failure message.
inline std::string first_difference(const std::string& a, const std::string& b) {
  std::istringstream x(a), y(b);
  std::string la, lb;
  for (int n = 1;; ++n) {
    const bool ga = static_cast<bool>(std::getline(x, la)), gb = static_cast<bool>(std::getline(y, lb));
    if (!ga && !gb) return "";
    if (la != lb || ga != gb) return "line " + std::to_string(n) + ":\n  committed: " + la + "\n  generated: " + lb;
  }
}

}  // namespace hifsim::test
