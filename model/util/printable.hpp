// An error message made safe to print as one terminal line. Messages quote the input they refuse
// (a field name, a value, a path), and an input can hold anything: a YAML key with a newline
// would split the message into lines that look like hifsim's own, an ESC byte would reach the
// terminal as an escape sequence, and a 3 MiB key would be printed whole (found with the
// fuzz_unit_config inputs; docs/testing.md "Fuzzing").
#pragma once
#include <cstdio>
#include <string>

namespace hifsim {

// Control bytes (< 0x20, 0x7f) written as \xNN; a text longer than `max_bytes` keeps its
// beginning and its end (where the reason is) around "[... N bytes ...]".
inline std::string one_printable_line(const std::string& s, size_t max_bytes = 2048) {
  std::string o;
  o.reserve(s.size() < max_bytes ? s.size() : max_bytes);
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7f) {
      char b[8];
      std::snprintf(b, sizeof b, "\\x%02x", c);
      o += b;
    } else {
      o += static_cast<char>(c);
    }
  }
  if (o.size() <= max_bytes) return o;
  // Cut at UTF-8 character starts, so neither half ends in a broken character.
  auto start = [&](size_t i) {
    while (i < o.size() && (static_cast<unsigned char>(o[i]) & 0xC0) == 0x80) ++i;
    return i;
  };
  const size_t head = start(max_bytes / 2), tail = start(o.size() - max_bytes / 2);
  return o.substr(0, head) + "[... " + std::to_string(tail - head) + " bytes ...]" + o.substr(tail);
}

}  // namespace hifsim
