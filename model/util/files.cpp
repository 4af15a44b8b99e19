#include "util/files.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <sstream>

#include "util/error.hpp"

namespace hifsim {

bool path_exists(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0;
}

void make_dirs(const std::string& d) {
  std::string cur;
  std::stringstream ss(d);
  std::string part;
  if (!d.empty() && d[0] == '/') cur = "/";
  while (std::getline(ss, part, '/')) {
    if (part.empty()) continue;
    cur += part + "/";
    if (mkdir(cur.c_str(), 0777) != 0 && errno != EEXIST) throw Error(d, "", "cannot create folder");
  }
}

}  // namespace hifsim
