// Helpers of the cost-model tests: the committed tables and a scratch copy to break.
#pragma once
#include <stdlib.h>

#include <fstream>
#include <sstream>
#include <string>

inline std::string tables_dir() { return std::string(HIFSIM_SOURCE_DIR) + "/configs/cost"; }

inline std::string read_text(const std::string& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}
inline void write_text(const std::string& p, const std::string& s) { std::ofstream(p) << s; }

// A fresh copy of configs/cost in a temporary folder.
inline std::string scratch_tables() {
  char tmpl[] = "/tmp/hifsim_cost_XXXXXX";
  const char* d = mkdtemp(tmpl);
  const std::string dir = d ? d : "/tmp";
  for (const char* f : {"area.yaml", "energy-45nm.yaml", "sram.yaml", "synth.csv"})
    write_text(dir + "/" + f, read_text(tables_dir() + "/" + f));
  return dir;
}

// Removes the line starting with `prefix` (an entry "name: {...}").
inline std::string drop_line(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line))
    if (line.rfind(prefix, 0) != 0) out += line + "\n";
  return out;
}
