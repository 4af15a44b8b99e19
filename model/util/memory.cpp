#include "util/memory.hpp"

#include <unistd.h>

#include <cstdio>

#include "util/error.hpp"

namespace hifsim {
namespace {
std::string gib(uint64_t b) {
  if (b == UINT64_MAX) return "more than 2^64 bytes";
  char s[48];
  std::snprintf(s, sizeof s, "%.1f GiB", static_cast<double>(b) / (1u << 30));
  return s;
}
}  // namespace

uint64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return 0;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page);
}

void require_memory(uint64_t bytes, const std::string& where, const std::string& field, const std::string& what,
                    const std::string& hint) {
  const uint64_t have = physical_memory_bytes();
  if (have == 0 || bytes <= have) return;
  throw Error(where, field, what + " needs " + gib(bytes) + ", this machine has " + gib(have) + (hint.empty() ? "" : "; " + hint));
}

}  // namespace hifsim
