// Writing outputs safely, for every command and the sweep (docs/outputs.md):
//   - nothing that is not a regular file is ever replaced: a device node, FIFO, folder or
//     symbolic link named as an output is an error (hifsim runs as root in containers, where
//     replacing /dev/null would break the machine);
//   - a file appears whole or not at all: it is written under a unique temporary name in its
//     own folder (<name>.tmp-hifsim-<pid>-<random>) and renamed into place, so concurrent runs
//     never share a temporary file;
//   - outputs are checked before any work (OutputSet::expect: also the same path twice and a
//     name longer than the folder allows) and written only after it, all of a set under
//     temporary names first and renamed only when every one is whole, the manifest last, so an
//     error (a full disk included) leaves nothing behind and a folder with a manifest is complete;
//   - a replaced output keeps its mode (and its owner where permitted);
//   - a run's files are written under an exclusive lock of the manifest's folder, so two runs
//     writing the same folder leave the files of one run, described by its manifest (which
//     holds every output's hash).
#pragma once
#include <cstddef>
#include <functional>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace hifsim {

struct Manifest;

bool path_exists(const std::string& p);
// Every missing folder of the path, like mkdir -p; an existing component that is not a folder
// (or a link to one) is an error naming it.
void make_dirs(const std::string& d);
// The folder part of a path ("." for a bare name).
std::string parent_dir(const std::string& path);

// Errors unless `path` may be written as an output: absent or a regular file (not a link),
// with a folder that exists or can be created (every existing ancestor a folder).
void check_output_file(const std::string& path);
// Errors unless `dir` is a folder or can be created.
void check_output_dir(const std::string& dir);
// Errors when an entry of the folder (if it exists) is neither a regular file nor a folder:
// for folders other programs write into (the Python report and plots), which would block on a
// FIFO or write through a link.
void check_folder_entries(const std::string& dir);

// Writes `bytes` to `path` through a unique temporary file and an atomic rename; refuses a
// path that exists and is not a regular file. The folder must exist.
void write_file_atomic(const std::string& path, const std::string& bytes);
// The same for bytes in several places (a header and an array), written one after the other
// without first copying them together. Both remember the file's content hash
// (util/content_hash.hpp), computed while writing.
struct ByteSpan {
  const void* data;
  size_t size;
};
void write_file_atomic(const std::string& path, std::initializer_list<ByteSpan> parts);

// The outputs of one command: declared and checked before the work, written after it.
class OutputSet {
 public:
  // `manifest`: the manifest's path, written last; its folder is created (with parents) and
  // locked while the outputs are written.
  explicit OutputSet(std::string manifest);
  ~OutputSet();  // an unfinished set's manifest is removed
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;

  // Checks an output now (check_output_file, a name the folder takes, not the path or the
  // same file as another output of the set); call for every output before any work.
  void expect(const std::string& path);
  // Stages an output's bytes (written by write()).
  void add(const std::string& path, std::string bytes, const std::string& what);
  // Stages an output written by `writer(path)` (which must write atomically, e.g. io::write_npy).
  void add(const std::string& path, std::function<void(const std::string&)> writer, const std::string& what);
  // A temporary file for an output written while the work runs (a large output streamed instead
  // of held in memory); it is renamed into place with the others, or removed on any failure.
  // Returns its name: the caller writes it whole (and checks its writes).
  std::string stream_to(const std::string& path, const std::string& what);
  // Records a file another program writes into the set (a plot, a report) after write().
  void add_external(const std::string& path, const std::string& what);
  // Creates the folders, takes the lock, writes the staged files under temporary names and,
  // when all are whole, removes a stale manifest and renames them into place.
  void write();
  // Writes the manifest (m plus every output with its content hash), keeping the lock: for a
  // program that reads it (the report's provenance). Unless finish() follows, the destructor
  // removes it again, so an error after this point leaves no manifest.
  void write_manifest(const Manifest& m);
  // write_manifest() and release the lock: the outputs are complete.
  void finish(const Manifest& m);

 private:
  struct Staged {
    std::string path, bytes, what;
    std::function<void(const std::string&)> writer;  // instead of bytes
  };
  std::string manifest_;
  std::vector<std::pair<std::string, std::string>> expected_;  // path, identity (duplicates refused)
  std::vector<Staged> staged_;
  std::vector<std::pair<std::string, std::string>> written_;  // path, what
  std::vector<std::pair<std::string, std::string>> pending_;  // temporary, path: written, not renamed
  void lock();
  void write_temporaries();
  void commit_pending();
  int lock_fd_ = -1;
  bool written_once_ = false, manifest_written_ = false, finished_ = false;
};

}  // namespace hifsim
