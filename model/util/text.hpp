// Small text helpers shared by the model's report writers and the CLI.
#pragma once
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

namespace hifsim {

// v with prec significant digits, printf "%.*g" (the number style of every CSV and table).
inline std::string fmt_g(double v, int prec) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*g", prec, v);
  return b;
}

// "a,b,,c" -> {"a", "b", "c"}: the non-empty fields of a separated list.
inline std::vector<std::string> split_list(const std::string& s, char sep = ',') {
  std::vector<std::string> v;
  std::stringstream ss(s);
  std::string x;
  while (std::getline(ss, x, sep))
    if (!x.empty()) v.push_back(x);
  return v;
}

}  // namespace hifsim
