// Large buffers without the serial cost of their first touch (the GEMM engine's packed operands
// and results, the .npy arrays `hifsim gemm` reads). A std::vector zero-fills on the calling
// thread, which page-faults every 4 KiB page there: for a 4096 x 4096 FP32 result that serial
// fill took about a third of the 2-thread GEMM (docs/performance.md, "Thread scaling"), and for
// the inputs of a 2048^3 `hifsim gemm` the fill is a pass the read overwrites at once.
// UninitBuffer<T> leaves elements uninitialized, so whoever writes them first (worker threads, a
// read) faults them in; allocations of 4 MiB or more are 2 MiB-aligned and advised to use
// transparent huge pages (as numpy does for its arrays), which makes each fault cover 512 pages
// and their release at exit as cheap. Every user writes every element it reads.
#pragma once
#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <new>
#include <utility>
#include <vector>

namespace hifsim {

constexpr size_t kHugePage = size_t{2} << 20;
constexpr size_t kHugeFrom = size_t{4} << 20;

inline void* buffer_allocate(size_t bytes) {
  void* p = nullptr;
  if (bytes >= kHugeFrom) {
    const size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    p = std::aligned_alloc(kHugePage, rounded);
    if (p) madvise(p, rounded, MADV_HUGEPAGE);  // advice only: failure leaves 4 KiB pages
  } else {
    p = std::malloc(bytes ? bytes : 1);
  }
  if (!p) throw std::bad_alloc();
  return p;
}

// std::allocator semantics except that value-less construction leaves trivial types
// uninitialized (vector::resize(n) does not write the elements).
template <class T>
struct UninitAllocator {
  using value_type = T;
  UninitAllocator() = default;
  template <class U>
  UninitAllocator(const UninitAllocator<U>&) {}
  T* allocate(size_t n) { return static_cast<T*>(buffer_allocate(n * sizeof(T))); }
  void deallocate(T* p, size_t) { std::free(p); }
  template <class U>
  void construct(U* p) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  template <class U>
  bool operator==(const UninitAllocator<U>&) const { return true; }
  template <class U>
  bool operator!=(const UninitAllocator<U>&) const { return false; }
};

template <class T>
using UninitBuffer = std::vector<T, UninitAllocator<T>>;

}  // namespace hifsim
