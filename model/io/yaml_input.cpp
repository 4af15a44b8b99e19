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

namespace {
// The deepest nesting of the text, counted without parsing: flow brackets outside quotes and
// comments, plus block indentation levels. Throws naming the line where kYamlMaxDepth is passed.
void check_nesting(const std::string& text, const std::string& where) {
  std::vector<size_t> indents;  // the open block levels' indentations
  int flow = 0, line = 1;
  size_t col = 0, indent = 0;
  bool in_line_start = true, comment = false;
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line, col = 0, indent = 0, in_line_start = true, comment = false;
      if (quote == '\'') quote = 0;  // single-quoted scalars are kept to one line here: enough for a bound
      continue;
    }
    ++col;
    if (in_line_start) {
      if (c == ' ') {
        ++indent;
        continue;
      }
      in_line_start = false;
      if (c != '#' && flow == 0) {  // a content line of block style: its level
        while (!indents.empty() && indents.back() > indent) indents.pop_back();
        if (indents.empty() || indents.back() < indent) indents.push_back(indent);
      }
    }
    if (comment) continue;
    if (quote) {
      if (c == quote && !(quote == '"' && i > 0 && text[i - 1] == '\\')) quote = 0;
      continue;
    }
    if (c == '#' && (i == 0 || text[i - 1] == ' ' || text[i - 1] == '\t')) comment = true;
    else if (c == '"' || c == '\'') quote = c;
    else if (c == '[' || c == '{') ++flow;
    else if ((c == ']' || c == '}') && flow > 0) --flow;
    if (flow + static_cast<int>(indents.size()) > kYamlMaxDepth)
      throw Error(where, "line " + std::to_string(line) + ", column " + std::to_string(col),
                  "nested deeper than " + std::to_string(kYamlMaxDepth) + " levels (hifsim's limit for YAML inputs)");
  }
}

// The file's documents, each as its own text. yaml-cpp 0.7's LoadAll never returns on some
// malformed input (a fuzz_sweep finding) while Load of one document does, so the documents are
// split at their markers ("---" or "..." starting a line) and loaded one by one. Each text starts
// with as many empty lines as precede its document, so every mark is a line of the whole file.
std::vector<std::string> split_documents(const std::string& text) {
  auto marker = [](const std::string& l, const char* m) {
    return l.compare(0, 3, m) == 0 && (l.size() == 3 || l[3] == ' ' || l[3] == '\t' || l[3] == '\r' || l[3] == '\n');
  };
  std::vector<std::string> docs(1);
  size_t line = 0;
  for (size_t pos = 0; pos < text.size(); ++line) {
    const size_t nl = text.find('\n', pos);
    const size_t next = nl == std::string::npos ? text.size() : nl + 1;
    const std::string l = text.substr(pos, next - pos);
    pos = next;
    if (marker(l, "---") && docs.back().size() > line) docs.emplace_back(line, '\n');
    if (docs.back().empty()) docs.back().assign(line, '\n');
    docs.back() += l;
    if (marker(l, "...")) docs.emplace_back();
  }
  return docs;
}
}  // namespace

YAML::Node parse_yaml(const std::string& text, const std::string& where) {
  check_nesting(text, where);
  std::vector<YAML::Node> real;  // the documents that hold something
  for (const std::string& d : split_documents(text)) {
    YAML::Node n;
    try {
      n = YAML::Load(d);
    } catch (const YAML::Exception& e) {
      throw Error(where, "line " + std::to_string(e.mark.line + 1) + ", column " + std::to_string(e.mark.column + 1),
                  "not valid YAML: " + e.msg);
    }
    if (!n.IsNull()) real.push_back(n);
  }
  if (real.size() > 1) {
    const std::string at = yaml_line(real[1]);
    throw Error(where, at.empty() ? "---" : at,
                "a second YAML document (after '---'): the file holds " + std::to_string(real.size()) +
                    " documents and hifsim reads exactly one (remove the separator and what follows, or split the file)");
  }
  return real.empty() ? YAML::Node() : real.front();
}

YAML::Node load_yaml_text(const std::string& text, const std::string& where) {
  YAML::Node root = parse_yaml(text, where);
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
