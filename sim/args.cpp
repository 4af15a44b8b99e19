#include "args.hpp"

#include <cerrno>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "options/value.hpp"
#include "util/checked.hpp"
#include "util/error.hpp"

namespace hifsim::cli {

ArgParser::ArgParser(std::string usage, std::string description)
    : usage_(std::move(usage)), description_(std::move(description)) {
  flag("help", "show this help and exit");
}

ArgParser& ArgParser::option(const std::string& name, const std::string& metavar, const std::string& help,
                             std::optional<std::string> def, bool required) {
  opts_.push_back({name, metavar, help, std::move(def), required, false});
  return *this;
}

ArgParser& ArgParser::flag(const std::string& name, const std::string& help) {
  opts_.push_back({name, "", help, std::nullopt, false, true});
  return *this;
}

ArgParser& ArgParser::epilog(const std::string& text) {
  epilog_ = text;
  return *this;
}

const ArgParser::Opt& ArgParser::find(const std::string& name) const {
  for (const auto& o : opts_)
    if (o.name == name) return o;
  throw Error("command line", "--" + name, "unknown option (see --help)");
}

bool ArgParser::parse(const std::vector<std::string>& args) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) != 0) throw Error("command line", a, "unexpected argument (options start with --; see --help)");
    std::string name = a.substr(2), val;
    bool has_val = false;
    if (size_t eq = name.find('='); eq != std::string::npos) {
      val = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_val = true;
    }
    const Opt& o = find(name);
    if (o.is_flag) {
      if (has_val) throw Error("command line", "--" + name, "is a flag and takes no value");
      flags_[name] = true;
      if (name == "help") {
        std::cout << help();
        return false;
      }
      continue;
    }
    if (!has_val) {
      if (i + 1 >= args.size()) throw Error("command line", "--" + name, "needs a value (" + o.metavar + ")");
      val = args[++i];
    }
    if (values_.count(name)) throw Error("command line", "--" + name, "given more than once");
    values_[name] = val;
  }
  for (const auto& o : opts_)
    if (o.required && !values_.count(o.name))
      throw Error("command line", "--" + o.name, "is required (see --help)");
  return true;
}

bool ArgParser::has(const std::string& name) const {
  const Opt& o = find(name);
  return values_.count(name) || o.def.has_value();
}

std::string ArgParser::get(const std::string& name) const {
  const Opt& o = find(name);
  auto it = values_.find(name);
  if (it != values_.end()) return it->second;
  if (o.def) return *o.def;
  throw Error("command line", "--" + name, "is required (see --help)");
}

bool ArgParser::is_set(const std::string& name) const {
  find(name);
  auto it = flags_.find(name);
  return it != flags_.end() && it->second;
}

// The model's option readers (model/options/value.hpp): the same checks and messages for
// options declared here and for the model's option rows.
long long ArgParser::get_int(const std::string& name, long long lo, long long hi) const {
  return opt::Value::of_text(get(name)).named(opt::Spelling::cli(), name).integer(lo, hi);
}

unsigned long long ArgParser::get_u64(const std::string& name) const {
  return opt::Value::of_text(get(name)).named(opt::Spelling::cli(), name).u64();
}

double ArgParser::get_double(const std::string& name) const {
  const std::string v = get(name);
  char* end = nullptr;
  double x = std::strtod(v.c_str(), &end);
  if (v.empty() || *end != '\0') throw Error("command line", "--" + name, "'" + v + "' is not a number");
  return x;
}

std::string ArgParser::help() const {
  std::ostringstream s;
  s << "usage: " << usage_ << "\n\n" << description_ << "\n\noptions:\n";
  for (const auto& o : opts_) {
    std::string left = "  --" + o.name + (o.metavar.empty() ? "" : " " + o.metavar);
    s << left;
    if (left.size() < 28) s << std::string(28 - left.size(), ' ');
    else s << "\n" << std::string(28, ' ');
    s << o.help;
    if (o.required) s << " (required)";
    if (o.def && !o.def->empty()) s << " [default: " << *o.def << "]";
    s << "\n";
  }
  if (!epilog_.empty()) s << "\n" << epilog_ << "\n";
  return s.str();
}

}  // namespace hifsim::cli
