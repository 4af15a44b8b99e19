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
#include <functional>
#include <map>
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
    bus_free = s + ceil_div(bytes, bytes_per_cycle);
    return bus_free + latency;
  }
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
  ByteStore& store() { return store_; }
  uint64_t reads = 0, writes = 0, read_bytes = 0, write_bytes = 0;

 private:
  MemTimer timer_;
  uint64_t size_;
  bool store_data_;
  ByteStore store_;
  std::map<uint64_t, uint64_t> done_;
};

class Engine {
 public:
  explicit Engine(const cfg::UnitConfig& u, unsigned threads = 0) : u_(u), threads_(threads) {}
  // Runs one GEMM command starting at cycle `start`. Returns the report (cycles relative to
  // start; checksum left empty: the host computes it from the result in memory) and sets *end
  // to the absolute cycle at which the last result was written.
  RunReport run(const GemmCommand& c, MemoryPort& port, uint64_t start, uint64_t* end);
  // Called every few thousand steps (progress of long runs).
  std::function<void(uint64_t steps_done, uint64_t steps)> progress;

 private:
  const cfg::UnitConfig& u_;
  unsigned threads_;
};

}  // namespace hifsim::perf
