#include "sweep/records.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <random>

#include "sweep/flat_json.hpp"
#include "util/error.hpp"
#include "util/files.hpp"
#include "util/json.hpp"

namespace hifsim::sweep {
namespace {

constexpr const char* kResultKey = "],\"result\":";

// Host names become part of a file name: keep [A-Za-z0-9.-], never a slash.
std::string host_tag() {
  char h[256] = {0};
  if (gethostname(h, sizeof h - 1) != 0) return "host";
  std::string t;
  for (const char* c = h; *c; ++c) t += (std::isalnum(static_cast<unsigned char>(*c)) || *c == '.' || *c == '-') ? *c : '_';
  return t.empty() ? "host" : t;
}

std::string random_hex() {
  std::random_device rd;
  const uint64_t v = (static_cast<uint64_t>(rd()) << 32) ^ rd();
  char b[17];
  std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(v));
  return b;
}

// The evaluator's JSON on one line: its newlines are layout only (strings escape theirs).
std::string one_line(const std::string& json) {
  std::string o;
  o.reserve(json.size());
  for (char c : json)
    if (c != '\n' && c != '\r') o += c;
  while (!o.empty() && (o.back() == ' ' || o.back() == '\t')) o.pop_back();
  return o;
}

bool status_ok(const FlatFields& f) {
  for (const auto& [k, v] : f)
    if (k == "status") return v == "ok";
  return false;
}

bool is_hex16(const std::string& s) {
  return s.size() == 16 && s.find_first_not_of("0123456789abcdef") == std::string::npos;
}

// An open regular file; Error otherwise (a symlink is not followed). Sets `size`.
int open_regular(const std::string& path, off_t& size) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0 && errno == ELOOP) throw Error(path, "", "a symbolic link (not followed: a sweep folder holds only files it wrote)");
  if (fd < 0) throw Error(path, "", std::string("cannot open: ") + std::strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw Error(path, "", "not a regular file (a sweep folder holds only files it wrote)");
  }
  size = st.st_size;
  return fd;
}

// A record line is one point's result: far below this. A longer one (a corrupt or sparse file)
// is a problem of that line, never a buffer of the file's size.
constexpr size_t kMaxRecordLine = size_t{16} << 20;

