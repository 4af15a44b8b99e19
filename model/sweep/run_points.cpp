#include "sweep/run_points.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <iostream>
#include <mutex>
#include <thread>

#include "sweep/records.hpp"
#include "util/parallel.hpp"

namespace hifsim::sweep {
namespace {

// "[sweep] [#####.....] d/n points  e s elapsed, eta t s": on a terminal one line redrawn, in a
// log file (Slurm) a line every tenth of the run.
class Progress {
 public:
  Progress(size_t total, bool quiet) : total_(total), quiet_(quiet), tty_(isatty(2)), t0_(std::chrono::steady_clock::now()) {}
  void done(size_t d) {
    if (quiet_) return;
    const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    const double eta = d ? el / d * (total_ - d) : 0;
    const int width = 30, fill = total_ == 0 ? width : static_cast<int>(width * d / total_);
    char line[200];
    std::snprintf(line, sizeof line, "[sweep] [%s%s] %zu/%zu points  %.0f s elapsed, eta %.0f s",
                  std::string(fill, '#').c_str(), std::string(width - fill, '.').c_str(), d, total_, el, eta);
    std::lock_guard<std::mutex> lk(mu_);
    if (tty_) std::cerr << "\r" << line << (d == total_ ? "\n" : "") << std::flush;
    else if (d == total_ || d % std::max<size_t>(1, total_ / 10) == 0) std::cerr << line << "\n";
  }

 private:
  size_t total_;
  bool quiet_, tty_;
  std::chrono::steady_clock::time_point t0_;
  std::mutex mu_;
};

}  // namespace

std::unordered_set<std::string> finished_ids(const std::string& out_dir) {
  const RecordSet set = read_records(out_dir, false);
  std::unordered_set<std::string> ids;
  for (const auto& [id, r] : set.done) ids.insert(id);
  return ids;
}

size_t run_points(const std::vector<Point>& points, const std::string& out_dir, const Evaluator& evaluate,
                  const RunOptions& o) {
  const RecordSet set = read_records(out_dir, false);
  for (const auto& p : set.problems) std::cerr << "[sweep] warning: " << p << "\n";
  std::vector<const Point*> todo;
  for (const Point& p : points)
    if (!set.done.count(p.id)) todo.push_back(&p);
  if (o.max_points && todo.size() > o.max_points) todo.resize(o.max_points);
  if (!o.quiet)
    std::cerr << "[sweep] " << points.size() << " points, " << (points.size() - todo.size()) << " already done, "
              << todo.size() << " to run\n";
  RecordWriter out(out_dir, o.tag);
  Progress progress(todo.size(), o.quiet);
  std::atomic<size_t> next{0}, done{0};
  std::atomic<bool> stop{false};
  std::mutex mu;
  std::exception_ptr first_error;
  const unsigned jobs = std::min<unsigned>(resolve_threads(o.jobs), static_cast<unsigned>(std::max<size_t>(1, todo.size())));
  std::vector<std::thread> pool;
  for (unsigned w = 0; w < jobs; ++w) {
    pool.emplace_back([&] {
      for (;;) {
        const size_t i = next++;
        if (i >= todo.size() || stop) return;
        try {
          out.append(*todo[i], evaluate(*todo[i]));
        } catch (...) {
          std::lock_guard<std::mutex> lk(mu);
          if (!first_error) first_error = std::current_exception();
          stop = true;
          return;
        }
        progress.done(++done);
      }
    });
  }
  for (auto& t : pool) t.join();
  if (first_error) std::rethrow_exception(first_error);
  out.close();
  return done;
}

}  // namespace hifsim::sweep
