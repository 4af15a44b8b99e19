// Run manifests: every hifsim run records what produced its output -- the git revision of
// the source tree, the exact command line, the seed, configs (path and content hash) and
// the versions of the tools involved -- so the output can be reproduced bit for bit.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace hifsim {

struct Manifest {
  std::string command;                   // e.g. "quantize"
  std::vector<std::string> argv;         // the full command line
  uint64_t seed = 0;
  std::vector<std::pair<std::string, std::string>> configs;  // path -> XXH3-64 content hash (util/content_hash.hpp)
  std::vector<std::pair<std::string, std::string>> inputs;   // path -> XXH3-64 content hash (util/content_hash.hpp)
  std::vector<std::pair<std::string, std::string>> outputs;  // path -> description
  std::vector<std::pair<std::string, std::string>> output_hashes;  // path -> XXH3-64 (OutputSet)
  std::vector<std::pair<std::string, std::string>> extra;    // free key/value facts
  std::vector<std::pair<std::string, std::string>> tools;    // tool -> version (added to the defaults)

  void add_config(const std::string& path);
  void add_input(const std::string& path);
  std::string json() const;
  void write(const std::string& path) const;  // atomic (util/files.hpp write_file_atomic)
};

// Source revision "<sha>[-dirty]" (or "unknown" outside a git checkout), looked up once per
// process. `git status` costs tens of milliseconds (a 2048^3 GEMM takes about 130), so a command
// that will write a manifest starts the lookup in the background before its work
// (OutputSet's constructor does), and git_revision() waits for it.
void start_git_revision_lookup();
std::string git_revision();
// 64-bit FNV-1a of a file's bytes, as 16 hex digits ("missing" if unreadable): the sweep's
// point ids and result checksums (small, and pinned); manifests use util/content_hash.hpp.
std::string file_hash(const std::string& path);
std::string fnv1a64_hex(const std::string& bytes);

}  // namespace hifsim
