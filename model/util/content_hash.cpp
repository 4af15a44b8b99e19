#include "util/content_hash.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <map>
#include <mutex>
#include <vector>

// The header-only build of xxHash: the functions are compiled into this file (no run-time
// library to ship with the wheel), with the header's own SSE2/AVX2 selection.
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace hifsim {

struct ContentHasher::State {
  XXH3_state_t st;
};

ContentHasher::ContentHasher() : s_(std::make_unique<State>()) { XXH3_64bits_reset(&s_->st); }
ContentHasher::~ContentHasher() = default;
void ContentHasher::update(const void* data, size_t n) {
  if (n) XXH3_64bits_update(&s_->st, data, n);
}

namespace {
std::string hex64(uint64_t h) {
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

// A file's identity: a rewrite (new inode on rename, new size or time) changes it.
struct Identity {
  dev_t dev = 0;
  ino_t ino = 0;
  off_t size = 0;
  long long mtime_ns = 0;
  bool operator==(const Identity& o) const {
    return dev == o.dev && ino == o.ino && size == o.size && mtime_ns == o.mtime_ns;
  }
};
bool identity_of(const std::string& path, Identity& id) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  id = {st.st_dev, st.st_ino, st.st_size, static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec};
  return true;
}

struct Remembered {
  Identity id;
  std::string hex;
};
std::mutex& cache_mutex() {
  static std::mutex m;
  return m;
}
std::map<std::string, Remembered>& cache() {
  static std::map<std::string, Remembered> c;
  return c;
}
}  // namespace

std::string ContentHasher::hex() const { return hex64(XXH3_64bits_digest(&s_->st)); }

std::string content_hash_hex(const void* data, size_t n) { return hex64(XXH3_64bits(data, n)); }

void remember_content_hash(const std::string& path, const std::string& hex) {
  Identity id;
  if (!identity_of(path, id)) return;
  std::lock_guard<std::mutex> lock(cache_mutex());
  cache()[path] = {id, hex};
}

std::string file_content_hash(const std::string& path) {
  Identity now;
  if (identity_of(path, now)) {
    std::lock_guard<std::mutex> lock(cache_mutex());
    const auto it = cache().find(path);
    if (it != cache().end() && it->second.id == now) return it->second.hex;
  }
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return "missing";
  ContentHasher h;
  std::vector<char> buf(1 << 20);
  for (;;) {
    const ssize_t n = read(fd, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      close(fd);
      return "missing";
    }
    if (n == 0) break;
    h.update(buf.data(), static_cast<size_t>(n));
  }
  close(fd);
  return h.hex();
}

}  // namespace hifsim
