#include "tlm/matrix_unit.hpp"

#include <cstring>

#include "tlm/common.hpp"
#include "util/error.hpp"

namespace hifsim::tlm_model {

using namespace sc_core;

namespace {
float f32_of(uint64_t r) {
  const uint32_t b = static_cast<uint32_t>(r);
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

void setup_payload(tlm::tlm_generic_payload& p, const perf::Txn& t, uint8_t* scratch) {
  p.set_command(t.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  p.set_address(t.addr);
  p.set_data_ptr(t.data ? t.data : scratch);
  p.set_data_length(static_cast<unsigned>(t.bytes));
  p.set_streaming_width(static_cast<unsigned>(t.bytes));
  p.set_byte_enable_ptr(nullptr);
  p.set_byte_enable_length(0);
  p.set_dmi_allowed(false);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

void check_response(const tlm::tlm_generic_payload& p) {
  if (p.is_response_error())
    throw Error("memory", "transaction at address " + std::to_string(p.get_address()),
                p.get_response_string() + " (is memory.size_bytes large enough?)");
}
}  // namespace

// ---- LT: b_transport with timing annotation, temporal decoupling with the quantum keeper ----
class MatrixUnit::LtPort : public perf::MemoryPort {
 public:
  LtPort(MatrixUnit& u, uint64_t burst) : u_(u), scratch_(burst) {}
  void issue(uint64_t cycle, const perf::Txn& t, uint64_t) override {
    const sc_time target = cycles(cycle);
    if (target > sc_time_stamp()) {
      u_.qk_.set(target - sc_time_stamp());
      if (u_.qk_.need_sync()) u_.qk_.sync();
    } else {
      u_.qk_.set(SC_ZERO_TIME);
    }
    sc_time delay = target > sc_time_stamp() ? target - sc_time_stamp() : SC_ZERO_TIME;
    setup_payload(p_, t, scratch_.data());
    u_.mem->b_transport(p_, delay);
    check_response(p_);
    done_.push_back(to_cycles(sc_time_stamp() + delay));
  }
  uint64_t completion(uint64_t) override {
    const uint64_t d = done_.front();
    done_.pop_front();
    return d;
  }

 private:
  MatrixUnit& u_;
  tlm::tlm_generic_payload p_;
  std::vector<uint8_t> scratch_;
  std::deque<uint64_t> done_;
};

// ---- AT: nb_transport phases; several transactions in flight ----
class MatrixUnit::AtPort : public perf::MemoryPort {
 public:
  AtPort(MatrixUnit& u, uint64_t burst) : u_(u), scratch_(burst) {}
  struct Slot {
    tlm::tlm_generic_payload p;
    uint64_t done = 0;
    bool responded = false;
  };
  void issue(uint64_t cycle, const perf::Txn& t, uint64_t tag) override {
    const sc_time target = cycles(cycle);
    if (target > sc_time_stamp()) sc_core::wait(target - sc_time_stamp());
    Slot* s;
    if (free_.empty()) {
      pool_.push_back(std::make_unique<Slot>());
      s = pool_.back().get();
    } else {
      s = free_.back();
      free_.pop_back();
    }
    s->responded = false;
    setup_payload(s->p, t, scratch_.data());
    by_tag_[tag] = s;
    by_payload_[&s->p] = s;
    tlm::tlm_phase ph = tlm::BEGIN_REQ;
    sc_time d = SC_ZERO_TIME;
    const tlm::tlm_sync_enum r = u_.mem->nb_transport_fw(s->p, ph, d);
    if (r == tlm::TLM_COMPLETED) {
      s->done = to_cycles(sc_time_stamp() + d);
      s->responded = true;
    } else if (r == tlm::TLM_ACCEPTED || ph == tlm::BEGIN_REQ) {
      while (!end_req_) sc_core::wait(end_req_ev_);  // request exclusion rule: wait for END_REQ
    }
    end_req_ = false;
  }
  uint64_t completion(uint64_t tag) override {
    Slot* s = by_tag_.at(tag);
    while (!s->responded) sc_core::wait(resp_ev_);
    by_tag_.erase(tag);
    by_payload_.erase(&s->p);
    check_response(s->p);
    free_.push_back(s);
    return s->done;
  }
  tlm::tlm_sync_enum bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_time& d) {
    if (ph == tlm::END_REQ) {
      end_req_ = true;
      end_req_ev_.notify(d);
      return tlm::TLM_ACCEPTED;
    }
    if (ph == tlm::BEGIN_RESP) {
      Slot* s = by_payload_.at(&p);
      s->done = to_cycles(sc_time_stamp() + d);
      s->responded = true;
      resp_ev_.notify(d);
      return tlm::TLM_COMPLETED;
    }
    return tlm::TLM_ACCEPTED;
  }

 private:
  MatrixUnit& u_;
  std::vector<uint8_t> scratch_;
  std::vector<std::unique_ptr<Slot>> pool_;
  std::vector<Slot*> free_;
  std::map<uint64_t, Slot*> by_tag_;
  std::map<tlm::tlm_generic_payload*, Slot*> by_payload_;
  bool end_req_ = false;
  sc_event end_req_ev_, resp_ev_;
};

MatrixUnit::MatrixUnit(sc_module_name name, const cfg::UnitConfig& u, unsigned threads)
    : sc_module(name), cfg("cfg"), mem("mem"), irq("irq"), u_(u), engine_(u, threads) {
  cfg.register_b_transport(this, &MatrixUnit::cfg_b_transport);
  mem.register_nb_transport_bw(this, &MatrixUnit::nb_transport_bw);
  tlm::tlm_global_quantum::instance().set(cycles(u.quantum_cycles));
  qk_.reset();
  if (u.mode == cfg::SimMode::at) {
    auto p = std::make_unique<AtPort>(*this, u.burst_bytes);
    at_ = p.get();
    port_ = std::move(p);
  } else {
    port_ = std::make_unique<LtPort>(*this, u.burst_bytes);
  }
  SC_HAS_PROCESS(MatrixUnit);
  SC_THREAD(controller);
  SC_METHOD(irq_driver);
  sensitive << irq_ev_;
  dont_initialize();
}

MatrixUnit::~MatrixUnit() = default;

tlm::tlm_sync_enum MatrixUnit::nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_time& d) {
  if (!at_) {
    SC_REPORT_ERROR("hifsim/unit", "nb_transport_bw in LT mode");
    return tlm::TLM_COMPLETED;
  }
  return at_->bw(t, ph, d);
}

void MatrixUnit::cfg_b_transport(tlm::tlm_generic_payload& t, sc_time& delay) {
  const uint64_t a = t.get_address();
  const unsigned n = t.get_data_length();
  delay += cycles(1);  // one cycle per register access
  if ((n != 4 && n != 8) || a % n != 0 || a + n > reg::SIZE || t.get_byte_enable_ptr()) {
    t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  const uint64_t idx = a / 8, shift = (a % 8) * 8;
  const uint64_t mask = n == 8 ? ~uint64_t{0} : (uint64_t{0xFFFFFFFF} << shift);
  if (t.is_read()) {
    const uint64_t v = (regs_[idx] & mask) >> shift;
    std::memcpy(t.get_data_ptr(), &v, n);
  } else if (t.is_write()) {
    uint64_t v = 0;
    std::memcpy(&v, t.get_data_ptr(), n);
    v <<= shift;
    const bool busy = regs_[reg::STATUS / 8] & reg::STATUS_BUSY;
    if (idx == reg::STATUS / 8) {
      regs_[idx] &= ~(v & (reg::STATUS_DONE | reg::STATUS_ERROR));
      if (!(regs_[idx] & reg::STATUS_DONE)) set_irq(false);
    } else if (idx == reg::CTRL / 8) {
      if (v & 1) {
        if (busy) {
          t.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
          return;
        }
        regs_[reg::STATUS / 8] = reg::STATUS_BUSY;
        set_irq(false);
        // The command starts when the write takes effect (LT: at the annotated time).
        start_ev_.notify(delay);
      }
    } else if (idx == reg::CYCLES / 8) {
      // read-only
    } else {
      if (busy) {
        t.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return;
      }
      regs_[idx] = (regs_[idx] & ~mask) | (v & mask);
    }
  }
  t.set_response_status(tlm::TLM_OK_RESPONSE);
}

void MatrixUnit::controller() {
  for (;;) {
    wait(start_ev_);
    qk_.reset();
    perf::GemmCommand c;
    c.M = regs_[reg::M / 8];
    c.N = regs_[reg::N / 8];
    c.K = regs_[reg::K / 8];
    c.a_addr = regs_[reg::A_ADDR / 8];
    c.b_addr = regs_[reg::B_ADDR / 8];
    c.c_addr = regs_[reg::C_ADDR / 8];
    c.r_addr = regs_[reg::R_ADDR / 8];
    c.a_scale = f32_of(regs_[reg::SCALE_A / 8]);
    c.b_scale = f32_of(regs_[reg::SCALE_B / 8]);
    c.r_scale = f32_of(regs_[reg::SCALE_R / 8]);
    c.a_encode = f32_of(regs_[reg::ENCODE_A / 8]);
    c.values = regs_[reg::FLAGS / 8] & 1;
    const uint64_t t0 = now_cycles();
    uint64_t end = t0;
    error_.clear();
    try {
      report_ = engine_.run(c, *port_, t0, &end);
    } catch (const std::exception& e) {
      error_ = e.what();
      report_ = perf::RunReport();
      end = std::max(end, u_.mode == cfg::SimMode::lt ? to_cycles(sc_time_stamp() + qk_.get_local_time()) : now_cycles());
    }
    // Signal completion at the command's end time.
    if (cycles(end) > sc_time_stamp()) {
      if (u_.mode == cfg::SimMode::lt) {
        qk_.set(cycles(end) - sc_time_stamp());
        qk_.sync();
      } else {
        wait(cycles(end) - sc_time_stamp());
      }
    }
    regs_[reg::CYCLES / 8] = report_.cycles.total;
    regs_[reg::STATUS / 8] = reg::STATUS_DONE | (error_.empty() ? 0 : reg::STATUS_ERROR);
    set_irq(true);
  }
}

}  // namespace hifsim::tlm_model
