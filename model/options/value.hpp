// One option value as the user gave it -- text from the command line, or a typed value from a
// Python keyword argument -- with the typed readers every option's check goes through. The same
// reader gives the same verdict and the same reason for both front ends; only the field is
// spelled each front end's way ("command line: --sample: ..." / "argument sample: ...").
// An integer option refuses 64.9 (never truncates), a flag refuses "yes", a list option refuses
// a scalar where it needs three values: the reason always names the value.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace hifsim::opt {

// How a front end names an option in messages: the CLI "command line: --cost-sample: reason",
// Python "argument cost_sample: reason" (dashes become underscores).
struct Spelling {
  std::string where = "command line";
  bool python = false;
  std::string field(const std::string& option) const;  // "--name" or "argument name" (dash -> underscore)
  std::string fields(const std::string& a, const std::string& b) const {  // "--a/--b" or "argument a/b"
    return field(a) + "/" + (python ? field(b).substr(9) : field(b));
  }
  static Spelling cli() { return {}; }
  static Spelling keyword() { return {"", true}; }
};

class Value {
 public:
  enum class Kind { text, boolean, integer, number, list };
  static Value of_text(std::string s) { Value v; v.kind_ = Kind::text, v.text_ = std::move(s); return v; }
  static Value of_bool(bool b) { Value v; v.kind_ = Kind::boolean, v.b_ = b; return v; }
  static Value of_int(long long i) { Value v; v.kind_ = Kind::integer, v.i_ = i; return v; }
  // An integer beyond 64 bits (Python int): kept as its decimal text, refused by every reader.
  static Value of_big_int(std::string digits) { Value v; v.kind_ = Kind::integer, v.big_ = true, v.text_ = std::move(digits); return v; }
  static Value of_number(double d) { Value v; v.kind_ = Kind::number, v.d_ = d; return v; }
  static Value of_list(std::vector<Value> items) { Value v; v.kind_ = Kind::list, v.items_ = std::move(items); return v; }

  // Where errors point: set by the front end before the option's reader runs.
  Value& named(const Spelling& s, const std::string& option) { spelling_ = s, option_ = option; return *this; }

  Kind kind() const { return kind_; }
  // Readers: each throws hifsim::Error(where, field, reason) naming the value.
  long long integer(long long lo, long long hi) const;   // text "12" or an integer; never a fraction
  uint64_t u64() const;                                  // decimal or 0x hex text, or an integer >= 0
  double number() const;                                 // finite
  std::string text() const;                              // text, or an integer as its digits
  bool flag() const;                                     // a flag given on the command line, or True/False
  // A list: Python sequences item by item; CLI text split at commas. Items keep the name.
  std::vector<Value> list() const;
  std::string shown() const;
  const std::string& where() const { return spelling_.where; }
  std::string field() const { return spelling_.field(option_); }                             // the value as the user wrote it (messages)
  std::string field_of(const std::string& option) const { return spelling_.field(option); }  // another option, spelled alike
  [[noreturn]] void fail(const std::string& reason) const;

 private:
  Kind kind_ = Kind::text;
  std::string text_;
  bool b_ = false, big_ = false;
  long long i_ = 0;
  double d_ = 0;
  std::vector<Value> items_;
  Spelling spelling_;
  std::string option_;
};

}  // namespace hifsim::opt
