// Running GEMMs through the SystemC/TLM model: a small virtual platform of
//
//   Host ---cfg (registers)---> MatrixUnit ---mem---> Memory
//     \______________debug loads / result reads______/
//
// The Host (an SC_THREAD) loads each job's operands into the memory with transport_dbg (as a
// testbench loads a program), programs the unit's registers with b_transport, starts it, waits
// for the irq, clears it, reads C back and checksums it. Jobs run one after another.
//
// SystemC cannot elaborate twice in one process: run_tlm() may be called once per process (a
// second call throws hifsim::Error). Tests therefore run one TEST per process (gtest_discover_tests).
#pragma once
#include <memory>
#include <vector>

#include "config/unit_config.hpp"
#include "perf/runner.hpp"

namespace hifsim::tlm_model {

// Elaborates and runs the platform for the jobs: sc_start() inside. Once per process.
std::vector<perf::JobResult> run_tlm(const cfg::UnitConfig& u, const std::vector<perf::Job>& jobs,
                                     const perf::RunOptions& o = {});

// The platform as modules, for a caller that elaborates more next to it (e.g. the RTL
// calibration harness runs the Verilated RTL top in the same simulation) and calls sc_start()
// itself. `u`, `jobs` and `o` must outlive it.
class Platform {
 public:
  Platform(const cfg::UnitConfig& u, const std::vector<perf::Job>& jobs, const perf::RunOptions& o = {});
  ~Platform();
  // True once the host has run every job (or failed).
  bool done() const;
  // After sc_start(): the results (throws hifsim::Error if the host failed).
  std::vector<perf::JobResult> results();

 private:
  struct Impl;
  std::unique_ptr<Impl> p_;
};

}  // namespace hifsim::tlm_model
