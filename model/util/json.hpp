// A small JSON writer (objects, arrays, strings, numbers, booleans) with correct escaping.
// Numbers are written with enough digits to round-trip (%.17g) or as given strings.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace hifsim {

class JsonWriter {
 public:
  explicit JsonWriter(int indent = 2) : indent_(indent) {}

  JsonWriter& begin_object() { return open('{'); }
  JsonWriter& end_object() { return close('}'); }
  JsonWriter& begin_array() { return open('['); }
  JsonWriter& end_array() { return close(']'); }

  JsonWriter& key(const std::string& k) {
    comma();
    out_ += quote(k) + ": ";
    after_key_ = true;
    return *this;
  }
  JsonWriter& value(const std::string& s) { return raw(quote(s)); }
  JsonWriter& value(const char* s) { return raw(quote(s)); }
  JsonWriter& value(bool b) { return raw(b ? "true" : "false"); }
  JsonWriter& value(double d) {
    if (!std::isfinite(d)) return raw(std::isnan(d) ? "null" : (d > 0 ? "1e999" : "-1e999"));
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", d);
    return raw(buf);
  }
  JsonWriter& value(float f) { return value(static_cast<double>(f)); }
  JsonWriter& value(int64_t i) { return raw(std::to_string(i)); }
  JsonWriter& value(uint64_t i) { return raw(std::to_string(i)); }
  JsonWriter& value(int i) { return raw(std::to_string(i)); }
  JsonWriter& value(unsigned i) { return raw(std::to_string(i)); }
  JsonWriter& value(long long i) { return raw(std::to_string(i)); }
  JsonWriter& value(unsigned long long i) { return raw(std::to_string(i)); }
  JsonWriter& null() { return raw("null"); }
  // Inserts already-formatted JSON.
  JsonWriter& raw(const std::string& s) {
    if (!after_key_) comma();
    after_key_ = false;
    out_ += s;
    return *this;
  }
  template <class T>
  JsonWriter& kv(const std::string& k, const T& v) {
    key(k);
    return value(v);
  }

  const std::string& str() const { return out_; }

  // Length of the well-formed UTF-8 sequence at s[i] (Unicode table 3-7: no overlong forms, no
  // surrogates, nothing above U+10FFFF), or 0 if the byte there does not start one.
  static size_t utf8_sequence(const std::string& s, size_t i) {
    const auto byte = [&](size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u; };
    const auto cont = [&](size_t k, unsigned lo = 0x80, unsigned hi = 0xBF) { return byte(k) >= lo && byte(k) <= hi; };
    const unsigned c = byte(0);
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) return cont(1, c == 0xE0 ? 0xA0 : 0x80, c == 0xED ? 0x9F : 0xBF) && cont(2) ? 3 : 0;
    if (c >= 0xF0 && c <= 0xF4) return cont(1, c == 0xF0 ? 0x90 : 0x80, c == 0xF4 ? 0x8F : 0xBF) && cont(2) && cont(3) ? 4 : 0;
    return 0;
  }

  // JSON text must be UTF-8 (RFC 8259 section 8.1): a byte that is not part of a well-formed
  // sequence (a file name from a Latin-1 folder, a cut sequence) is written as U+FFFD, else one
  // such byte in an input's name made the whole manifest unreadable to a strict parser.
  static std::string quote(const std::string& s) {
    std::string o = "\"";
    for (size_t i = 0; i < s.size();) {
      const unsigned char c = static_cast<unsigned char>(s[i]);
      if (c >= 0x80) {
        const size_t n = utf8_sequence(s, i);
        o += n ? s.substr(i, n) : std::string("\xEF\xBF\xBD");
        i += n ? n : 1;
        continue;
      }
      ++i;
      switch (c) {
        case '"': o += "\\\""; break;
        case '\\': o += "\\\\"; break;
        case '\n': o += "\\n"; break;
        case '\r': o += "\\r"; break;
        case '\t': o += "\\t"; break;
        default:
          if (c < 0x20) {
            char b[8];
            std::snprintf(b, sizeof b, "\\u%04x", c);
            o += b;
          } else {
            o += static_cast<char>(c);
          }
      }
    }
    return o + "\"";
  }

 private:
  JsonWriter& open(char c) {
    if (!after_key_) comma();
    after_key_ = false;
    out_ += c;
    first_.push_back(true);
    return *this;
  }
  JsonWriter& close(char c) {
    bool empty = first_.back();
    first_.pop_back();
    if (!empty) newline();
    out_ += c;
    return *this;
  }
  void comma() {
    if (first_.empty()) return;
    if (!first_.back()) out_ += ",";
    first_.back() = false;
    newline();
  }
  void newline() {
    if (indent_ <= 0) return;
    out_ += "\n";
    out_.append(first_.size() * static_cast<size_t>(indent_), ' ');
  }

  int indent_;
  std::string out_;
  std::vector<bool> first_;
  bool after_key_ = false;
};

}  // namespace hifsim
