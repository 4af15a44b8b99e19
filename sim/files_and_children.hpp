// What several commands need from the system: output folders, 2-D .npy operands, this
// executable's path, and child processes (the Python plot and report scripts).
#pragma once
#include <string>
#include <vector>

#include "io/npy.hpp"

namespace hifsim::cli {

// One folder (the parent must exist); an existing folder is fine.
void make_dir(const std::string& d);
// A float32 .npy that must be 2-D; `what` names the operand in the error.
io::NpyArray read_matrix(const std::string& path, const char* what);
// /proc/self/exe ("hifsim" if unknown) and its folder ("." if unknown).
std::string self_exe();
std::string self_dir();
// Runs argv (no shell) with extra NAME=VALUE environment; throws Error(what, argv[0], ...) unless
// the child exits with status 0.
void run_child(const std::vector<std::string>& argv, const std::vector<std::string>& env, const std::string& what);

}  // namespace hifsim::cli