// The whole file (small legacy result files).
std::string read_regular(const std::string& path) {
  off_t size = 0;
  const int fd = open_regular(path, size);
  if (static_cast<uint64_t>(size) > kMaxRecordLine) {
    ::close(fd);
    throw Error(path, "", "larger than 16 MiB: not a result file this sweep wrote");
  }
  std::string s(static_cast<size_t>(size), '\0');
  size_t got = 0;
  while (got < s.size()) {
    const ssize_t n = ::read(fd, &s[got], s.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // the file shrank under us: keep what was read
    got += static_cast<size_t>(n);
  }
  ::close(fd);
  s.resize(got);
  return s;
}

std::vector<std::string> list_dir(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = opendir(dir.c_str());
  if (!d) return names;
  while (const dirent* e = readdir(d)) {
    const std::string n = e->d_name;
    if (n != "." && n != "..") names.push_back(n);
  }
  closedir(d);
  std::sort(names.begin(), names.end());  // the same order on every file system
  return names;
}

class Reader {
 public:
  Reader(RecordSet& set, bool keep_text) : set_(set), keep_(keep_text) {}

  // Streamed in 1 MiB chunks, one line at a time: a record file of any size (a 20 GB sparse
  // one included) costs one line of memory.
  void jsonl(const std::string& path) {
    off_t size = 0;
    const int fd = open_regular(path, size);
    const uint32_t file = add_file(path);
    std::string chunk(size_t{1} << 20, '\0'), line_text;
    uint32_t line = 1;
    bool too_long = false;
    while (true) {
      ssize_t n = ::read(fd, &chunk[0], chunk.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      size_t start = 0;
      while (start < static_cast<size_t>(n)) {
        const char* nl = static_cast<const char*>(std::memchr(chunk.data() + start, '\n', static_cast<size_t>(n) - start));
        const size_t end = nl ? static_cast<size_t>(nl - chunk.data()) : static_cast<size_t>(n);
        if (!too_long) {
          if (line_text.size() + (end - start) > kMaxRecordLine) {
            too_long = true;
            line_text.clear();
            line_text.shrink_to_fit();
          } else {
            line_text.append(chunk, start, end - start);
          }
        }
        if (!nl) {
          // Discarding an overlong line: skip the file's holes (a sparse file reads as zeros).
          if (too_long) {
            const off_t cur = ::lseek(fd, 0, SEEK_CUR);
            const off_t data = cur < 0 ? -1 : ::lseek(fd, cur, SEEK_DATA);
            if (data < 0 && errno == ENXIO) ::lseek(fd, 0, SEEK_END);  // only holes left
          }
          break;
        }
        if (too_long) problem(file, line, "a line longer than 16 MiB (not a record this sweep wrote): its point runs again");
        else record_line(line_text, file, line);
        line_text.clear();
        too_long = false;
        ++line;
        start = end + 1;
      }
    }
    ::close(fd);
    if (!line_text.empty() || too_long)
      problem(file, line, too_long ? "a line longer than 16 MiB (not a record this sweep wrote): its point runs again"
                                   : "incomplete last line (its process stopped while writing it): the point runs again");
  }

  // Earlier layout: DIR/points/<id>/result.json, the result object itself.
  void legacy(const std::string& path, const std::string& id) {
    const std::string text = read_regular(path);
    const uint32_t file = add_file(path);
    FlatFields f;
    std::string err;
    if (!flatten_json_object(text, f, err)) return problem(file, 1, "not a JSON object (" + err + "): the point runs again");
    if (!status_ok(f)) return problem(file, 1, "no \"status\": \"ok\": the point runs again");
    add(id, text, file, 1);
  }

 private:
  uint32_t add_file(const std::string& path) {
    set_.files.push_back(path);
    return static_cast<uint32_t>(set_.files.size() - 1);
  }
  void problem(uint32_t file, uint32_t line, const std::string& why) {
    set_.problems.push_back(set_.files[file] + ":" + std::to_string(line) + ": " + why);
  }

  void record_line(const std::string& l, uint32_t file, uint32_t line) {
    // The whole line must be one strict JSON object that starts with the id; the writer's fixed
    // layout (result last) then locates the result's text, which must itself be one object.
    static const std::string head = "{\"id\":\"";
    FlatFields whole, f;
    std::string err;
    const size_t r = l.find(kResultKey);
    if (l.compare(0, head.size(), head) != 0 || r == std::string::npos || !flatten_json_object(l, whole, err) ||
        whole.empty() || whole[0].first != "id" || !is_hex16(whole[0].second))
      return problem(file, line, "not a sweep record (damaged line): the point runs again");
    const size_t from = r + std::strlen(kResultKey);
    const std::string result = l.substr(from, l.size() - 1 - from);
    if (!flatten_json_object(result, f, err)) return problem(file, line, "not a sweep record (damaged line): the point runs again");
    if (!status_ok(f)) return problem(file, line, "result without \"status\": \"ok\": the point runs again");
    add(whole[0].second, result, file, line);
  }

  void add(const std::string& id, const std::string& text, uint32_t file, uint32_t line) {
    auto [it, fresh] = set_.done.try_emplace(id);
    if (fresh) {
      it->second = {keep_ ? text : std::string(), file, line};
      return;
    }
    // A second record of the same point (a task resubmitted while its first run was still
    // writing): harmless when equal; a different result means the evaluation is not
    // deterministic, which must never be merged silently.
    if (!keep_) return;
    FlatFields a, b;
    std::string e;
    flatten_json_object(it->second.text, a, e);
    flatten_json_object(text, b, e);
    if (a != b)
      throw Error(set_.files[file] + ":" + std::to_string(line), "point " + id,
                  "differs from the record of the same point at " + set_.where(it->second) +
                      " (hifsim results must be reproducible: please report this)");
  }

  RecordSet& set_;
  bool keep_;
};

}  // namespace

RecordWriter::RecordWriter(std::string out_dir, std::string tag) : out_dir_(std::move(out_dir)), tag_(std::move(tag)) {}

RecordWriter::~RecordWriter() {
  if (fd_ >= 0) ::close(fd_);
}

void RecordWriter::append(const Point& p, const std::string& result_json) {
  const std::string result = one_line(result_json);
  FlatFields f;
  std::string err;
  if (!flatten_json_object(result, f, err)) throw Error("point " + p.id, "result", "not a JSON object: " + err);
  std::string line = "{\"id\":\"" + p.id + "\",\"index\":" + std::to_string(p.index) + ",\"overrides\":[";
  for (size_t k = 0; k < p.overrides.size(); ++k) line += (k ? "," : "") + JsonWriter::quote(p.overrides[k]);
  line += kResultKey + result + "}\n";

  std::lock_guard<std::mutex> lk(mu_);
  if (broken_) throw Error(path_, "", "an earlier write failed");
  if (fd_ < 0) {
    const std::string dir = out_dir_ + "/records";
    make_dirs(dir);
    path_ = dir + "/" + tag_ + "-" + host_tag() + "-" + std::to_string(getpid()) + "-" + random_hex() + ".jsonl";
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0666);
    if (fd_ < 0) throw Error(path_, "", std::string("cannot create: ") + std::strerror(errno));
  }
  size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      broken_ = true;
      throw Error(path_, "", std::string("write failed: ") + (n < 0 ? std::strerror(errno) : "no space"));
    }
    done += static_cast<size_t>(n);
  }
}

void RecordWriter::close() {
  std::lock_guard<std::mutex> lk(mu_);
  if (fd_ < 0) return;
  const bool synced = fdatasync(fd_) == 0;
  const bool closed = ::close(fd_) == 0;
  fd_ = -1;
  if (!synced || !closed) throw Error(path_, "", std::string("cannot flush to disk: ") + std::strerror(errno));
}

RecordSet read_records(const std::string& out_dir, bool keep_text) {
  RecordSet set;
  Reader r(set, keep_text);
  const std::string rec = out_dir + "/records";
  for (const std::string& n : list_dir(rec))
    if (n.size() > 6 && n.compare(n.size() - 6, 6, ".jsonl") == 0) r.jsonl(rec + "/" + n);
  const std::string legacy = out_dir + "/points";
  for (const std::string& id : list_dir(legacy)) {
    const std::string p = legacy + "/" + id + "/result.json";
    if (is_hex16(id) && path_exists(p)) r.legacy(p, id);
  }
  return set;
}

}  // namespace hifsim::sweep
