#include "tlm/run_tlm.hpp"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "tlm/common.hpp"
#include "tlm/matrix_unit.hpp"
#include "tlm/memory.hpp"
#include "util/error.hpp"

namespace hifsim::tlm_model {

using namespace sc_core;

namespace {

uint64_t f32_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

class Host : public sc_module {
 public:
  tlm_utils::simple_initiator_socket<Host> cfg;
  tlm_utils::simple_initiator_socket<Host> mem;
  sc_in<bool> irq;

  Host(sc_module_name n, const cfg::UnitConfig& u, const std::vector<perf::Job>& jobs, const perf::RunOptions& o,
       MatrixUnit& unit)
      : sc_module(n), cfg("cfg"), mem("mem"), irq("irq"), u_(u), jobs_(jobs), o_(o), unit_(unit) {
    SC_HAS_PROCESS(Host);
    SC_THREAD(program);
  }

  std::vector<perf::JobResult> results;
  std::string error;
  bool finished = false;

 private:
  void reg_access(uint64_t addr, uint64_t* v, bool write, sc_time& delay) {
    tlm::tlm_generic_payload p;
    p.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    p.set_address(addr);
    p.set_data_ptr(reinterpret_cast<unsigned char*>(v));
    p.set_data_length(8);
    p.set_streaming_width(8);
    p.set_byte_enable_ptr(nullptr);
    p.set_dmi_allowed(false);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    cfg->b_transport(p, delay);
    if (p.is_response_error())
      throw Error("host", "register 0x" + std::to_string(addr), "access failed: " + p.get_response_string());
  }
  void wr(uint64_t addr, uint64_t v, sc_time& d) { reg_access(addr, &v, true, d); }
  uint64_t rd(uint64_t addr, sc_time& d) {
    uint64_t v = 0;
    reg_access(addr, &v, false, d);
    return v;
  }
  void dbg(uint64_t addr, void* data, uint64_t n, bool write) {
    // transport_dbg moves at most 2^32 - 1 bytes per call.
    uint8_t* p8 = static_cast<uint8_t*>(data);
    while (n) {
      const uint64_t len = std::min<uint64_t>(n, 1u << 30);
      tlm::tlm_generic_payload p;
      p.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
      p.set_address(addr);
      p.set_data_ptr(p8);
      p.set_data_length(static_cast<unsigned>(len));
      if (mem->transport_dbg(p) != len)
        throw Error("host", "memory", "debug access outside memory.size_bytes at " + std::to_string(addr));
      addr += len;
      p8 += len;
      n -= len;
    }
  }

