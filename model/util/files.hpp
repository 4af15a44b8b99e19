// File-system helpers shared by the model (sweeps) and the CLI.
#pragma once
#include <string>

namespace hifsim {

bool path_exists(const std::string& p);
// Every missing folder of the path, like mkdir -p; throws Error(d, "", "cannot create folder").
void make_dirs(const std::string& d);

}  // namespace hifsim
