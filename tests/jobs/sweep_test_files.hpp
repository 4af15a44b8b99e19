// Files for the sweep tests: a scratch folder removed when the test passed (kept for inspection
// after a failure), and whole-file read and write.
#pragma once
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "common/errors_and_temp.hpp"

namespace hifsim::test {

class ScratchDir {
 public:
  explicit ScratchDir(const std::string& what) : path_(temp_dir(what)) {}
  ~ScratchDir() {
    if (!::testing::Test::HasFailure()) std::filesystem::remove_all(path_);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::string& path() const { return path_; }
  operator const std::string&() const { return path_; }  // NOLINT: used as a path everywhere
  std::string operator+(const std::string& rel) const { return path_ + rel; }

 private:
  std::string path_;
};

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
}

inline std::string read_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

}  // namespace hifsim::test
