#include "tlm/memory.hpp"

#include "tlm/common.hpp"

namespace hifsim::tlm_model {

using namespace sc_core;

Memory::Memory(sc_module_name name, uint64_t bytes_per_cycle, uint64_t latency, uint64_t size, bool store_data)
    : sc_module(name), socket("socket"), size_(size), store_data_(store_data), peq_(this, &Memory::peq_cb) {
  timer_.bytes_per_cycle = bytes_per_cycle;
  timer_.latency = latency;
  socket.register_b_transport(this, &Memory::b_transport);
  socket.register_nb_transport_fw(this, &Memory::nb_transport_fw);
  socket.register_transport_dbg(this, &Memory::transport_dbg);
}

bool Memory::access(tlm::tlm_generic_payload& t) {
  const uint64_t a = t.get_address(), n = t.get_data_length();
  if (t.get_byte_enable_ptr()) {
    t.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return false;
  }
  if (t.get_streaming_width() < n) {
    t.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return false;
  }
  if (a + n > size_ || a + n < a) {
    t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  if (t.is_write()) {
    if (store_data_) store_.write(a, t.get_data_ptr(), n);
    ++writes;
    write_bytes += n;
  } else if (t.is_read()) {
    if (store_data_) store_.read(a, t.get_data_ptr(), n);
    ++reads;
    read_bytes += n;
  }
  t.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

void Memory::b_transport(int, tlm::tlm_generic_payload& t, sc_time& delay) {
  const uint64_t arrival = to_cycles(sc_time_stamp() + delay);
  if (!access(t)) return;
  const uint64_t done = timer_.access(arrival, t.get_data_length());
  delay = cycles(done) - sc_time_stamp();
}

tlm::tlm_sync_enum Memory::nb_transport_fw(int id, tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_time& delay) {
  if (ph == tlm::END_RESP) return tlm::TLM_COMPLETED;
  if (ph != tlm::BEGIN_REQ) {
    SC_REPORT_ERROR("hifsim/memory", "unexpected phase on nb_transport_fw");
    return tlm::TLM_COMPLETED;
  }
  const uint64_t arrival = to_cycles(sc_time_stamp() + delay);
  uint64_t done = arrival;
  if (access(t)) done = timer_.access(arrival, t.get_data_length());
  initiator_of_[&t] = id;
  // The request is accepted at once (the memory queues it); the response follows at `done`.
  peq_.notify(t, tlm::BEGIN_RESP, cycles(done) - sc_time_stamp());
  ph = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}

void Memory::peq_cb(tlm::tlm_generic_payload& t, const tlm::tlm_phase& ph) {
  if (ph != tlm::BEGIN_RESP) return;
  const int id = initiator_of_[&t];
  initiator_of_.erase(&t);
  tlm::tlm_phase p = tlm::BEGIN_RESP;
  sc_time d = SC_ZERO_TIME;
  socket[id]->nb_transport_bw(t, p, d);  // the initiator completes the transaction (or sends END_RESP)
}

unsigned Memory::transport_dbg(int, tlm::tlm_generic_payload& t) {
  const uint64_t a = t.get_address(), n = t.get_data_length();
  if (a + n > size_ || a + n < a) return 0;
  if (t.is_write()) store_.write(a, t.get_data_ptr(), n);
  else if (t.is_read()) store_.read(a, t.get_data_ptr(), n);
  return static_cast<unsigned>(n);
}

}  // namespace hifsim::tlm_model
