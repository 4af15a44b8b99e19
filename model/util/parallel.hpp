// parallel_for: split [0, n) into contiguous chunks over worker threads.
// Callers keep results independent of the split (each index writes its own output),
// which is what makes every hifsim result identical for any thread count.
#pragma once
#include <algorithm>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace hifsim {

// 0 means "all hardware threads".
inline unsigned resolve_threads(unsigned threads) {
  if (threads != 0) return threads;
  unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : hw;
}

// Calls body(begin, end) on disjoint chunks. Exceptions are rethrown in the caller.
template <class Body>
void parallel_for(size_t n, unsigned threads, Body&& body, size_t min_chunk = 1) {
  threads = resolve_threads(threads);
  size_t max_workers = std::max<size_t>(1, n / std::max<size_t>(1, min_chunk));
  size_t workers = std::min<size_t>(threads, max_workers);
  if (workers <= 1 || n == 0) {
    if (n) body(size_t{0}, n);
    return;
  }
  std::vector<std::thread> pool;
  std::vector<std::exception_ptr> errors(workers);
  size_t chunk = (n + workers - 1) / workers;
  for (size_t w = 0; w < workers; ++w) {
    size_t b = w * chunk, e = std::min(n, b + chunk);
    if (b >= e) break;
    pool.emplace_back([&, w, b, e] {
      try {
        body(b, e);
      } catch (...) {
        errors[w] = std::current_exception();
      }
    });
  }
  for (auto& t : pool) t.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace hifsim