  void program() {
    try {
      for (size_t ji = 0; ji < jobs_.size(); ++ji) {
        const perf::Job& j = jobs_[ji];
        if (o_.progress) o_.progress("[" + std::to_string(ji + 1) + "/" + std::to_string(jobs_.size()) + "] " + j.name);
        const perf::JobLayout l = perf::layout_job(u_, j.M, j.N, j.K);
        perf::HostOperands ops;
        if (j.values) {
          if (!j.A || !j.B) throw Error("run", j.name, "values requested without operands");
          ops = perf::prepare_operands(u_, j.A, j.B, j.M, j.N, j.K, o_.threads);
          dbg(l.a, ops.a_image.data(), ops.a_image.size(), true);
          dbg(l.b, ops.b_image.data(), ops.b_image.size(), true);
          if (!ops.r_image.empty()) dbg(l.r, ops.r_image.data(), ops.r_image.size(), true);
        }
        const perf::GemmCommand c = perf::make_command(j, l, j.values ? &ops : nullptr);
        sc_time d = SC_ZERO_TIME;
        wr(reg::M, c.M, d);
        wr(reg::N, c.N, d);
        wr(reg::K, c.K, d);
        wr(reg::A_ADDR, c.a_addr, d);
        wr(reg::B_ADDR, c.b_addr, d);
        wr(reg::C_ADDR, c.c_addr, d);
        wr(reg::R_ADDR, c.r_addr, d);
        wr(reg::SCALE_A, f32_bits(c.a_scale), d);
        wr(reg::SCALE_B, f32_bits(c.b_scale), d);
        wr(reg::SCALE_R, f32_bits(c.r_scale), d);
        wr(reg::ENCODE_A, f32_bits(c.a_encode), d);
        wr(reg::FLAGS, c.values ? 1 : 0, d);
        wr(reg::CTRL, 1, d);
        wait(d);
        wait(irq.posedge_event());
        d = SC_ZERO_TIME;
        const uint64_t st = rd(reg::STATUS, d);
        wr(reg::STATUS, reg::STATUS_DONE | reg::STATUS_ERROR, d);
        wait(d);
        if (st & reg::STATUS_ERROR) throw Error(unit_.last_error());
        perf::JobResult r;
        r.report = unit_.last_report();
        r.report.name = j.name;
        r.report.instances = j.instances;
        r.report.simulated = 1;
        if (j.values) {
          std::vector<float> C(j.M * j.N);
          dbg(l.c, C.data(), C.size() * 4, false);
          r.report.checksum = perf::float_checksum(C.data(), C.size());
          if (j.keep_result) r.C = std::move(C);
        }
        results.push_back(std::move(r));
      }
    } catch (const std::exception& e) {
      error = e.what();
    }
    finished = true;
    // Returning lets sc_start() end: no events are left once the unit waits for a new command.
  }

  const cfg::UnitConfig& u_;
  const std::vector<perf::Job>& jobs_;
  const perf::RunOptions& o_;
  MatrixUnit& unit_;
};

bool g_used = false;

}  // namespace

struct Platform::Impl {
  std::unique_ptr<Memory> memory;
  std::unique_ptr<MatrixUnit> unit;
  std::unique_ptr<Host> host;
  sc_signal<bool> irq{"irq"};
  size_t njobs = 0;
};

Platform::Platform(const cfg::UnitConfig& u, const std::vector<perf::Job>& jobs, const perf::RunOptions& o)
    : p_(std::make_unique<Impl>()) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  bool any_values = false;
  for (const auto& j : jobs) any_values |= j.values;
  p_->njobs = jobs.size();
  p_->memory = std::make_unique<Memory>("memory", u.mem_bytes_per_cycle, u.mem_latency, u.mem_size, any_values);
  p_->unit = std::make_unique<MatrixUnit>("unit", u, o.threads);
  p_->unit->set_progress(o.step_progress);
  p_->host = std::make_unique<Host>("host", u, jobs, o, *p_->unit);
  p_->host->cfg.bind(p_->unit->cfg);
  p_->unit->mem.bind(p_->memory->socket);
  p_->host->mem.bind(p_->memory->socket);
  p_->unit->irq(p_->irq);
  p_->host->irq(p_->irq);
}

Platform::~Platform() = default;

bool Platform::done() const { return p_->host->finished; }

std::vector<perf::JobResult> Platform::results() {
  if (!p_->host->error.empty()) throw Error(p_->host->error);
  if (p_->host->results.size() != p_->njobs) throw Error("tlm", "run", "the host did not finish every job");
  return std::move(p_->host->results);
}

std::vector<perf::JobResult> run_tlm(const cfg::UnitConfig& u, const std::vector<perf::Job>& jobs,
                                     const perf::RunOptions& o) {
  if (g_used) throw Error("tlm", "elaboration", "run_tlm() runs once per process (SystemC cannot elaborate twice)");
  g_used = true;
  // Errors inside SystemC become exceptions (sc_report), caught below.
  sc_report_handler::set_actions(SC_ERROR, SC_DISPLAY | SC_THROW);
  Platform p(u, jobs, o);
  try {
    sc_start();
  } catch (const sc_report& e) {
    throw Error("systemc", "", e.what());
  }
  return p.results();
}

}  // namespace hifsim::tlm_model
