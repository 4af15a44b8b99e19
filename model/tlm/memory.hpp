// The memory target of the matrix-unit virtual platform: a TLM-2.0 target (generic payload,
// base protocol) with a data bus of `bytes_per_cycle` and a fixed `latency` (perf::MemTimer, the
// same timing the plain engine uses), byte storage allocated on demand, and any number of
// initiators (multi_passthrough_target_socket: the matrix unit's DMA, the host).
//
//   LT: b_transport -- the transaction arrives at sc_time_stamp() + delay; the returned delay is
//       its completion (start on the free bus + beats + latency) minus sc_time_stamp().
//   AT: nb_transport_fw(BEGIN_REQ) is accepted at once (TLM_UPDATED, END_REQ); BEGIN_RESP follows
//       on the backward path at the completion time (a payload event queue).
//   transport_dbg: zero-time reads and writes (the host loads operands and reads results).
// One cycle is 1 ns of SystemC time (model/tlm/common.hpp).
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/peq_with_cb_and_phase.h>

#include "perf/engine.hpp"

namespace hifsim::tlm_model {

class Memory : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Memory> socket;

  Memory(sc_core::sc_module_name name, uint64_t bytes_per_cycle, uint64_t latency, uint64_t size, bool store_data);

  perf::ByteStore& store() { return store_; }
  uint64_t reads = 0, writes = 0, read_bytes = 0, write_bytes = 0;

 private:
  void b_transport(int id, tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_fw(int id, tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& delay);
  unsigned transport_dbg(int id, tlm::tlm_generic_payload& t);
  void peq_cb(tlm::tlm_generic_payload& t, const tlm::tlm_phase& ph);
  // Checks, moves the data, counts; returns false (and sets the response status) on an error.
  bool access(tlm::tlm_generic_payload& t);

  perf::MemTimer timer_;
  uint64_t size_;
  bool store_data_;
  perf::ByteStore store_;
  tlm_utils::peq_with_cb_and_phase<Memory> peq_;
  std::map<tlm::tlm_generic_payload*, int> initiator_of_;
};

}  // namespace hifsim::tlm_model
