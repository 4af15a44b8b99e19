#include "io/yaml_input.hpp"

#include <map>
#include <vector>

#include "io/input_file.hpp"
#include "util/checked.hpp"
#include "util/error.hpp"

namespace hifsim::io {

std::string yaml_line(const YAML::Node& n) {
  if (!n.IsDefined()) return "";
  const YAML::Mark m = n.Mark();
  return m.line >= 0 ? "line " + std::to_string(m.line + 1) : "";
}

YAML::Node load_yaml_text(const std::string& text, const std::string& where) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw Error(where, "line " + std::to_string(e.mark.line + 1) + ", column " + std::to_string(e.mark.column + 1),
                "not valid YAML: " + e.msg);
  }
  reject_duplicate_keys(root, where);
  return root;
}

YAML::Node load_yaml_file(const std::string& path) {
  return load_yaml_text(read_regular_file(path, kYamlMaxBytes, "hifsim's YAML inputs are small; see io/yaml_input.hpp"),
                        path);
}

void reject_duplicate_keys(const YAML::Node& root, const std::string& where) {
  struct Item {
    YAML::Node node;
    std::string path;
    int depth;
  };
  std::vector<Item> stack{{root, "", 0}};
  uint64_t seen = 1;  // nodes put on the stack so far: bounds time and memory
  while (!stack.empty()) {
    Item it = std::move(stack.back());
    stack.pop_back();
    if (it.depth > kYamlMaxDepth)  // the path of a cycle is endless: name where it starts
      throw Error(where, it.path.substr(0, 60) + "...",
                  "nested deeper than " + std::to_string(kYamlMaxDepth) + " levels (a cyclic alias?)");
    auto count = [&] {
      if (++seen > kYamlMaxNodes)
        throw Error(where, it.path.empty() ? "(top level)" : it.path,
                    "more than " + std::to_string(kYamlMaxNodes) + " nodes once aliases are expanded");
    };
    std::vector<Item> children;  // containers only, pushed in reverse so the document order is kept
    if (it.node.IsMap()) {
      std::map<std::string, std::string> first;  // key -> its line
      for (auto kv = it.node.begin(); kv != it.node.end(); ++kv) {
        const YAML::Node k = kv->first;  // copies: the iterator's pair is a temporary
        const YAML::Node v = kv->second;
        const std::string name = k.IsScalar() ? k.Scalar() : "(complex key)";
        const std::string path = it.path.empty() ? name : it.path + "." + name;
        if (k.IsScalar()) {
          const auto [pos, fresh] = first.emplace(name, yaml_line(k));
          if (!fresh)
            throw Error(where, path, "given twice (" + yaml_line(k) + "; first at " + pos->second + ")");
        }
        count();
        if (v.IsMap() || v.IsSequence()) children.push_back({v, path, it.depth + 1});
      }
    } else if (it.node.IsSequence()) {
      size_t i = 0;
      for (auto e = it.node.begin(); e != it.node.end(); ++e, ++i) {
        count();
        if (e->IsMap() || e->IsSequence()) children.push_back({*e, it.path + "[" + std::to_string(i) + "]", it.depth + 1});
      }
    }
    stack.insert(stack.end(), std::make_move_iterator(children.rbegin()), std::make_move_iterator(children.rend()));
  }
}

std::optional<int64_t> yaml_int64(const YAML::Node& n) {
  int64_t v = 0;
  if (!n.IsDefined() || !n.IsScalar() || n.Tag() == "!" || !parse_i64(n.Scalar(), v)) return std::nullopt;
  return v;
}

std::optional<uint64_t> yaml_uint64(const YAML::Node& n) {
  uint64_t v = 0;
  if (!n.IsDefined() || !n.IsScalar() || n.Tag() == "!" || !parse_u64(n.Scalar(), v)) return std::nullopt;
  return v;
}

}  // namespace hifsim::io
