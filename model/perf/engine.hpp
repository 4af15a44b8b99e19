// The timing core of the matrix unit (plain C++, no SystemC): executes one GEMM command step by
// step -- DMA loads into double-buffered operand slots, PE-array steps, accumulator-buffer slots,
// stores -- with the recurrences of docs/tlm.md ("Timing equations"), moving real bytes through a
// MemoryPort and computing values with the ValueEngine.
//
// The SystemC/TLM model (model/tlm) runs this same engine inside its controller thread and gives
// it a MemoryPort whose transactions are TLM-2.0 generic payloads on the unit's initiator socket
// (b_transport with timing annotation in LT mode, nb_transport phases in AT mode); the plain
// PlainMemory port below serves the same transactions from a byte array with the same MemTimer,
// so both give identical cycles (tests/tlm checks it).
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <stdexcept>
#include <memory>
#include <string>
#include <vector>

#include "config/unit_config.hpp"
#include "perf/report.hpp"
#include "perf/tiling.hpp"
#include "perf/values.hpp"

namespace hifsim::perf {

// Memory timing: one data bus of `bytes_per_cycle`, a fixed `latency`, pipelined requests.
// A transaction of b bytes arriving at cycle t starts at s = max(t, bus_free), occupies the bus
// for beats = ceil(b / bytes_per_cycle) cycles (bus_free = s + beats) and completes at
// s + beats + latency (read data all delivered / write acknowledged).
struct MemTimer {
  uint64_t bytes_per_cycle = 1, latency = 0;
  uint64_t bus_free = 0;
  uint64_t access(uint64_t t, uint64_t bytes) {
    const uint64_t s = t > bus_free ? t : bus_free;
    if (bytes != last_bytes_) {  // the rows of a tile have one size: divide once per run of them
      last_bytes_ = bytes;
      last_beats_ = ceil_div(bytes, bytes_per_cycle);
    }
    bus_free = s + last_beats_;
    return bus_free + latency;
  }

 private:
  uint64_t last_bytes_ = 0, last_beats_ = 0;
};

struct Txn {
  uint64_t addr = 0;
  uint64_t bytes = 0;
  bool write = false;
  uint8_t* data = nullptr;  // nullptr in timing-only mode
};

// Where the DMA's transactions go. issue() is called in non-decreasing `cycle` order; completion()
// returns the cycle at which transaction `tag` completed (it may block until it has, in AT mode).
class MemoryPort {
 public:
  virtual ~MemoryPort() = default;
  virtual void issue(uint64_t cycle, const Txn& t, uint64_t tag) = 0;
  virtual uint64_t completion(uint64_t tag) = 0;
  // A port that knows a transaction's completion when it is issued (the plain memory) may say so;
  // the DMA then calls issue_now() instead of issue() + completion() (the fast path of timing-only
  // runs and of the tiling search).
  virtual bool completes_at_issue() const { return false; }
  virtual uint64_t issue_now(uint64_t /*cycle*/, const Txn& /*t*/) { throw std::logic_error("MemoryPort::issue_now"); }
  // A port whose transactions without data only advance a MemTimer may expose it (and check an
  // address range without a transaction): the DMA then times such rows inline.
  virtual MemTimer* timer() { return nullptr; }
  virtual void check_range(uint64_t /*addr*/, uint64_t /*bytes*/) const {}
};

// A plain memory: pages allocated on first write (reads of untouched bytes give zeros).
class ByteStore {
 public:
  void write(uint64_t addr, const uint8_t* src, uint64_t n);
  void read(uint64_t addr, uint8_t* dst, uint64_t n) const;

 private:
  static constexpr uint64_t kPage = 1 << 16;
  std::map<uint64_t, std::vector<uint8_t>> pages_;
};

class PlainMemory : public MemoryPort {
 public:
  PlainMemory(uint64_t bytes_per_cycle, uint64_t latency, uint64_t size, bool store_data);
  void issue(uint64_t cycle, const Txn& t, uint64_t tag) override;
  uint64_t completion(uint64_t tag) override;
  bool completes_at_issue() const override { return true; }
  uint64_t issue_now(uint64_t cycle, const Txn& t) override;
  MemTimer* timer() override { return &timer_; }
  void check_range(uint64_t addr, uint64_t bytes) const override;
  ByteStore& store() { return store_; }
  uint64_t reads = 0, writes = 0, read_bytes = 0, write_bytes = 0;

 private:
  MemTimer timer_;
  uint64_t size_;
  bool store_data_;
  ByteStore store_;
  std::deque<uint64_t> done_;  // completion cycles of tags first_tag_, first_tag_ + 1, ...
  uint64_t first_tag_ = 0;
};

class Engine {
 public:
  explicit Engine(const cfg::UnitConfig& u, unsigned threads = 0) : u_(u), threads_(threads) {}
  // Runs one GEMM command starting at cycle `start`. Returns the report (cycles relative to
  // start; checksum left empty: the host computes it from the result in memory) and sets *end
  // to the absolute cycle at which the last result was written.
  RunReport run(const GemmCommand& c, MemoryPort& port, uint64_t start, uint64_t* end);
  // The same with a given tiling (the tiling search simulates its candidates with it).
  RunReport run(const GemmCommand& c, const Tiling& t, MemoryPort& port, uint64_t start, uint64_t* end);
  // Called every few thousand steps (progress of long runs).
  std::function<void(uint64_t steps_done, uint64_t steps)> progress;
  // The tiling search stops a candidate early: once a step ends more than this many cycles after
  // the start, run() returns with cycles.total = UINT64_MAX (the memory port is left mid-command).
  uint64_t give_up_after = UINT64_MAX;

 private:
  const cfg::UnitConfig& u_;
  unsigned threads_;
};

}  // namespace hifsim::perf
