// The CPU time on a GEMM's critical path, a thread-scaling measure that other jobs on the
// machine barely change (docs/performance.md, "Thread scaling"): the calling thread's own CPU
// time (the serial part) plus, for every parallel region, the largest CPU time of one worker
// thread. On idle cores the wall time is about this; 1-thread CPU time / this is the speed-up
// the engine can reach with that many threads.
#pragma once
#include <time.h>

#include <algorithm>
#include <mutex>
#include <thread>

namespace hifsim::dp {

inline double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

struct CpuPath {
  double workers = 0;  // sum over regions of the largest worker CPU time
};

// One parallel region: wrap(body) measures each call of body on a worker thread (calls on the
// creating thread are its serial CPU time, counted by the caller); the destructor adds the
// largest to the path. A null path measures nothing.
class CpuRegion {
 public:
  explicit CpuRegion(CpuPath* path) : path_(path), owner_(std::this_thread::get_id()) {}
  ~CpuRegion() {
    if (path_) path_->workers += max_;
  }
  CpuRegion(const CpuRegion&) = delete;
  CpuRegion& operator=(const CpuRegion&) = delete;

  template <class Body>
  auto wrap(Body& body) {
    return [this, &body](size_t b, size_t e) {
      if (!path_ || std::this_thread::get_id() == owner_) return body(b, e);
      const double t0 = thread_cpu_seconds();
      body(b, e);
      const double t = thread_cpu_seconds() - t0;
      std::lock_guard<std::mutex> lock(mu_);
      max_ = std::max(max_, t);
    };
  }

 private:
  CpuPath* path_;
  std::thread::id owner_;
  std::mutex mu_;
  double max_ = 0;
};

}  // namespace hifsim::dp
