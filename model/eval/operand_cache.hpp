// Trace operands read once per run: the accuracy phase, the activity samples of every unit and
// the dot-unit comparison of `hifsim compare` all take an op's tensors from one cache instead of
// reading the .npy files again (issue 13). Thread-safe: concurrent requests for one tensor read
// it once; the others wait for it.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>

#include "io/trace.hpp"

namespace hifsim::eval {

class OperandCache {
 public:
  explicit OperandCache(const io::Trace& t) : trace_(t) {}
  // Operand `which` ("a", "b", "c_ref") of batch element bi of op (an op of this cache's trace).
  // The reference stays valid for the cache's lifetime.
  const io::Operand& get(const io::TraceOp& op, const std::string& which, uint64_t bi);
  // Drops an op's tensors (when no later phase needs them).
  void release(const io::TraceOp& op);
  uint64_t reads() const { return reads_; }  // tensor files read so far

 private:
  using Key = std::tuple<std::string, std::string, uint64_t>;
  struct Slot {
    std::unique_ptr<io::Operand> value;
    bool loading = false;
  };
  const io::Trace& trace_;
  std::mutex mu_;
  std::condition_variable ready_;
  std::map<Key, Slot> slots_;
  uint64_t reads_ = 0;
};

}  // namespace hifsim::eval
