// Loading hifsim's YAML inputs (unit configs, trace manifests, sweep files, cost tables) with the
// same rules everywhere:
// - the file must be a regular file of at most kYamlMaxBytes (io/input_file.hpp);
// - a key given twice in one mapping is an error at any depth. yaml-cpp keeps both pairs and
//   returns the first on lookup, so `M: 4096` followed later by `M: 1` would silently mean 4096;
// - the walk that checks this is bounded (kYamlMaxNodes, kYamlMaxDepth), because aliases let a
//   small file describe an exponentially large or even cyclic tree;
// - integers are parsed strictly (yaml_integer): decimal, plain (unquoted), within 64 bits --
//   never std::stoll's out_of_range ("internal error: stoll") or a silent saturation.
// Errors are hifsim::Error(file, field, reason) with the YAML line where it helps.
#pragma once
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
#include <string>

namespace hifsim::io {

// yaml-cpp 0.7 needs up to ~240 bytes of memory per byte of text (measured: a 1 MiB flow list of
// one-digit numbers peaks at 245 MB and takes 3.4 s; a block mapping ~60 bytes per byte). The
// largest committed YAML is 24 KB; 4 MiB leaves room for captured traces with long token lists
// and keeps the worst case near 1 GB.
inline constexpr uint64_t kYamlMaxBytes = 4u << 20;
inline constexpr uint64_t kYamlMaxNodes = 1000000;  // nodes visited, aliases counted each time
inline constexpr int kYamlMaxDepth = 256;

// Reads and parses `path`; syntax errors become Error(path, "line L, column C", reason).
YAML::Node load_yaml_file(const std::string& path);
// The same for text in memory; `where` names it in errors.
YAML::Node load_yaml_text(const std::string& text, const std::string& where);
// The one YAML parse every reader goes through: a file nested deeper than kYamlMaxDepth is
// reported as that (yaml-cpp's own recursion limit said "syntax error ... bad file"), a second
// document (after "---") is an error naming its line (yaml-cpp read the first silently), and a
// syntax error names line and column. No duplicate-key check (load_yaml_text adds it).
YAML::Node parse_yaml(const std::string& text, const std::string& where);

// Throws Error(where, "<path.to.key>", "given twice (line L; first at line F)") for the first
// duplicate key, and for trees beyond the node or depth bound.
void reject_duplicate_keys(const YAML::Node& root, const std::string& where);

// A plain (unquoted) decimal scalar within int64 / uint64; nullopt otherwise.
std::optional<int64_t> yaml_int64(const YAML::Node& n);
std::optional<uint64_t> yaml_uint64(const YAML::Node& n);

// "line L" of a node (1-based), "" when yaml-cpp has no position for it.
std::string yaml_line(const YAML::Node& n);

}  // namespace hifsim::io
