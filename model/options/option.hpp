// The model's option declarations: each option of a request type is one row -- its name, help,
// default and the one function that reads and checks the value into the request -- and both front
// ends walk the same rows: the `hifsim` command (sim/request_options.hpp declares them on its
// ArgParser and reads them back) and the Python package (python/src/hifsim_ext.cpp reads the
// keyword arguments with them). Adding an option is one field of the request and one row here;
// docs/python.md "Adding an option" shows it.
#pragma once
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "options/value.hpp"

namespace hifsim::opt {

template <class R>
struct Option {
  std::string name;                          // CLI "--name"; Python keyword name_with_underscores
  std::string metavar;                       // "" for a flag (given or not; Python True/False)
  std::string help;
  std::optional<std::string> def;            // applied when absent, by both front ends; none: unset
  std::function<void(R&, const Value&)> set; // reads the value into the request; throws on a bad one
  bool flag() const { return metavar.empty(); }
};

template <class R>
using Options = std::vector<Option<R>>;

// The rows of a sub-request (e.g. the quantizer options inside the GEMM options) as rows of R.
template <class R, class S>
void append(Options<R>& to, const Options<S>& from, S R::*member) {
  for (const Option<S>& o : from)
    to.push_back({o.name, o.metavar, o.help, o.def, [set = o.set, member](R& r, const Value& v) { set(r.*member, v); }});
}

// Applies every row to `r`: `given(row)` returns the user's value, or nullopt when absent (then
// the default, or false for a flag, or nothing). Values are named for messages by `s`.
template <class R, class Given>
void apply(const Options<R>& rows, R& r, const Spelling& s, Given given) {
  for (const Option<R>& o : rows) {
    std::optional<Value> v = given(o);
    if (!v && o.flag()) v = Value::of_bool(false);
    if (!v && o.def) v = Value::of_text(*o.def);
    if (!v) continue;
    v->named(s, o.name);
    o.set(r, *v);
  }
}

// A value that must be one of a few names: "'x' is not a, b or c" otherwise.
template <class T>
T one_of(const Value& v, std::initializer_list<std::pair<const char*, T>> choices) {
  const std::string s = v.text();
  std::string names;
  size_t i = 0;
  for (const auto& [name, x] : choices) {
    if (s == name) return x;
    names += std::string(i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + name;
    ++i;
  }
  v.fail("'" + s + "' is not " + names);
}

// The row named `name`, or nullptr.
template <class R>
const Option<R>* find(const Options<R>& rows, const std::string& name) {
  for (const Option<R>& o : rows)
    if (o.name == name) return &o;
  return nullptr;
}

}  // namespace hifsim::opt
