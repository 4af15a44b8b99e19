// hifsim: command-line entry point. Dispatches to the registered subcommands.
#include <algorithm>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "command.hpp"
#include "util/error.hpp"
#include "util/printable.hpp"

namespace hifsim::cli {
std::vector<Command>& commands() {
  static std::vector<Command> c;
  return c;
}
}  // namespace hifsim::cli

namespace {
void usage() {
  auto cmds = hifsim::cli::commands();
  std::sort(cmds.begin(), cmds.end(), [](const auto& a, const auto& b) { return std::string(a.name) < b.name; });
  std::cout << "usage: hifsim <command> [options]\n\n"
               "Bit-accurate simulator of HiF4 / HiF8 / MXFP4 / MXFP8 / NVFP4 / FP8 / BF16 matrix units.\n\n"
               "commands:\n";
  for (const auto& c : cmds) {
    std::string n = c.name;
    std::cout << "  " << n << std::string(n.size() < 12 ? 12 - n.size() : 1, ' ') << c.summary << "\n";
  }
  std::cout << "\nRun `hifsim <command> --help` for the options of a command.\n";
}
}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> all(argv, argv + argc);
  if (argc < 2 || all[1] == "--help" || all[1] == "-h" || all[1] == "help") {
    usage();
    return argc < 2 ? 2 : 0;
  }
  if (all[1] == "--version") {
    std::cout << "hifsim " << HIFSIM_VERSION << "\n";
    return 0;
  }
  for (const auto& c : hifsim::cli::commands()) {
    if (all[1] != c.name) continue;
    try {
      return c.run(std::vector<std::string>(all.begin() + 2, all.end()), all);
    } catch (const hifsim::Error& e) {
      std::cerr << "hifsim " << c.name << ": error: " << hifsim::one_printable_line(e.what()) << "\n";
      return 2;
    } catch (const std::exception& e) {
      std::cerr << "hifsim " << c.name << ": internal error: " << hifsim::one_printable_line(e.what()) << "\n";
      return 3;
    }
  }
  std::cerr << "hifsim: error: unknown command '" << hifsim::one_printable_line(all[1], 200) << "' (run `hifsim --help`)\n";
  return 2;
}
