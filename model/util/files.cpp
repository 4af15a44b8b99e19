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
#include <cstdlib>
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

size_t base_name_length(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path.size() : path.size() - slash - 1;
}

// The longest file name the folder of `path` takes (255 where it cannot be asked).
size_t name_max(const std::string& path) {
  const long n = pathconf(parent_dir(path).c_str(), _PC_NAME_MAX);
  return n > 0 ? static_cast<size_t>(n) : 255;
}

// Creates a new temporary file next to `path` (O_EXCL: never an existing one); returns its fd.
// The name is <path>.tmp-hifsim-<pid>-<random>, or .hifsim-<pid>-<random> in the same folder
// when that would exceed the file system's name limit (a long output name must not fail late).
int open_temporary(const std::string& path, std::string& tmp) {
  for (int attempt = 0; attempt < 16; ++attempt) {
    char tag[64];
    std::snprintf(tag, sizeof tag, ".tmp-hifsim-%ld-%016llx", static_cast<long>(getpid()),
                  static_cast<unsigned long long>(random_tag()));
    tmp = path + tag;
    if (base_name_length(tmp) > name_max(path)) tmp = parent_dir(path) + "/" + std::string(tag).substr(4);
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

namespace {
// The parts in a new temporary file next to `path`, hashed as they are written (the hash is
// remembered for the temporary, and carried to `path` by commit_temporary); returns its name.
// Nothing is left on failure.
std::string write_temporary(const std::string& path, std::initializer_list<ByteSpan> parts) {
  std::string tmp;
  const int fd = open_temporary(path, tmp);
  ContentHasher hash;
  const bool ok = write_all(fd, parts, hash);
  const int e = errno;
  const bool closed = close(fd) == 0;
  if (!ok || !closed) {
    unlink(tmp.c_str());
    throw Error(path, "", std::string("write failed: ") + std::strerror(ok ? errno : e));
  }
  remember_content_hash(tmp, hash.hex());
  return tmp;
}

// Renames the temporary `tmp` onto `path`, giving it the mode (and, where permitted, the owner)
// of the file it replaces: replacing a 0600 output must not leave it 0644.
void commit_temporary(const std::string& tmp, const std::string& path) {
  try {
    require_replaceable(path);  // again: the path may have changed while the bytes were written
  } catch (...) {
    unlink(tmp.c_str());
    throw;
  }
  const std::string hex = file_content_hash(tmp);  // remembered by write_temporary: no second read
  struct stat old;
  if (lstat(path.c_str(), &old) == 0 && S_ISREG(old.st_mode)) {
    chmod(tmp.c_str(), old.st_mode & 07777);
    if (lchown(tmp.c_str(), old.st_uid, old.st_gid) != 0) {
      // Not permitted (another user's file): the new file is ours, with the old mode.
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    unlink(tmp.c_str());
    throw Error(path, "", std::string("cannot rename the temporary file into place: ") + std::strerror(e));
  }
  remember_content_hash(path, hex);
}
}  // namespace

void write_file_atomic(const std::string& path, const std::string& bytes) {
  write_file_atomic(path, {ByteSpan{bytes.data(), bytes.size()}});
}

void write_file_atomic(const std::string& path, std::initializer_list<ByteSpan> parts) {
  require_replaceable(path);
  commit_temporary(write_temporary(path, parts), path);
}

// ---- OutputSet ----------------------------------------------------------------------------

OutputSet::OutputSet(std::string manifest) : manifest_(std::move(manifest)) {
  expect(manifest_);
  start_git_revision_lookup();  // while the command works (util/manifest.hpp)
}

OutputSet::~OutputSet() {
  for (const auto& [tmp, path] : pending_) unlink(tmp.c_str());
  if (manifest_written_ && !finished_) unlink(manifest_.c_str());
  if (lock_fd_ >= 0) close(lock_fd_);  // releases the lock
}

namespace {
// `base` + "/" + `rest` with rest's "." and ".." taken lexically (rest names folders that do not
// exist yet, so none of them is a link).
std::string join_lexically(std::string base, const std::string& rest) {
  std::vector<std::string> parts;
  size_t i = 0;
  while (i <= rest.size()) {
    const size_t j = std::min(rest.find('/', i), rest.size());
    const std::string part = rest.substr(i, j - i);
    i = j + 1;
    if (part.empty() || part == ".") continue;
    if (part != "..") parts.push_back(part);
    else if (!parts.empty()) parts.pop_back();
    else base = parent_dir(base);
  }
  for (const std::string& p : parts) base += (base.empty() || base.back() != '/' ? "/" : "") + p;
  return base;
}

// The path an output will have, for comparing two of them: the real path of its folder (or of
// its nearest existing ancestor, the rest appended) plus its name; "out//a/./b" is "out/a/b".
std::string output_identity(const std::string& path) {
  std::string dir = parent_dir(path), rest = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
  while (true) {
    if (char* real = realpath(dir.c_str(), nullptr)) {
      std::string r = real;
      std::free(real);
      return join_lexically(r, rest);
    }
    const std::string up = parent_dir(dir);
    const std::string name = dir.substr(dir.rfind('/') == std::string::npos ? 0 : dir.rfind('/') + 1);
    if (name != "." && !name.empty()) rest = name + "/" + rest;
    if (up == dir) return rest;
    dir = up;
  }
}
}  // namespace

void OutputSet::expect(const std::string& path) {
  if (base_name_length(path) > name_max(path))
    throw Error(path, "", "the file name has " + std::to_string(base_name_length(path)) + " bytes, more than the " +
                              std::to_string(name_max(path)) + " its folder allows");
  check_output_file(path);
  const std::string id = output_identity(path);
  for (const auto& [other, other_id] : expected_)
    if (other_id == id)
      throw Error(path, "", other == path ? "named twice as an output of this run (each output needs its own path)"
                                          : "is the same file as the output " + other + " (each output needs its own path)");
  expected_.emplace_back(path, id);
}

void OutputSet::add(const std::string& path, std::string bytes, const std::string& what) {
  staged_.push_back({path, std::move(bytes), what, nullptr});
}

void OutputSet::add(const std::string& path, std::function<void(const std::string&)> writer, const std::string& what) {
  staged_.push_back({path, std::string(), what, std::move(writer)});
}

std::string OutputSet::stream_to(const std::string& path, const std::string& what) {
  make_dirs(parent_dir(path));
  require_replaceable(path);
  std::string tmp;
  close(open_temporary(path, tmp));
  pending_.emplace_back(tmp, path);
  written_.emplace_back(path, what);
  return tmp;
}

void OutputSet::add_external(const std::string& path, const std::string& what) { written_.emplace_back(path, what); }

void OutputSet::lock() {
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
  written_once_ = true;
}

// Phase 1: every staged output under a temporary name next to it. A failure (full disk, a
// writer's error) removes the temporaries written so far: no output has changed yet.
void OutputSet::write_temporaries() {
  try {
    for (Staged& s : staged_) {
      make_dirs(parent_dir(s.path));
      require_replaceable(s.path);
      if (s.writer) {
        std::string tmp;
        close(open_temporary(s.path, tmp));  // a reserved name the writer replaces atomically
        pending_.emplace_back(tmp, s.path);
        s.writer(tmp);
      } else {
        pending_.emplace_back(write_temporary(s.path, {ByteSpan{s.bytes.data(), s.bytes.size()}}), s.path);
      }
      written_.emplace_back(s.path, s.what);
      s.bytes.clear();
      s.bytes.shrink_to_fit();
    }
  } catch (...) {
    for (const auto& [tmp, path] : pending_) unlink(tmp.c_str());
    pending_.clear();
    throw;
  }
  staged_.clear();
}

// Phase 2: the old manifest removed (the folder no longer claims to be complete), then the
// renames, the new manifest's last. Until here an earlier run's files and manifest are intact.
void OutputSet::commit_pending() {
  if (pending_.empty()) return;
  if (unlink(manifest_.c_str()) != 0 && errno != ENOENT) {
    for (const auto& [tmp, path] : pending_) unlink(tmp.c_str());
    pending_.clear();
    throw Error(manifest_, "", "cannot remove the old manifest");
  }
  for (size_t i = 0; i < pending_.size(); ++i) {
    try {
      commit_temporary(pending_[i].first, pending_[i].second);
    } catch (...) {
      for (size_t j = i + 1; j < pending_.size(); ++j) unlink(pending_[j].first.c_str());
      pending_.clear();
      throw;
    }
  }
  pending_.clear();
}

void OutputSet::write() {
  lock();
  write_temporaries();
  commit_pending();
}

void OutputSet::write_manifest(const Manifest& m) {
  if (!written_once_) lock();
  write_temporaries();
  // Every output's hash, from its temporary when it is not in place yet.
  Manifest full = m;
  for (const auto& [path, what] : written_) {
    std::string source = path;
    for (const auto& [tmp, p] : pending_)
      if (p == path) source = tmp;
    full.outputs.emplace_back(path, what);
    full.output_hashes.emplace_back(path, file_content_hash(source));
  }
  try {
    const std::string json = full.json();
    pending_.emplace_back(write_temporary(manifest_, {ByteSpan{json.data(), json.size()}}), manifest_);
  } catch (...) {
    for (const auto& [tmp, path] : pending_) unlink(tmp.c_str());
    pending_.clear();
    throw;
  }
  commit_pending();
  manifest_written_ = true;
}

void OutputSet::finish(const Manifest& m) {
  write_manifest(m);
  finished_ = true;
  if (lock_fd_ >= 0) close(lock_fd_);
  lock_fd_ = -1;
}

}  // namespace hifsim
