#include "util/files.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "util/content_hash.hpp"
#include "util/error.hpp"
#include "util/manifest.hpp"
#include "util/rng.hpp"

namespace hifsim {
namespace {

const char* kind_of(mode_t m) {
  if (S_ISDIR(m)) return "a folder";
  if (S_ISLNK(m)) return "a symbolic link";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISSOCK(m)) return "a socket";
  return "not a regular file";
}

// Throws unless `path` is absent or a regular file (lstat: a link is not followed).
void require_replaceable(const std::string& path) {
  struct stat st;
  if (lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return;  // absent (a bad folder is reported by its check)
    throw Error(path, "", std::string("cannot check the output: ") + std::strerror(errno));
  }
  if (!S_ISREG(st.st_mode))
    throw Error(path, "", std::string("is ") + kind_of(st.st_mode) + ", not a regular file: hifsim never replaces it");
}

// 64 random bits for temporary names (the kernel's, else time and address bits mixed).
uint64_t random_tag() {
  uint64_t r = 0;
  if (getrandom(&r, sizeof r, GRND_NONBLOCK) == static_cast<ssize_t>(sizeof r)) return r;
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return mix64(static_cast<uint64_t>(ts.tv_nsec) ^ mix64(static_cast<uint64_t>(ts.tv_sec)) ^
               reinterpret_cast<uintptr_t>(&r));
}

// Creates a new temporary file next to `path` (O_EXCL: never an existing one); returns its fd.
int open_temporary(const std::string& path, std::string& tmp) {
  for (int attempt = 0; attempt < 16; ++attempt) {
    char tag[64];
    std::snprintf(tag, sizeof tag, ".tmp-hifsim-%ld-%016llx", static_cast<long>(getpid()),
                  static_cast<unsigned long long>(random_tag()));
    tmp = path + tag;
    const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) return fd;
    if (errno != EEXIST) throw Error(path, "", std::string("cannot create the output: ") + std::strerror(errno));
  }
  throw Error(path, "", "cannot find a free temporary name");
}

// Writes the parts in order, hashing each chunk just before it is written (while it is in
// cache: no second pass over the bytes for the manifest's content hash).
bool write_all(int fd, std::initializer_list<ByteSpan> parts, ContentHasher& hash) {
  constexpr size_t kChunk = size_t(1) << 20;
  for (const ByteSpan& part : parts) {
    const char* p = static_cast<const char*>(part.data);
    for (size_t done = 0; done < part.size;) {
      const size_t len = std::min(kChunk, part.size - done);
      hash.update(p + done, len);
      for (size_t w = 0; w < len;) {
        const ssize_t n = ::write(fd, p + done + w, len - w);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        w += static_cast<size_t>(n);
      }
      done += len;
    }
  }
  return true;
}

// The nearest existing ancestor of a folder path must be a folder (or a link to one).
void require_creatable_dir(const std::string& dir) {
  std::string d = dir.empty() ? "." : dir;
  while (true) {
    struct stat st;
    if (stat(d.c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode)) throw Error(d, "", "exists and is not a folder: cannot hold the outputs");
      return;
    }
    if (errno != ENOENT && errno != ENOTDIR)
      throw Error(d, "", std::string("cannot use the output folder: ") + std::strerror(errno));
    const std::string up = parent_dir(d);
    if (up == d) return;
    d = up;
  }
}

}  // namespace

bool path_exists(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0;
}

std::string parent_dir(const std::string& path) {
  std::string p = path;
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  const size_t slash = p.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return p.substr(0, slash);
}

