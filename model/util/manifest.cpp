#include "util/manifest.hpp"

#include <array>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <future>
#include <iterator>

#include "util/content_hash.hpp"
#include "util/files.hpp"
#include "util/json.hpp"

#ifndef HIFSIM_SOURCE_DIR
#define HIFSIM_SOURCE_DIR "."
#endif
#ifndef HIFSIM_VERSION
#define HIFSIM_VERSION "0.0.0"
#endif
#ifndef HIFSIM_BUILD_TYPE
#define HIFSIM_BUILD_TYPE "unknown"
#endif

namespace hifsim {
namespace {
std::string run(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  std::array<char, 256> buf;
  while (fgets(buf.data(), buf.size(), p)) out += buf.data();
  pclose(p);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}
}  // namespace

std::string fnv1a64_hex(const std::string& bytes) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::string file_hash(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return "missing";
  std::string data((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  return fnv1a64_hex(data);
}

namespace {
std::string lookup_git_revision() {
  const std::string dir = HIFSIM_SOURCE_DIR;
  std::string sha = run("git -C '" + dir + "' rev-parse HEAD 2>/dev/null");
  if (sha.empty()) return "unknown";
  std::string dirty = run("git -C '" + dir + "' status --porcelain --untracked-files=no 2>/dev/null");
  return dirty.empty() ? sha : sha + "-dirty";
}
// One lookup per process; the first caller decides whether it runs now or in the background.
const std::shared_future<std::string>& revision(std::launch how) {
  static const std::shared_future<std::string> f = std::async(how, lookup_git_revision).share();
  return f;
}
}  // namespace

void start_git_revision_lookup() { revision(std::launch::async); }

std::string git_revision() { return revision(std::launch::deferred).get(); }

void Manifest::add_config(const std::string& path) { configs.emplace_back(path, file_content_hash(path)); }
void Manifest::add_input(const std::string& path) { inputs.emplace_back(path, file_content_hash(path)); }

std::string Manifest::json() const {
  JsonWriter w;
  w.begin_object();
  w.kv("tool", "hifsim").kv("version", HIFSIM_VERSION).kv("git_revision", git_revision());
  w.kv("command", command);
  w.key("argv").begin_array();
  for (const auto& a : argv) w.value(a);
  w.end_array();
  w.kv("seed", seed);
  std::time_t t = std::time(nullptr);
  char ts[32];
  std::strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  w.kv("utc_time", ts);
  auto pairs = [&](const char* name, const std::vector<std::pair<std::string, std::string>>& v) {
    w.key(name).begin_object();
    for (const auto& [k, val] : v) w.kv(k, val);
    w.end_object();
  };
  pairs("configs_xxh3_64", configs);
  pairs("inputs_xxh3_64", inputs);
  pairs("outputs", outputs);
  if (!output_hashes.empty()) pairs("outputs_xxh3_64", output_hashes);
  pairs("facts", extra);
  std::vector<std::pair<std::string, std::string>> tv = {
      {"compiler", std::string("g++ ") + __VERSION__},
      {"build_type", HIFSIM_BUILD_TYPE},
      {"cxx_standard", std::to_string(__cplusplus)},
  };
  tv.insert(tv.end(), tools.begin(), tools.end());
  pairs("tools", tv);
  w.end_object();
  return w.str() + "\n";
}

void Manifest::write(const std::string& path) const { write_file_atomic(path, json()); }

}  // namespace hifsim
