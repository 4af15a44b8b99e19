#include "util/install.hpp"

#include <dlfcn.h>
#include <sys/stat.h>

#include <cstdlib>

#include "util/error.hpp"

#ifndef HIFSIM_SOURCE_DIR
#define HIFSIM_SOURCE_DIR ""
#endif
#ifndef HIFSIM_CONFIGURED_PYTHON
#define HIFSIM_CONFIGURED_PYTHON ""
#endif

namespace hifsim {
namespace {

bool is_dir(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}
bool is_file(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// The folder of the executable or shared object this function was linked into.
std::string anchor_dir() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&anchor_dir), &info) == 0 || !info.dli_fname) return ".";
  char* real = ::realpath(info.dli_fname, nullptr);
  std::string f = real ? real : info.dli_fname;
  std::free(real);
  const size_t slash = f.rfind('/');
  return slash == std::string::npos ? "." : f.substr(0, slash);
}

bool has_data(const std::string& d) { return !d.empty() && is_dir(d + "/configs/units"); }

// "P/bin/../share/hifsim" as "P/share/hifsim" (paths end up in manifests and messages).
std::string canonical(const std::string& d) {
  char* real = ::realpath(d.c_str(), nullptr);
  std::string r = real ? real : d;
  std::free(real);
  return r;
}

}  // namespace

std::string data_dir() {
  if (const char* e = std::getenv("HIFSIM_DATA_DIR"); e && *e) {
    if (!has_data(e)) throw Error("$HIFSIM_DATA_DIR", e, "holds no configs/units folder");
    return e;
  }
  const std::string a = anchor_dir();
  for (const std::string& d : {a + "/../share/hifsim", a + "/../data", a + "/data", std::string(HIFSIM_SOURCE_DIR)})
    if (has_data(d)) return canonical(d);
  throw Error("hifsim data", a, "no configs/units next to the program (installation incomplete; set HIFSIM_DATA_DIR)");
}

std::string locate_data(const std::string& p) {
  struct stat st {};
  if (p.empty() || p[0] == '/' || ::stat(p.c_str(), &st) == 0) return p;
  std::string d;
  try {
    d = data_dir();
  } catch (const Error&) {
    return p;
  }
  const std::string q = d + "/" + p;
  return ::stat(q.c_str(), &st) == 0 ? q : p;
}

std::string python_root() {
  const std::string a = anchor_dir();
  for (const std::string& d : {a + "/../python", a + "/../lib/hifsim/python", a + "/../.."})
    if (is_file(d + "/hifsim/__init__.py")) return canonical(d);
  return "";
}

std::string python_exe() {
  if (const char* e = std::getenv("HIFSIM_PYTHON"); e && *e) return e;
  const std::string configured = HIFSIM_CONFIGURED_PYTHON;
  if (!configured.empty() && is_file(configured)) return configured;
  return "python3";
}

PythonCommand python_module(const std::string& module, const std::vector<std::string>& args, const std::string& what) {
  const std::string root = python_root();
  if (root.empty())
    throw Error(what, "python", "this hifsim has no Python package next to it (build target hifsim_python, or pip install .)");
  PythonCommand c;
  c.argv = {python_exe(), "-m", "hifsim." + module};
  c.argv.insert(c.argv.end(), args.begin(), args.end());
  const char* old = std::getenv("PYTHONPATH");
  c.env.push_back("PYTHONPATH=" + root + (old && *old ? ":" + std::string(old) : std::string()));
  return c;
}

}  // namespace hifsim
