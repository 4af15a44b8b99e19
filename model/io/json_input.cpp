#include "io/json_input.hpp"

#include <set>
#include <vector>

#include "util/error.hpp"

namespace hifsim::io {
namespace {

// A first, DOM-less pass over the text: nlohmann's SAX interface sees every key, so a duplicate
// or an over-deep value is found before the DOM (which would keep only the last duplicate) is
// built.
class StrictChecker : public nlohmann::json_sax<nlohmann::json> {
 public:
  explicit StrictChecker(int max_depth) : max_depth_(max_depth) {}
  std::string field, reason;  // set when the pass fails

  bool null() override { return element(); }
  bool boolean(bool) override { return element(); }
  bool number_integer(number_integer_t) override { return element(); }
  bool number_unsigned(number_unsigned_t) override { return element(); }
  bool number_float(number_float_t, const string_t&) override { return element(); }
  bool string(string_t&) override { return element(); }
  bool binary(binary_t&) override { return element(); }
  bool start_object(std::size_t) override { return open(true); }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(false); }
  bool end_array() override { return close(); }
  bool key(string_t& k) override {
    Level& l = levels_.back();
    l.last_key = k;
    if (!l.keys.insert(k).second) return fail(path(), "key given twice");
    return true;
  }
  bool parse_error(std::size_t pos, const std::string&, const nlohmann::detail::exception& e) override {
    // nlohmann's message repeats "[json.exception.parse_error.101] parse error at ..."; keep its reason.
    std::string m = e.what();
    const size_t c = m.find(": ");
    return fail("byte " + std::to_string(pos), "not valid JSON: " + (c == std::string::npos ? m : m.substr(c + 2)));
  }

 private:
  struct Level {
    bool object;
    std::set<std::string> keys;
    std::string last_key;
    size_t index = 0;
  };
  bool fail(const std::string& f, const std::string& r) {
    field = f;
    reason = r;
    return false;
  }
  // Counts the elements of the enclosing array, for the index in error paths.
  bool element() {
    if (!levels_.empty() && !levels_.back().object) ++levels_.back().index;
    return true;
  }
  bool open(bool object) {
    element();
    if (static_cast<int>(levels_.size()) >= max_depth_)
      return fail(path(), "nested deeper than " + std::to_string(max_depth_) + " levels");
    levels_.push_back({object, {}, {}, 0});
    return true;
  }
  bool close() {
    levels_.pop_back();
    return true;
  }
  std::string path() const {
    std::string p;
    for (const Level& l : levels_) {
      if (l.object && !l.last_key.empty()) p += (p.empty() ? "" : ".") + l.last_key;
      if (!l.object) p += "[" + std::to_string(l.index ? l.index - 1 : 0) + "]";
    }
    return p.empty() ? "(top level)" : p;
  }

  int max_depth_;
  std::vector<Level> levels_;
};

}  // namespace

nlohmann::json parse_json_strict(const std::string& text, const std::string& where, int max_depth) {
  StrictChecker check(max_depth);
  if (!nlohmann::json::sax_parse(text, &check)) throw Error(where, check.field, check.reason);
  return nlohmann::json::parse(text);  // cannot fail: the same text passed the same grammar above
}

}  // namespace hifsim::io
