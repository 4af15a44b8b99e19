// Opening an input file safely: every reader of hifsim (npy, safetensors, YAML configs, trace
// manifests, sweep files, cost tables) goes through here.
//
// - Regular files only. A directory, FIFO, socket or device (/dev/zero, /dev/stdin, a tty) is
//   rejected with the reason before a single byte is read: /dev/zero would read forever and a
//   FIFO would block. The file is opened O_NONBLOCK, so even a FIFO swapped in after the check
//   cannot block, and the open descriptor is checked again with fstat.
// - Sizes are taken from the file, so a reader can check a declared size against them before it
//   allocates; reads are positional and every short read is an error (a file that shrank).
// - resolve_inside(): a path named by a file (a trace tensor) must stay inside the folder of
//   that file after every symlink is resolved (realpath containment, not a lexical check).
#pragma once
#include <cstdint>
#include <string>

namespace hifsim::io {

class InputFile {
 public:
  // Throws hifsim::Error(path, "", reason) unless `path` is a readable regular file.
  explicit InputFile(const std::string& path);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  const std::string& path() const { return path_; }
  uint64_t size() const { return size_; }
  // Exactly n bytes at `offset`; throws Error(path, field, ...) if the file has fewer.
  void read_at(uint64_t offset, void* buf, size_t n, const std::string& field = "") const;
  // The whole file; throws Error(path, "", ...) when it is larger than max_bytes (say why in
  // `limit_reason`, e.g. "a unit config is never that large").
  std::string read_all(uint64_t max_bytes, const std::string& limit_reason) const;

 private:
  std::string path_;
  int fd_ = -1;
  uint64_t size_ = 0;
};

// Shorthand: the whole of a regular file of at most max_bytes.
std::string read_regular_file(const std::string& path, uint64_t max_bytes, const std::string& limit_reason);

// "" when `path` is a regular file; otherwise why not ("does not exist", "is a directory",
// "is a FIFO (named pipe)", "is a character device", ...).
std::string not_regular_reason(const std::string& path);

// dir + "/" + rel with every symlink resolved, which must be a path strictly inside the
// resolved `dir`. Throws hifsim::Error(where, field, reason) when it does not exist or escapes.
std::string resolve_inside(const std::string& dir, const std::string& rel, const std::string& where,
                           const std::string& field);

}  // namespace hifsim::io
