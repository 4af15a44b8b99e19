// A small declarative option parser: every option is declared with its help text, so
// `--help` is always complete and unknown options are always rejected.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hifsim::cli {

class ArgParser {
 public:
  ArgParser(std::string usage, std::string description);
  // --name VALUE (value option). `def` is shown in --help and returned by get() when absent.
  ArgParser& option(const std::string& name, const std::string& metavar, const std::string& help,
                    std::optional<std::string> def = std::nullopt, bool required = false);
  // --name (boolean flag)
  ArgParser& flag(const std::string& name, const std::string& help);
  // Free text appended to --help (examples, notes).
  ArgParser& epilog(const std::string& text);

  // Returns false when --help was printed (the caller returns 0). Throws hifsim::Error on misuse.
  bool parse(const std::vector<std::string>& args);

  bool has(const std::string& name) const;  // given on the command line (or has a default)
  std::string get(const std::string& name) const;
  bool is_set(const std::string& name) const;  // flags
  // Typed getters; errors name the option and the reason.
  long long get_int(const std::string& name, long long lo, long long hi) const;
  unsigned long long get_u64(const std::string& name) const;
  double get_double(const std::string& name) const;
  std::string help() const;

 private:
  struct Opt {
    std::string name, metavar, help;
    std::optional<std::string> def;
    bool required = false, is_flag = false;
  };
  const Opt& find(const std::string& name) const;
  std::string usage_, description_, epilog_;
  std::vector<Opt> opts_;
  std::map<std::string, std::string> values_;
  std::map<std::string, bool> flags_;
};

}  // namespace hifsim::cli
