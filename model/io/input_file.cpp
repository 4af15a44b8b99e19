#include "io/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "util/error.hpp"

namespace hifsim::io {
namespace {

std::string kind_reason(mode_t m) {
  if (S_ISREG(m)) return "";
  if (S_ISDIR(m)) return "is a directory, not a file";
  if (S_ISFIFO(m)) return "is a FIFO (named pipe), not a regular file";
  if (S_ISCHR(m)) return "is a character device, not a regular file";
  if (S_ISBLK(m)) return "is a block device, not a regular file";
  if (S_ISSOCK(m)) return "is a socket, not a regular file";
  return "is not a regular file";
}

std::string errno_reason(int e) {
  if (e == ENOENT) return "does not exist";
  if (e == EACCES) return "permission denied";
  if (e == ENOTDIR) return "a part of the path is not a folder";
  if (e == ELOOP) return "too many levels of symbolic links";
  return std::string("cannot be opened (") + std::strerror(e) + ")";
}

}  // namespace

std::string not_regular_reason(const std::string& path) {
  struct stat st{};
  if (::stat(path.c_str(), &st) != 0) return errno_reason(errno);
  return kind_reason(st.st_mode);
}

InputFile::InputFile(const std::string& path) : path_(path) {
  // stat first so that a device is never even opened (opening some devices has side effects).
  if (const std::string why = not_regular_reason(path); !why.empty()) throw Error(path, "", why);
  fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd_ < 0) throw Error(path, "", errno_reason(errno));
  struct stat st{};
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    const std::string why = kind_reason(st.st_mode);
    ::close(fd_);
    fd_ = -1;
    throw Error(path, "", why.empty() ? "cannot be inspected" : why);
  }
  size_ = static_cast<uint64_t>(st.st_size);
}

InputFile::~InputFile() {
  if (fd_ >= 0) ::close(fd_);
}

void InputFile::read_at(uint64_t offset, void* buf, size_t n, const std::string& field) const {
  if (offset > size_ || n > size_ - offset)
    throw Error(path_, field,
                "needs bytes " + std::to_string(offset) + ".." + std::to_string(offset) + "+" + std::to_string(n) +
                    ", the file has " + std::to_string(size_));
  char* p = static_cast<char*>(buf);
  while (n > 0) {
    const size_t chunk = n < (size_t{1} << 30) ? n : (size_t{1} << 30);
    const ssize_t got = ::pread(fd_, p, chunk, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw Error(path_, field, std::string("read failed (") + std::strerror(errno) + ")");
    if (got == 0) throw Error(path_, field, "the file became shorter while it was read");
    p += got;
    offset += static_cast<uint64_t>(got);
    n -= static_cast<size_t>(got);
  }
}

std::string InputFile::read_all(uint64_t max_bytes, const std::string& limit_reason) const {
  if (size_ > max_bytes)
    throw Error(path_, "", std::to_string(size_) + " bytes is more than the limit of " + std::to_string(max_bytes) +
                               " bytes (" + limit_reason + ")");
  std::string s(static_cast<size_t>(size_), '\0');
  read_at(0, s.data(), s.size());
  return s;
}

std::string read_regular_file(const std::string& path, uint64_t max_bytes, const std::string& limit_reason) {
  return InputFile(path).read_all(max_bytes, limit_reason);
}

std::string resolve_inside(const std::string& dir, const std::string& rel, const std::string& where,
                           const std::string& field) {
  char root[PATH_MAX], target[PATH_MAX];
  if (!::realpath(dir.empty() ? "." : dir.c_str(), root)) throw Error(where, field, "folder '" + dir + "' " + errno_reason(errno));
  const std::string joined = (dir.empty() ? std::string(".") : dir) + "/" + rel;
  if (!::realpath(joined.c_str(), target)) throw Error(where, field, "'" + rel + "' " + errno_reason(errno));
  const std::string r = root, t = target;
  const std::string prefix = r == "/" ? r : r + "/";
  if (t.size() <= prefix.size() || t.compare(0, prefix.size(), prefix) != 0)
    throw Error(where, field, "'" + rel + "' resolves to '" + t + "', outside the folder '" + r + "' (symbolic link?)");
  return t;
}

}  // namespace hifsim::io
