// cosim_wave_filters: GTKWave translate filters that show HiF4 (S1P2), HiF8, E2M1, E4M3, E6M2
// and E8M0 codes as their values (docs/cosim.md, "Reading a mismatch").
//
//   cosim_wave_filters --write DIR     writes DIR/<code>.gtkw-filter (Translate Filter File)
//   cosim_wave_filters --translate C   a Translate Filter Process: reads one hex code a line on
//                                      stdin, writes its value a line on stdout (flushed)
//   cosim_wave_filters --list          the code names
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>

#include "code_text.hpp"

namespace {

using hifsim::cosim::waves::FilterCode;
using hifsim::cosim::waves::filter_codes;

const FilterCode* find_code(const std::string& name) {
  for (const FilterCode& c : filter_codes())
    if (name == c.name) return &c;
  return nullptr;
}

int usage(const std::string& err) {
  std::string names;
  for (const FilterCode& c : filter_codes()) names += std::string(" ") + c.name;
  std::fprintf(stderr, "cosim_wave_filters: %s\nusage: cosim_wave_filters --write DIR | --translate CODE | --list\ncodes:%s\n",
               err.c_str(), names.c_str());
  return 3;
}

// One line in: a hex code (GTKWave may prefix nothing; "x"/"z" bits give "?"); one line out.
std::string translate_line(const FilterCode& c, const std::string& line) {
  std::string t;
  for (char ch : line)
    if (ch != ' ' && ch != '\t' && ch != '\r') t += ch;
  if (t.empty()) return "";
  char* end = nullptr;
  const unsigned long code = std::strtoul(t.c_str(), &end, 16);
  if (*end != '\0' || code >= (1ul << c.bits)) return "?" + t;
  return hifsim::cosim::waves::value_text(hifsim::fmt::code_decode(c.format, static_cast<uint8_t>(code)));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "--list") {
    for (const FilterCode& c : filter_codes()) std::printf("%s\n", c.name);
    return 0;
  }
  if (argc != 3) return usage("expected one mode and its argument");
  const std::string mode = argv[1], arg = argv[2];
  if (mode == "--write") {
    for (const FilterCode& c : filter_codes()) {
      const std::string path = arg + "/" + c.name + ".gtkw-filter";
      std::ofstream f(path);
      f << hifsim::cosim::waves::filter_file(c);
      if (!f) {
        std::fprintf(stderr, "cosim_wave_filters: cannot write %s\n", path.c_str());
        return 3;
      }
    }
    return 0;
  }
  if (mode == "--translate") {
    const FilterCode* c = find_code(arg);
    if (!c) return usage("unknown code '" + arg + "'");
    std::string line;
    while (std::getline(std::cin, line)) {
      std::printf("%s\n", translate_line(*c, line).c_str());
      std::fflush(stdout);
    }
    return 0;
  }
  return usage("unknown mode '" + mode + "'");
}
