// hifsim table --format F: every code of an 8-bit or 4-bit element/scale format and its value.
#include <cmath>
#include <cstdio>
#include <iostream>

#include "args.hpp"
#include "command.hpp"
#include "formats/format.hpp"
#include "util/error.hpp"

namespace {
using namespace hifsim;

std::string value_str(float v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%a", static_cast<double>(v));
  return buf;
}

int run(const std::vector<std::string>& args, const std::vector<std::string>&) {
  cli::ArgParser p("hifsim table --format F",
                   "Print every code of an 8-bit or 4-bit element or scale format as CSV `code,value`;\n"
                   "value is the exact C99 hex float (printf %a), or nan / inf / -inf.");
  p.option("format", "F", "one of: " + fmt::code_format_names(), std::nullopt, true);
  if (!p.parse(args)) return 0;
  const auto f = fmt::parse_format(p.get("format"));
  if (!f || !fmt::has_code_table(*f))
    throw Error("--format", p.get("format"), "has no code table; choose one of: " + fmt::code_format_names());
  const unsigned bits = fmt::format_info(*f).code_bits;
  std::cout << "code,value\n";
  for (unsigned c = 0; c < (1u << bits); ++c) {
    char code[8];
    std::snprintf(code, sizeof code, bits == 4 ? "0x%X" : "0x%02X", c);
    std::cout << code << "," << value_str(fmt::code_decode(*f, static_cast<uint8_t>(c))) << "\n";
  }
  return 0;
}
}  // namespace

HIFSIM_COMMAND("table", "print every code of an element/scale format and its exact value (CSV)", run);
