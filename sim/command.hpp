// Subcommands of the `hifsim` program. Each lives in its own sim/cmd_*.cpp and registers
// itself with HIFSIM_COMMAND, so main.cpp never changes when a command is added.
#pragma once
#include <string>
#include <vector>

namespace hifsim::cli {

struct Command {
  const char* name;
  const char* summary;  // one line for `hifsim --help`
  int (*run)(const std::vector<std::string>& args, const std::vector<std::string>& argv_all);
};

std::vector<Command>& commands();

struct Registrar {
  explicit Registrar(const Command& c) { commands().push_back(c); }
};

}  // namespace hifsim::cli

#define HIFSIM_CONCAT2(a, b) a##b
#define HIFSIM_CONCAT(a, b) HIFSIM_CONCAT2(a, b)
#define HIFSIM_COMMAND(name, summary, fn) \
  static ::hifsim::cli::Registrar HIFSIM_CONCAT(hifsim_cmd_, __LINE__)({name, summary, fn})
