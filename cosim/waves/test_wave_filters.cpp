// The GTKWave translate filters of cosim_wave_filters, run as GTKWave runs them: the process
// filter fed a sample of codes (every code of each format, in a scrambled order, with upper and
// lower case hex) on stdin, and the filter files read the way GTKWave reads them (first word the
// displayed value, case-insensitive; the rest of the line, trimmed, the text). Each text must
// parse back to exactly the model's decode of the code (fmt::code_decode; NaN as NaN, -0 as -0).
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "formats/format.hpp"
#include "waves/code_text.hpp"

namespace {

using hifsim::cosim::waves::FilterCode;
using hifsim::cosim::waves::filter_codes;

const std::string kTool = HIFSIM_WAVE_FILTERS_TOOL;
const std::string kDir = HIFSIM_WAVE_FILTERS_TMP;

// The text a filter shows equals the model's value of the code.
void expect_value(const FilterCode& c, unsigned code, const std::string& text) {
  const float want = hifsim::fmt::code_decode(c.format, static_cast<uint8_t>(code));
  char* end = nullptr;
  const float got = std::strtof(text.c_str(), &end);
  ASSERT_TRUE(!text.empty() && *end == '\0') << c.name << " code " << code << ": not a number: '" << text << "'";
  if (std::isnan(want)) {
    EXPECT_TRUE(std::isnan(got)) << c.name << " code " << code << ": '" << text << "', model NaN";
    return;
  }
  uint32_t wb, gb;
  std::memcpy(&wb, &want, 4);
  std::memcpy(&gb, &got, 4);
  EXPECT_EQ(wb, gb) << c.name << " code 0x" << std::hex << code << ": filter '" << text << "', model " << want;
}

std::string lower(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

TEST(WaveFilters, ProcessFilterShowsTheModelsValueOfEveryCode) {
  for (const FilterCode& c : filter_codes()) {
    const unsigned n = 1u << c.bits;
    std::vector<unsigned> sample;
    for (unsigned i = 0; i < n; ++i) sample.push_back((i * 37u + 11u) % n);  // every code, scrambled
    const std::string in = kDir + "/" + c.name + ".in", out = kDir + "/" + c.name + ".out";
    {
      std::ofstream f(in);
      for (size_t i = 0; i < sample.size(); ++i) {
        const std::string h = hifsim::cosim::waves::code_hex(sample[i], c.bits);
        f << (i % 2 ? lower(h) : h) << "\n";
      }
    }
    ASSERT_EQ(std::system((kTool + " --translate " + c.name + " < " + in + " > " + out).c_str()), 0);
    std::ifstream f(out);
    std::string line;
    size_t k = 0;
    while (std::getline(f, line)) {
      ASSERT_LT(k, sample.size()) << c.name << ": more lines out than in";
      expect_value(c, sample[k], line);
      ++k;
    }
    EXPECT_EQ(k, sample.size()) << c.name << ": one line out per line in";
  }
}

TEST(WaveFilters, FilterFilesShowTheModelsValueOfEveryCode) {
  ASSERT_EQ(std::system((kTool + " --write " + kDir).c_str()), 0);
  for (const FilterCode& c : filter_codes()) {
    std::ifstream f(kDir + "/" + c.name + ".gtkw-filter");
    ASSERT_TRUE(f) << c.name;
    std::map<std::string, std::string> table;  // GTKWave: value (case-insensitive) -> text
    std::string line;
    while (std::getline(f, line)) {
      std::istringstream ls(line);
      std::string key;
      if (!(ls >> key) || key[0] == '#') continue;
      std::string rest;
      std::getline(ls, rest);
      const size_t b = rest.find_first_not_of(" \t"), e = rest.find_last_not_of(" \t\r");
      EXPECT_TRUE(table.emplace(lower(key), b == std::string::npos ? "" : rest.substr(b, e - b + 1)).second)
          << c.name << ": value " << key << " twice";
    }
    ASSERT_EQ(table.size(), size_t{1} << c.bits) << c.name << ": one line per code";
    for (unsigned code = 0; code < (1u << c.bits); ++code) {
      const auto it = table.find(lower(hifsim::cosim::waves::code_hex(code, c.bits)));
      ASSERT_NE(it, table.end()) << c.name << " code " << code;
      expect_value(c, code, it->second);
    }
  }
}

}  // namespace
