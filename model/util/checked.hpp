// Checked integer arithmetic and strict decimal parsing for every reader and size computation.
//
// std::stoll/strtoull either throw std::out_of_range (which surfaced as "internal error: stoll")
// or saturate silently; a wrapped product of dimensions passes a bounds check it should fail.
// These helpers report overflow instead, and the *_or_throw forms turn it into one
// hifsim::Error naming the file and the field.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "util/error.hpp"

namespace hifsim {

// Decimal digits only (no sign, space, prefix or suffix), value < 2^64. False otherwise.
inline bool parse_u64(std::string_view s, uint64_t& out) {
  if (s.empty()) return false;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    if (__builtin_mul_overflow(v, uint64_t{10}, &v) || __builtin_add_overflow(v, uint64_t(c - '0'), &v)) return false;
  }
  out = v;
  return true;
}

// An optional '+' or '-' then decimal digits, value in [-2^63, 2^63). False otherwise.
inline bool parse_i64(std::string_view s, int64_t& out) {
  const bool neg = !s.empty() && s[0] == '-';
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  uint64_t mag = 0;
  if (!parse_u64(s, mag)) return false;
  const uint64_t limit = neg ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  if (mag > limit) return false;
  out = neg ? static_cast<int64_t>(0 - mag) : static_cast<int64_t>(mag);  // 0 - 2^63 wraps to INT64_MIN
  return true;
}

// a * b and a + b, false when the exact result does not fit in 64 bits.
inline bool mul_u64(uint64_t a, uint64_t b, uint64_t& out) { return !__builtin_mul_overflow(a, b, &out); }
inline bool add_u64(uint64_t a, uint64_t b, uint64_t& out) { return !__builtin_add_overflow(a, b, &out); }

// The same, throwing hifsim::Error(where, field, "... overflows 64 bits") on overflow.
inline uint64_t mul_or_throw(uint64_t a, uint64_t b, const std::string& where, const std::string& field) {
  uint64_t r = 0;
  if (!mul_u64(a, b, r))
    throw Error(where, field, std::to_string(a) + " x " + std::to_string(b) + " overflows 64 bits");
  return r;
}
inline uint64_t add_or_throw(uint64_t a, uint64_t b, const std::string& where, const std::string& field) {
  uint64_t r = 0;
  if (!add_u64(a, b, r))
    throw Error(where, field, std::to_string(a) + " + " + std::to_string(b) + " overflows 64 bits");
  return r;
}

}  // namespace hifsim