void make_dirs(const std::string& d) {
  std::string cur = !d.empty() && d[0] == '/' ? "/" : "";
  size_t i = 0;
  while (i <= d.size()) {
    const size_t j = d.find('/', i);
    const std::string part = d.substr(i, j == std::string::npos ? std::string::npos : j - i);
    i = j == std::string::npos ? d.size() + 1 : j + 1;
    if (part.empty() || part == ".") continue;
    cur += part + "/";
    if (mkdir(cur.c_str(), 0777) == 0) continue;
    if (errno != EEXIST) throw Error(d, "", "cannot create folder " + cur + ": " + std::strerror(errno));
    struct stat st;
    if (stat(cur.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
      throw Error(cur.substr(0, cur.size() - 1), "", "exists and is not a folder");
  }
}

void check_output_dir(const std::string& dir) { require_creatable_dir(dir); }

void check_folder_entries(const std::string& dir) {
  DIR* d = opendir(dir.c_str());
  if (!d) return;  // absent (created later) or unreadable (the writes will say so)
  std::string bad;
  mode_t mode = 0;
  while (const dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    struct stat st;
    if (lstat((dir + "/" + name).c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
      bad = dir + "/" + name;
      mode = st.st_mode;
      break;
    }
  }
  closedir(d);
  if (!bad.empty())
    throw Error(bad, "", std::string("is ") + kind_of(mode) + ", not a regular file: hifsim never replaces or writes through it");
}

void check_output_file(const std::string& path) {
  require_replaceable(path);
  require_creatable_dir(parent_dir(path));
}

void write_file_atomic(const std::string& path, const std::string& bytes) {
  write_file_atomic(path, {ByteSpan{bytes.data(), bytes.size()}});
}

void write_file_atomic(const std::string& path, std::initializer_list<ByteSpan> parts) {
  require_replaceable(path);
  std::string tmp;
  const int fd = open_temporary(path, tmp);
  ContentHasher hash;
  const bool ok = write_all(fd, parts, hash);
  const bool closed = close(fd) == 0;
  if (!ok || !closed) {
    unlink(tmp.c_str());
    throw Error(path, "", std::string("write failed: ") + std::strerror(errno));
  }
  try {
    require_replaceable(path);  // again: the path may have changed while the bytes were written
  } catch (...) {
    unlink(tmp.c_str());
    throw;
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    unlink(tmp.c_str());
    throw Error(path, "", std::string("cannot rename the temporary file into place: ") + std::strerror(e));
  }
  remember_content_hash(path, hash.hex());
}

// ---- OutputSet ----------------------------------------------------------------------------

OutputSet::OutputSet(std::string manifest) : manifest_(std::move(manifest)) {
  expect(manifest_);
  start_git_revision_lookup();  // while the command works (util/manifest.hpp)
}

OutputSet::~OutputSet() {
  if (manifest_written_ && !finished_) unlink(manifest_.c_str());
  if (lock_fd_ >= 0) close(lock_fd_);  // releases the lock
}

void OutputSet::expect(const std::string& path) { check_output_file(path); }

void OutputSet::add(const std::string& path, std::string bytes, const std::string& what) {
  staged_.push_back({path, std::move(bytes), what, nullptr});
}

void OutputSet::add(const std::string& path, std::function<void(const std::string&)> writer, const std::string& what) {
  staged_.push_back({path, std::string(), what, std::move(writer)});
}

void OutputSet::add_external(const std::string& path, const std::string& what) { written_.emplace_back(path, what); }

void OutputSet::write() {
  const std::string dir = parent_dir(manifest_);
  make_dirs(dir);
  if (lock_fd_ < 0) {
    lock_fd_ = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    // Best effort: a file system without flock on folders still gets atomic files.
    if (lock_fd_ >= 0)
      while (flock(lock_fd_, LOCK_EX) != 0 && errno == EINTR) {
      }
  }
  require_replaceable(manifest_);
  if (unlink(manifest_.c_str()) != 0 && errno != ENOENT) throw Error(manifest_, "", "cannot remove the old manifest");
  written_once_ = true;
  for (Staged& s : staged_) {
    make_dirs(parent_dir(s.path));
    if (s.writer) {
      require_replaceable(s.path);
      s.writer(s.path);
    } else {
      write_file_atomic(s.path, s.bytes);
    }
    written_.emplace_back(s.path, s.what);
    s.bytes.clear();
    s.bytes.shrink_to_fit();
  }
  staged_.clear();
}

void OutputSet::write_manifest(const Manifest& m) {
  if (!written_once_ || !staged_.empty()) write();
  Manifest full = m;
  for (const auto& [path, what] : written_) {
    full.outputs.emplace_back(path, what);
    full.output_hashes.emplace_back(path, file_content_hash(path));
  }
  full.write(manifest_);
  manifest_written_ = true;
}

void OutputSet::finish(const Manifest& m) {
  write_manifest(m);
  finished_ = true;
  if (lock_fd_ >= 0) close(lock_fd_);
  lock_fd_ = -1;
}

}  // namespace hifsim
