#include "options/value.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "util/checked.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

namespace hifsim::opt {

std::string Spelling::field(const std::string& option) const {
  if (!python) return "--" + option;
  std::string s = "argument " + option;
  for (char& c : s)
    if (c == '-') c = '_';
  return s;
}

void Value::fail(const std::string& reason) const { throw Error(spelling_.where, spelling_.field(option_), reason); }

std::string Value::shown() const {
  switch (kind_) {
    case Kind::text: return text_;
    case Kind::boolean: return b_ ? (spelling_.python ? "True" : "true") : (spelling_.python ? "False" : "false");
    case Kind::integer: return big_ ? text_ : std::to_string(i_);
    case Kind::number: {
      char buf[40];
      for (int p = 1; p <= 17; ++p) {  // the shortest text that reads back as the same double
        std::snprintf(buf, sizeof buf, "%.*g", p, d_);
        if (std::strtod(buf, nullptr) == d_) break;
      }
      return buf;
    }
    case Kind::list: {
      std::string s;
      for (const Value& v : items_) s += (s.empty() ? "" : ",") + v.shown();
      return s;
    }
  }
  return "";
}

long long Value::integer(long long lo, long long hi) const {
  long long x = 0;
  if (kind_ == Kind::text) {
    int64_t v = 0;
    if (!parse_i64(text_, v)) fail("'" + text_ + "' is not an integer");
    x = v;
  } else if (kind_ == Kind::integer && !big_) {
    x = i_;
  } else if (kind_ == Kind::integer) {
    fail(text_ + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  } else {
    fail("'" + shown() + "' is not an integer");
  }
  if (x < lo || x > hi) fail(shown() + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return x;
}

uint64_t Value::u64() const {
  const std::string why = "'" + shown() + "' is not a non-negative integer below 2^64 (decimal or 0x hex)";
  if (kind_ == Kind::integer) {
    if (big_ || i_ < 0) fail(why);
    return static_cast<uint64_t>(i_);
  }
  if (kind_ != Kind::text) fail(why);
  // Decimal, or hexadecimal with 0x (seeds): never strtoull's base 0, which read "010" as octal 8.
  const std::string& v = text_;
  uint64_t x = 0;
  const bool hex = v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X');
  bool ok = !hex && parse_u64(v, x);
  if (hex) {
    ok = v.size() <= 18 && v.find_first_not_of("0123456789abcdefABCDEF", 2) == std::string::npos;
    if (ok) x = std::strtoull(v.c_str() + 2, nullptr, 16);
  }
  if (!ok) fail(why);
  return x;
}

double Value::number() const {
  double x = 0;
  if (kind_ == Kind::number) x = d_;
  else if (kind_ == Kind::integer && !big_) x = static_cast<double>(i_);
  else if (kind_ == Kind::text) {
    char* end = nullptr;
    x = std::strtod(text_.c_str(), &end);
    if (text_.empty() || *end != '\0') fail("'" + text_ + "' is not a number");
  } else {
    fail("'" + shown() + "' is not a number");
  }
  if (!std::isfinite(x)) fail("'" + shown() + "' is not a finite number");
  return x;
}

std::string Value::text() const {
  if (kind_ == Kind::text) return text_;
  if (kind_ == Kind::integer) return shown();
  fail("'" + shown() + "' is not text");
}

bool Value::flag() const {
  if (kind_ != Kind::boolean) fail("'" + shown() + "' is not True or False (a flag)");
  return b_;
}

std::vector<Value> Value::list() const {
  std::vector<Value> out;
  if (kind_ == Kind::list) out = items_;
  else if (kind_ == Kind::text)
    for (const std::string& s : split_list(text_, ',')) out.push_back(of_text(s));
  else out.push_back(*this);
  for (Value& v : out) v.spelling_ = spelling_, v.option_ = option_;
  return out;
}

}  // namespace hifsim::opt
