// hifsim::Error: the one exception type for bad input. Its message always names
// the file (or source), the field and the reason, so a command can print it as is.
#pragma once
#include <stdexcept>
#include <string>

namespace hifsim {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
  // "where: field: reason" with empty parts left out.
  Error(const std::string& where, const std::string& field, const std::string& reason)
      : std::runtime_error(join(where, field, reason)) {}

 private:
  static std::string join(const std::string& a, const std::string& b, const std::string& c) {
    std::string s;
    for (const std::string* p : {&a, &b, &c}) {
      if (p->empty()) continue;
      if (!s.empty()) s += ": ";
      s += *p;
    }
    return s;
  }
};

}  // namespace hifsim
