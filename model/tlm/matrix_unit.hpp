// The matrix unit as a TLM-2.0 component (docs/tlm.md): an R x C array of dot-product PEs with
// operand buffers, an accumulator buffer, optional quantizer and sparse-residual path, and a DMA.
//
//   cfg  tlm_utils::simple_target_socket: 64-bit registers (below); the host writes a command
//        and CTRL = 1; the unit raises `irq` when the GEMM is done (STATUS.done).
//   mem  tlm_utils::simple_initiator_socket: every operand and result byte moves through it as
//        generic-payload transactions (one per tile row, split at dma.burst_bytes).
//   irq  sc_out<bool>: high from the end of a command until STATUS is written (write 1 to clear).
//
// sim.mode lt (default): loosely timed -- b_transport with timing annotation and a
// tlm_quantumkeeper (quantum sim.quantum_cycles); the unit runs ahead of SystemC time by up to
// one quantum. sim.mode at: approximately timed -- nb_transport_fw/bw with BEGIN_REQ/END_REQ/
// BEGIN_RESP, the controller waits in SystemC time. Both give the same cycles (tests/tlm).
//
// Inside, one SC_THREAD (the controller) executes the command with perf::Engine (tiles, DMA queue,
// buffer slots, PE-array steps, accumulator slots; docs/tlm.md "Timing equations"), at tile and
// transaction granularity -- no per-cycle events -- and computes values from the bytes the DMA
// read (perf::ValueEngine, through model/datapath).
#pragma once
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include "config/unit_config.hpp"
#include "perf/engine.hpp"

namespace hifsim::tlm_model {

// Register map of the cfg socket (byte offsets; 8-byte registers, 4- or 8-byte aligned accesses).
namespace reg {
constexpr uint64_t CTRL = 0x00;      // W: 1 = start the programmed command
constexpr uint64_t STATUS = 0x08;    // R: bit0 busy, bit1 done, bit2 error; W: 1s clear done/error and irq
constexpr uint64_t M = 0x10, N = 0x18, K = 0x20;
constexpr uint64_t A_ADDR = 0x28, B_ADDR = 0x30, C_ADDR = 0x38, R_ADDR = 0x40;
constexpr uint64_t SCALE_A = 0x48, SCALE_B = 0x50, SCALE_R = 0x58, ENCODE_A = 0x60;  // FP32 bits
constexpr uint64_t FLAGS = 0x68;     // bit0: compute values (0 = timing only)
constexpr uint64_t CYCLES = 0x70;    // R: cycles of the last command
constexpr uint64_t SIZE = 0x78;
constexpr uint64_t STATUS_BUSY = 1, STATUS_DONE = 2, STATUS_ERROR = 4;
}  // namespace reg

class MatrixUnit : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<MatrixUnit> cfg;
  tlm_utils::simple_initiator_socket<MatrixUnit> mem;
  sc_core::sc_out<bool> irq;

  MatrixUnit(sc_core::sc_module_name name, const cfg::UnitConfig& u, unsigned threads = 0);
  ~MatrixUnit() override;

  // The report of the last command (cycles, stalls, bytes, actions) and its error message, if any.
  const perf::RunReport& last_report() const { return report_; }
  const std::string& last_error() const { return error_; }
  void set_progress(std::function<void(uint64_t, uint64_t)> f) { engine_.progress = std::move(f); }

  class LtPort;
  class AtPort;

 private:
  void cfg_b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& delay);
  void controller();

  const cfg::UnitConfig& u_;
  perf::Engine engine_;
  tlm_utils::tlm_quantumkeeper qk_;
  std::unique_ptr<perf::MemoryPort> port_;
  AtPort* at_ = nullptr;
  uint64_t regs_[reg::SIZE / 8] = {};
  sc_core::sc_event start_ev_;
  // irq is driven by one process (irq_driver); register writes and the controller set the level.
  bool irq_level_ = false;
  sc_core::sc_event irq_ev_;
  void set_irq(bool v) {
    irq_level_ = v;
    irq_ev_.notify(sc_core::SC_ZERO_TIME);
  }
  void irq_driver() { irq.write(irq_level_); }
  perf::RunReport report_;
  std::string error_;
};

}  // namespace hifsim::tlm_model
