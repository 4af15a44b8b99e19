// What several commands need from the system: this executable's path and child processes (the
// Python plot and report scripts). Outputs are written through util/files.hpp.
#pragma once
#include <string>
#include <vector>

namespace hifsim::cli {

// /proc/self/exe ("hifsim" if unknown) and its folder ("." if unknown).
std::string self_exe();
std::string self_dir();
// Runs argv (no shell) with extra NAME=VALUE environment; throws Error(what, argv[0], ...) unless
// the child exits with status 0.
void run_child(const std::vector<std::string>& argv, const std::vector<std::string>& env, const std::string& what);

}  // namespace hifsim::cli
