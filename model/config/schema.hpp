// A small table-driven configuration loader (YAML via yaml-cpp) for hifsim's versioned config
// files. Every field has a dotted path (`array.rows`), a type, a default (or is required) and a
// range or a list of choices. The loader
//   - flattens the YAML mappings into dotted paths, remembering the line of every value,
//   - rejects unknown fields, wrong types, out-of-range values and missing required fields with
//     hifsim::Error(file, "field.path", reason) -- the reason names the line,
//   - accepts overrides `path=value` (command line `--set`, design sweeps) through the same
//     parser, so any field can be swept,
//   - keeps every value as canonical text, so a config can be written back (JSON, manifests).
// It knows nothing about matrix units: the unit schema lives in unit_config.cpp, and the cost
// model adds its own section by adding rows to that table.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace hifsim::cfg {

enum class FieldType { integer, number, boolean, string, choice };

struct FieldSpec {
  std::string path;                  // dotted path, e.g. "buffers.a.bytes"
  FieldType type = FieldType::integer;
  std::string def;                   // default as YAML text; ignored when required
  bool required = false;
  double min = 0, max = 0;           // integer / number range (inclusive); min > max: no range
  std::vector<std::string> choices;  // FieldType::choice
  std::string unit;                  // for docs ("bytes", "cycles", ...)
  std::string help;                  // one line for docs
};

// Renders a schema as a Markdown table (docs/tlm.md is generated from this).
std::string schema_markdown(const std::vector<FieldSpec>& schema);

class ConfigDoc {
 public:
  explicit ConfigDoc(const std::vector<FieldSpec>* schema) : schema_(schema) {}

  // Reads a YAML file / text. `where` names the source in error messages (the file path).
  void load_file(const std::string& path);
  void load_string(const std::string& yaml, const std::string& where);
  // One override "path=value" (value parsed as a YAML scalar). `source` names it in errors.
  void set_override(const std::string& assignment, const std::string& source = "--set");
  // Fills defaults and checks required fields. Call once after loading and overriding.
  void finalize();

  bool has(const std::string& path) const { return values_.count(path) != 0; }
  bool explicitly_set(const std::string& path) const { return explicit_.count(path) != 0; }
  int64_t get_int(const std::string& path) const;
  double get_number(const std::string& path) const;
  bool get_bool(const std::string& path) const;
  const std::string& get_string(const std::string& path) const;  // string and choice fields

  // Throws hifsim::Error(file, path, reason + " (line N)") for a value that fails a
  // cross-field check.
  [[noreturn]] void fail(const std::string& path, const std::string& reason) const;

  const std::string& where() const { return where_; }
  // Every field's canonical value, in schema order.
  std::vector<std::pair<std::string, std::string>> items() const;

 private:
  const FieldSpec* find(const std::string& path) const;
  bool is_section(const std::string& path) const;
  // Parses and range-checks `text` for field `f`; returns the canonical text.
  std::string check_value(const FieldSpec& f, const std::string& text, bool quoted, const std::string& src,
                          const std::string& loc) const;
  std::string location(const std::string& path) const;

  const std::vector<FieldSpec>* schema_;
  std::string where_ = "config";
  std::map<std::string, std::string> values_;
  std::map<std::string, std::string> lines_;  // path -> "line N" or "--set"
  std::map<std::string, bool> explicit_;
};

}  // namespace hifsim::cfg
