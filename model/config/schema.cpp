#include "config/schema.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>

#include "io/input_file.hpp"
#include "io/yaml_input.hpp"
#include "util/checked.hpp"
#include "util/error.hpp"

namespace hifsim::cfg {
namespace {

std::string fmt_num(double v) {
  if (std::floor(v) == v && std::fabs(v) < 9.2e18) return std::to_string(static_cast<long long>(v));
  std::ostringstream o;
  o.precision(17);
  o << v;
  return o.str();
}

const char* type_name(FieldType t) {
  switch (t) {
    case FieldType::integer: return "an integer";
    case FieldType::number: return "a number";
    case FieldType::boolean: return "a boolean (true or false)";
    case FieldType::string: return "a string";
    case FieldType::choice: return "one of the listed choices";
  }
  return "?";
}

// Levenshtein distance; `bound` without computing it when the lengths alone differ by `bound` or
// more (the distance is never below the length difference). Callers only look for names closer
// than `bound`, and a long unknown name (a 1 MiB key) then costs nothing against each known
// field instead of len(a) x len(b) steps (found by fuzz_unit_config: half its time was here).
size_t edit_distance(const std::string& a, const std::string& b, size_t bound) {
  if ((a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()) >= bound) return bound;
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string join_choices(const std::vector<std::string>& c) {
  std::string s;
  for (const auto& x : c) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// Integer with an optional binary size suffix (KiB, MiB, GiB) for fields measured in bytes.
// Checked: a value (or value x suffix) beyond 64 bits is refused, never saturated or wrapped.
enum class IntParse { ok, not_integer, too_large };
IntParse parse_integer(const std::string& t, bool allow_suffix, long double& out) {
  std::string s = t;
  int64_t mult = 1;
  if (allow_suffix) {
    static const std::pair<const char*, int64_t> suf[] = {{"KiB", int64_t{1} << 10}, {"MiB", int64_t{1} << 20}, {"GiB", int64_t{1} << 30}};
    for (const auto& [name, m] : suf) {
      const std::string n = name;
      if (s.size() > n.size() && s.compare(s.size() - n.size(), n.size(), n) == 0) {
        s = s.substr(0, s.size() - n.size());
        mult = m;
        break;
      }
    }
  }
  int64_t v = 0;
  if (!parse_i64(s, v)) {
    const size_t i = !s.empty() && (s[0] == '-' || s[0] == '+') ? 1 : 0;
    return s.size() > i && s.find_first_not_of("0123456789", i) == std::string::npos ? IntParse::too_large : IntParse::not_integer;
  }
  if (__builtin_mul_overflow(v, mult, &v)) return IntParse::too_large;
  out = static_cast<long double>(v);
  return IntParse::ok;
}

}  // namespace

std::string schema_markdown(const std::vector<FieldSpec>& schema) {
  std::ostringstream o;
  o << "| field | type | default | range / choices | unit | meaning |\n|---|---|---|---|---|---|\n";
  for (const auto& f : schema) {
    std::string type;
    switch (f.type) {
      case FieldType::integer: type = "int"; break;
      case FieldType::number: type = "number"; break;
      case FieldType::boolean: type = "bool"; break;
      case FieldType::string: type = "string"; break;
      case FieldType::choice: type = "choice"; break;
    }
    std::string range;
    if (f.type == FieldType::choice) range = join_choices(f.choices);
    else if ((f.type == FieldType::integer || f.type == FieldType::number) && f.min <= f.max)
      range = "[" + fmt_num(f.min) + ", " + fmt_num(f.max) + "]";
    std::string help = f.help;
    for (auto& c : help)
      if (c == '|') c = '/';
    for (auto& c : range)
      if (c == '|') c = '/';
    o << "| `" << f.path << "` | " << type << " | " << (f.required ? "**required**" : "`" + f.def + "`") << " | "
      << range << " | " << f.unit << " | " << help << " |\n";
  }
  return o.str();
}

const FieldSpec* ConfigDoc::find(const std::string& path) const {
  for (const auto& f : *schema_)
    if (f.path == path) return &f;
  return nullptr;
}

bool ConfigDoc::is_section(const std::string& path) const {
  const std::string pre = path + ".";
  for (const auto& f : *schema_)
    if (f.path.compare(0, pre.size(), pre) == 0) return true;
  return false;
}

std::string ConfigDoc::location(const std::string& path) const {
  auto it = lines_.find(path);
  return it == lines_.end() ? std::string() : " (" + it->second + ")";
}

void ConfigDoc::fail(const std::string& path, const std::string& reason) const {
  throw Error(where_, path, reason + location(path));
}

std::string ConfigDoc::check_value(const FieldSpec& f, const std::string& text, bool quoted, const std::string& src,
                                   const std::string& loc) const {
  auto bad = [&](const std::string& why) -> std::string { throw Error(src, f.path, why + loc); };
  switch (f.type) {
    case FieldType::integer: {
      long double v = 0;
      const IntParse r = quoted ? IntParse::not_integer : parse_integer(text, f.unit == "bytes", v);
      if (r == IntParse::too_large) bad("'" + text + "' does not fit in 64 bits");
      if (r != IntParse::ok)
        bad("expected " + std::string(type_name(f.type)) + (f.unit == "bytes" ? " (optionally with KiB/MiB/GiB)" : "") +
            ", got '" + text + "'");
      if (f.min <= f.max && (v < f.min || v > f.max))
        bad("must be in [" + fmt_num(f.min) + ", " + fmt_num(f.max) + "], got " + text);
      return std::to_string(static_cast<long long>(v));
    }
    case FieldType::number: {
      char* end = nullptr;
      errno = 0;
      const double v = std::strtod(text.c_str(), &end);
      if (quoted || text.empty() || *end != '\0' || errno != 0 || !std::isfinite(v))
        bad("expected a finite number, got '" + text + "'");
      if (f.min <= f.max && (v < f.min || v > f.max))
        bad("must be in [" + fmt_num(f.min) + ", " + fmt_num(f.max) + "], got " + text);
      return fmt_num(v);
    }
    case FieldType::boolean:
      if (quoted || (text != "true" && text != "false")) bad("expected true or false, got '" + text + "'");
      return text;
    case FieldType::string:
      return text;
    case FieldType::choice:
      if (std::find(f.choices.begin(), f.choices.end(), text) == f.choices.end())
        bad("'" + text + "' is not one of: " + join_choices(f.choices));
      return text;
  }
  return text;
}

void ConfigDoc::load_file(const std::string& path) {
  load_string(io::read_regular_file(path, io::kYamlMaxBytes, "a config file is never that large"), path);
}

void ConfigDoc::load_string(const std::string& yaml, const std::string& where) {
  where_ = where;
  const YAML::Node root = io::parse_yaml(yaml, where);
  if (!root.IsMap()) throw Error(where, "", "the top level must be a mapping of sections");
  // Depth-first walk of the mappings.
  std::vector<std::pair<std::string, YAML::Node>> stack{{"", root}};
  while (!stack.empty()) {
    auto [prefix, node] = stack.back();
    stack.pop_back();
    std::set<std::string> seen;
    for (auto it = node.begin(); it != node.end(); ++it) {
      // Copies: the iterator's key/value pair is a temporary.
      const YAML::Node knode = it->first;
      const YAML::Node v = it->second;
      const std::string line = "line " + std::to_string(knode.Mark().line + 1);
      if (!knode.IsScalar()) throw Error(where, prefix.empty() ? "(top level)" : prefix, "keys must be plain names (" + line + ")");
      const std::string key = knode.Scalar();
      const std::string path = prefix.empty() ? key : prefix + "." + key;
      if (!seen.insert(key).second) throw Error(where, path, "given twice (" + line + ")");
      if (const FieldSpec* f = find(path)) {
        if (v.IsNull() || !v.IsDefined()) throw Error(where, path, "has no value (" + line + ")");
        if (!v.IsScalar())
          throw Error(where, path, std::string("expected ") + type_name(f->type) + ", got a " +
                                       (v.IsMap() ? "mapping" : "list") + " (" + line + ")");
        const bool quoted = v.Tag() == "!";
        values_[path] = check_value(*f, v.Scalar(), quoted, where, " (" + line + ")");
        lines_[path] = line;
        explicit_[path] = true;
      } else if (is_section(path)) {
        if (!v.IsMap()) throw Error(where, path, "expected a mapping (a section with fields) (" + line + ")");
        stack.emplace_back(path, v);
      } else {
        // Unknown: suggest the closest known name at the same level.
        std::string best;
        size_t bestd = 4;
        std::set<std::string> siblings;
        const std::string pre = prefix.empty() ? "" : prefix + ".";
        for (const auto& s : *schema_) {
          if (s.path.compare(0, pre.size(), pre) != 0) continue;
          const std::string rest = s.path.substr(pre.size());
          const std::string name = rest.substr(0, rest.find('.'));
          siblings.insert(name);
          const size_t d = edit_distance(name, key, bestd);
          if (d < bestd) {
            bestd = d;
            best = name;
          }
        }
        std::string reason = "unknown field (" + line + ")";
        if (!best.empty()) reason += "; did you mean '" + (pre + best) + "'?";
        std::string allowed;
        for (const auto& s : siblings) allowed += (allowed.empty() ? "" : ", ") + s;
        if (!allowed.empty()) reason += " Known fields here: " + allowed;
        throw Error(where, path, reason);
      }
    }
  }
}

void ConfigDoc::set_override(const std::string& assignment, const std::string& source) {
  const size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw Error(source, assignment, "expected field.path=value, e.g. array.rows=32");
  const std::string path = assignment.substr(0, eq);
  std::string text = assignment.substr(eq + 1);
  const FieldSpec* f = find(path);
  if (!f) {
    std::string best;
    size_t bestd = 4;
    for (const auto& s : *schema_) {
      const size_t d = edit_distance(s.path, path, bestd);
      if (d < bestd) {
        bestd = d;
        best = s.path;
      }
    }
    throw Error(source, path, std::string("unknown field") + (best.empty() ? "" : "; did you mean '" + best + "'?"));
  }
  values_[path] = check_value(*f, text, false, source, "");
  lines_[path] = source;
  explicit_[path] = true;
}

void ConfigDoc::finalize() {
  for (const auto& f : *schema_) {
    if (values_.count(f.path)) continue;
    if (f.required) throw Error(where_, f.path, "missing (required field: " + f.help + ")");
    values_[f.path] = check_value(f, f.def, false, "schema default", "");
  }
}

int64_t ConfigDoc::get_int(const std::string& path) const {
  return static_cast<int64_t>(std::strtoll(get_string(path).c_str(), nullptr, 10));
}
double ConfigDoc::get_number(const std::string& path) const { return std::strtod(get_string(path).c_str(), nullptr); }
bool ConfigDoc::get_bool(const std::string& path) const { return get_string(path) == "true"; }
const std::string& ConfigDoc::get_string(const std::string& path) const {
  auto it = values_.find(path);
  if (it == values_.end()) throw Error(where_, path, "internal: field not in the schema or not finalized");
  return it->second;
}

std::vector<std::pair<std::string, std::string>> ConfigDoc::items() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& f : *schema_) {
    auto it = values_.find(f.path);
    if (it != values_.end()) out.emplace_back(f.path, it->second);
  }
  return out;
}

}  // namespace hifsim::cfg
