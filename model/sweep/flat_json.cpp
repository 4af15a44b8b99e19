#include "sweep/flat_json.hpp"

#include <cstdint>

namespace hifsim::sweep {
namespace {

// A strict reader of RFC 8259 JSON that hands every number over as its source text. Written
// here rather than taken from a JSON library because the merge must copy numbers byte for
// byte, including the 1e999 / -1e999 that util/json.hpp writes for infinities, which
// nlohmann::json refuses as an overflow.
class Reader {
 public:
  Reader(const std::string& t, FlatFields& out) : t_(t), out_(out) {}

  bool object_document(std::string& error) {
    ws();
    if (peek() != '{') return fail(error, "the top level is not an object");
    if (!value("", 0) || (ws(), pos_ != t_.size())) {
      if (error_.empty()) error_ = "text after the object";
      return fail(error, error_);
    }
    return true;
  }

 private:
  static constexpr int kMaxDepth = 64;  // results are flat; this only bounds the recursion

  char peek() const { return pos_ < t_.size() ? t_[pos_] : '\0'; }
  void ws() {
    while (pos_ < t_.size() && (t_[pos_] == ' ' || t_[pos_] == '\t' || t_[pos_] == '\n' || t_[pos_] == '\r')) ++pos_;
  }
  bool bad(const std::string& why) {
    if (error_.empty()) error_ = why + " at byte " + std::to_string(pos_);
    return false;
  }
  bool fail(std::string& error, const std::string& why) {
    error = why;
    return false;
  }
  bool literal(const char* word) {
    const std::string w(word);
    if (t_.compare(pos_, w.size(), w) != 0) return bad("invalid literal");
    pos_ += w.size();
    return true;
  }
  void emit(const std::string& key, const std::string& text, bool in_array) {
    if (!in_array) out_.emplace_back(key, text);
  }

  // key: the dotted path of this value ("" for the top level); in_array: no column for it.
  bool value(const std::string& key, int depth, bool in_array = false) {
    if (depth > kMaxDepth) return bad("nested too deeply");
    ws();
    const char c = peek();
    if (c == '{') return object(key, depth, in_array);
    if (c == '[') return array(depth);
    if (c == '"') {
      std::string s;
      if (!string(s)) return false;
      emit(key, s, in_array);
      return true;
    }
    if (c == 't' || c == 'f' || c == 'n') {
      const char* w = c == 't' ? "true" : c == 'f' ? "false" : "null";
      if (!literal(w)) return false;
      emit(key, c == 'n' ? "" : w, in_array);
      return true;
    }
    const size_t start = pos_;
    if (!number()) return false;
    emit(key, t_.substr(start, pos_ - start), in_array);
    return true;
  }

  bool object(const std::string& key, int depth, bool in_array) {
    ++pos_;  // {
    ws();
    if (peek() == '}') return ++pos_, true;
    for (;;) {
      ws();
      std::string k;
      if (peek() != '"' || !string(k)) return bad("expected a key");
      ws();
      if (peek() != ':') return bad("expected ':'");
      ++pos_;
      if (!value(key.empty() ? k : key + "." + k, depth + 1, in_array)) return false;
      ws();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == '}') return ++pos_, true;
      return bad("expected ',' or '}'");
    }
  }

  bool array(int depth) {
    ++pos_;  // [
    ws();
    if (peek() == ']') return ++pos_, true;
    for (;;) {
      if (!value("", depth + 1, true)) return false;
      ws();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == ']') return ++pos_, true;
      return bad("expected ',' or ']'");
    }
  }

  bool digits() {
    const size_t s = pos_;
    while (pos_ < t_.size() && t_[pos_] >= '0' && t_[pos_] <= '9') ++pos_;
    return pos_ > s;
  }
  // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
  bool number() {
    if (peek() == '-') ++pos_;
    if (peek() == '0') {
      ++pos_;
    } else if (!digits()) {
      return bad("invalid value");
    }
    if (peek() == '.') {
      ++pos_;
      if (!digits()) return bad("invalid number");
    }
    if (peek() == 'e' || peek() == 'E') {
      ++pos_;
      if (peek() == '+' || peek() == '-') ++pos_;
      if (!digits()) return bad("invalid number");
    }
    return true;
  }

  static void utf8(uint32_t cp, std::string& o) {
    if (cp < 0x80) {
      o += static_cast<char>(cp);
    } else if (cp < 0x800) {
      o += static_cast<char>(0xC0 | (cp >> 6));
      o += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      o += static_cast<char>(0xE0 | (cp >> 12));
      o += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      o += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      o += static_cast<char>(0xF0 | (cp >> 18));
      o += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      o += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      o += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }
  bool hex4(uint32_t& v) {
    if (pos_ + 4 > t_.size()) return bad("short \\u escape");
    v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = t_[pos_++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= static_cast<uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f') v |= static_cast<uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= static_cast<uint32_t>(c - 'A' + 10);
      else return bad("invalid \\u escape");
    }
    return true;
  }
  bool string(std::string& o) {
    ++pos_;  // "
    for (;;) {
      if (pos_ >= t_.size()) return bad("unterminated string");
      const unsigned char c = static_cast<unsigned char>(t_[pos_++]);
      if (c == '"') return true;
      if (c < 0x20) return bad("control character in a string");
      if (c != '\\') {
        o += static_cast<char>(c);
        continue;
      }
      if (pos_ >= t_.size()) return bad("unterminated string");
      const char e = t_[pos_++];
      switch (e) {
        case '"': o += '"'; break;
        case '\\': o += '\\'; break;
        case '/': o += '/'; break;
        case 'b': o += '\b'; break;
        case 'f': o += '\f'; break;
        case 'n': o += '\n'; break;
        case 'r': o += '\r'; break;
        case 't': o += '\t'; break;
        case 'u': {
          uint32_t cp = 0;
          if (!hex4(cp)) return false;
          if (cp >= 0xD800 && cp < 0xDC00) {  // a surrogate pair
            uint32_t lo = 0;
            if (t_.compare(pos_, 2, "\\u") != 0) return bad("unpaired surrogate");
            pos_ += 2;
            if (!hex4(lo) || lo < 0xDC00 || lo >= 0xE000) return bad("unpaired surrogate");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          } else if (cp >= 0xDC00 && cp < 0xE000) {
            return bad("unpaired surrogate");
          }
          utf8(cp, o);
          break;
        }
        default: return bad("invalid escape");
      }
    }
  }

  const std::string& t_;
  FlatFields& out_;
  size_t pos_ = 0;
  std::string error_;
};

}  // namespace

bool flatten_json_object(const std::string& text, FlatFields& out, std::string& error) {
  out.clear();
  Reader r(text, out);
  return r.object_document(error);
}

}  // namespace hifsim::sweep
