// Where a sweep keeps its finished points (docs/sweeps.md, "Outputs"). Every process that
// evaluates points appends one line per finished point to a file of its own,
//   DIR/records/<tag>-<host>-<pid>-<random>.jsonl
//   {"id":"<16 hex>","index":<n>,"overrides":["path=value",...],"result":{"status":"ok",...}}
// so concurrent shards (Slurm array tasks on many nodes, a task resubmitted while its first run
// still writes) never share a file, and a merge reads a few large files instead of one small
// file per point (10^5 points: seconds, not minutes). A line is written with one write() and
// counts only when it is complete: ends in a newline, parses as strict JSON, and its result says
// "status": "ok". A process killed mid-write leaves an incomplete last line, which is ignored,
// so its point runs again -- resume is exact. Folders of earlier versions, one
// DIR/points/<id>/result.json per point, are still read.
#pragma once
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "sweep/points.hpp"

namespace hifsim::sweep {

// Appends the records of one process. The file is created (never reused: O_EXCL) at the first
// record, so a run with nothing to do leaves no empty file behind. Thread-safe.
class RecordWriter {
 public:
  // tag: what the process runs, e.g. "all" or "shard-2-of-4" (part of the file name).
  RecordWriter(std::string out_dir, std::string tag);
  ~RecordWriter();
  RecordWriter(const RecordWriter&) = delete;
  RecordWriter& operator=(const RecordWriter&) = delete;
  // result_json: the point's result object (may span lines; written as one line). Throws
  // hifsim::Error when it is not a JSON object or the file cannot be written; after a failed
  // write nothing more is appended (the incomplete line stays last, and is ignored on reading).
  void append(const Point& p, const std::string& result_json);
  // Flushes the file to disk (fdatasync) and closes it.
  void close();
  const std::string& path() const { return path_; }  // empty until the first record

 private:
  std::string out_dir_, tag_, path_;
  int fd_ = -1;
  bool broken_ = false;
  std::mutex mu_;
};

// One finished point as read back: its result object (JSON text; empty unless asked for) and
// where it was found.
struct StoredResult {
  std::string text;
  uint32_t file = 0;  // index into RecordSet::files
  uint32_t line = 0;  // 1-based
};

struct RecordSet {
  std::unordered_map<std::string, StoredResult> done;  // point id -> its result
  std::vector<std::string> files;                      // every file read
  // "file:line: reason" for every line that is not a finished point (an incomplete last line
  // of a killed process, a damaged line): those points run again. Callers print them.
  std::vector<std::string> problems;
  std::string where(const StoredResult& r) const { return files[r.file] + ":" + std::to_string(r.line); }
};

// Reads DIR/records/*.jsonl and the earlier layout DIR/points/<id>/result.json. keep_text keeps
// each result's JSON (the merge needs it; resuming needs only the ids). Two records of one point
// must have the same result fields (hifsim is deterministic), else hifsim::Error naming both.
// Entries that are not regular files are refused with an Error (never followed).
RecordSet read_records(const std::string& out_dir, bool keep_text);

}  // namespace hifsim::sweep
