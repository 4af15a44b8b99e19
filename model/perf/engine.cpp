#include "perf/engine.hpp"

#include <algorithm>
#include <cstring>
#include <deque>
#include <limits>
#include <unordered_map>

#include "perf/array_timing.hpp"
#include "perf/autotile.hpp"
#include "perf/schedule.hpp"
#include "util/error.hpp"

namespace hifsim::perf {

// ---------------------------------------------------------------------------------------------
// ByteStore / PlainMemory

void ByteStore::write(uint64_t addr, const uint8_t* src, uint64_t n) {
  while (n) {
    const uint64_t page = addr / kPage, off = addr % kPage, len = std::min(n, kPage - off);
    auto& p = pages_[page];
    if (p.empty()) p.assign(kPage, 0);
    std::memcpy(p.data() + off, src, len);
    addr += len;
    src += len;
    n -= len;
  }
}

void ByteStore::read(uint64_t addr, uint8_t* dst, uint64_t n) const {
  while (n) {
    const uint64_t page = addr / kPage, off = addr % kPage, len = std::min(n, kPage - off);
    auto it = pages_.find(page);
    if (it == pages_.end()) std::memset(dst, 0, len);
    else std::memcpy(dst, it->second.data() + off, len);
    addr += len;
    dst += len;
    n -= len;
  }
}

PlainMemory::PlainMemory(uint64_t bytes_per_cycle, uint64_t latency, uint64_t size, bool store_data)
    : size_(size), store_data_(store_data) {
  timer_.bytes_per_cycle = bytes_per_cycle;
  timer_.latency = latency;
}

void PlainMemory::issue(uint64_t cycle, const Txn& t, uint64_t tag) {
  if (done_.empty()) first_tag_ = tag;  // a new command numbers its transactions from 0 again
  if (tag != first_tag_ + done_.size()) throw std::logic_error("PlainMemory: transaction tags out of order");
  done_.push_back(issue_now(cycle, t));
}

void PlainMemory::check_range(uint64_t addr, uint64_t bytes) const {
  if (addr + bytes > size_ || addr + bytes < addr)
    throw Error("memory", "address", "transaction [" + std::to_string(addr) + ", +" + std::to_string(bytes) +
                                         ") is outside memory.size_bytes " + std::to_string(size_));
}

uint64_t PlainMemory::issue_now(uint64_t cycle, const Txn& t) {
  check_range(t.addr, t.bytes);
  if (store_data_ && t.data) {
    if (t.write) store_.write(t.addr, t.data, t.bytes);
    else store_.read(t.addr, t.data, t.bytes);
  }
  if (t.write) {
    ++writes;
    write_bytes += t.bytes;
  } else {
    ++reads;
    read_bytes += t.bytes;
  }
  return timer_.access(cycle, t.bytes);
}

uint64_t PlainMemory::completion(uint64_t tag) {
  // The DMA asks for completions in issue order (tests/tlm checks the cycles against the TLM port).
  if (tag != first_tag_ || done_.empty()) throw std::logic_error("PlainMemory: completion out of order");
  const uint64_t d = done_.front();
  done_.pop_front();
  ++first_tag_;
  return d;
}

// ---------------------------------------------------------------------------------------------
namespace {

constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

// A transfer job of the DMA: the rows of one tile (load) or one output tile (store).
struct Job {
  uint64_t last_tag = kNever;   // last transaction (completions are in issue order)
  uint64_t mem_done = kNever;   // completion of the last transaction, once resolved
  uint64_t quant_end = 0;       // quantizer finishes (A loads with the quantizer)
  bool quant = false;
  bool issued = false;
};

// The in-order DMA: transactions leave in enqueue order, at most `outstanding` in flight.
class Dma {
 public:
  Dma(const cfg::UnitConfig& u, MemoryPort& port, Actions& act, uint64_t start)
      : u_(u),
        port_(port),
        // Counters looked up once: this is the per-transaction path.
        descriptors_(act["dma.descriptors"]),
        bytes_{&act["dma.read_bytes"], &act["dma.write_bytes"]},
        txns_{&act["memory.reads"], &act["memory.writes"]},
        txn_bytes_{&act["memory.read_bytes"], &act["memory.write_bytes"]},
        ring_(u.outstanding, 0),
        immediate_(port.completes_at_issue()),
        issue_free_(start) {}

  void begin(Job& j, uint64_t earliest) {
    cur_ = &j;
    earliest_ = earliest;
    first_issue_ = kNever;
  }
  // One row of a transfer, split into bursts.
  void row(uint64_t addr, uint64_t bytes, bool write, uint8_t* data) {
    descriptors_ += 1;
    *bytes_[write] += bytes;
    while (bytes) {
      const uint64_t b = std::min(bytes, u_.burst_bytes);
      uint64_t q = std::max(issue_free_, earliest_);
      // ring_[pos_] holds the completion of transaction next_tag_ - outstanding (the slot it frees).
      if (next_tag_ >= u_.outstanding) {
        if (!immediate_) resolve_to(next_tag_ - u_.outstanding);
        q = std::max(q, ring_[pos_]);
      }
      Txn t;
      t.addr = addr;
      t.bytes = b;
      t.write = write;
      t.data = data;
      if (immediate_) {
        // Completions are in issue order, so the job's last transaction is its completion.
        cur_->mem_done = ring_[pos_] = port_.issue_now(q, t);
      } else {
        port_.issue(q, t, next_tag_);
      }
      *txns_[write] += 1;
      *txn_bytes_[write] += b;
      if (first_issue_ == kNever) first_issue_ = q;
      cur_->last_tag = next_tag_++;
      pos_ = pos_ + 1 == ring_.size() ? 0 : pos_ + 1;
      issue_free_ = q;
      addr += b;
      bytes -= b;
      if (data) data += b;
    }
  }
  // n rows of `bytes` each at addr, addr + stride, ... (data: row i at data + i * data_stride).
  void rows(uint64_t n, uint64_t addr, uint64_t stride, uint64_t bytes, bool write, uint8_t* data, uint64_t data_stride) {
    if (n == 0) return;
    MemTimer* timer = data ? nullptr : port_.timer();
    if (!timer) {
      for (uint64_t i = 0; i < n; ++i) row(addr + i * stride, bytes, write, data ? data + i * data_stride : nullptr);
      return;
    }
    // Timing only on a plain memory: the same recurrence as row() + PlainMemory, without the
    // per-transaction calls (the tiling search simulates many candidates).
    port_.check_range(addr + (n - 1) * stride, bytes);
    const uint64_t bursts = ceil_div(bytes, u_.burst_bytes);
    descriptors_ += n;
    *bytes_[write] += n * bytes;
    *txns_[write] += n * bursts;
    *txn_bytes_[write] += n * bytes;
    const uint64_t O = u_.outstanding;
    for (uint64_t i = 0; i < n; ++i)
      for (uint64_t left = bytes; left;) {
        const uint64_t b = std::min(left, u_.burst_bytes);
        uint64_t q = std::max(issue_free_, earliest_);
        if (next_tag_ >= O) q = std::max(q, ring_[pos_]);
        ring_[pos_] = timer->access(q, b);
        if (first_issue_ == kNever) first_issue_ = q;
        issue_free_ = q;
        ++next_tag_;
        pos_ = pos_ + 1 == ring_.size() ? 0 : pos_ + 1;
        left -= b;
      }
    cur_->mem_done = ring_[(pos_ == 0 ? ring_.size() : pos_) - 1];
    cur_->last_tag = next_tag_ - 1;
  }
  // Closes the job; `quant_blocks` > 0: the quantizer processes that many blocks as the data
  // streams in.
  void end(uint64_t quant_blocks) {
    if (quant_blocks) {
      const uint64_t qs = std::max(first_issue_, quant_free_);
      quant_free_ = qs + ceil_div(quant_blocks, u_.quant_blocks_per_cycle);
      cur_->quant = true;
      cur_->quant_end = quant_free_;
    }
    cur_->issued = true;
    if (!immediate_ && cur_->last_tag != kNever) want_[cur_->last_tag] = cur_;
    cur_ = nullptr;
  }
  // Cycle at which a job's data is in its buffer (loads) or in memory (stores).
  uint64_t ready(Job& j) {
    if (!j.issued) throw std::logic_error("Dma: job not issued");
    if (j.mem_done == kNever) {
      if (j.last_tag == kNever) return 0;
      resolve_to(j.last_tag);
    }
    uint64_t r = j.mem_done;
    if (j.quant) r = std::max(r, j.quant_end) + u_.quant_latency;
    return r;
  }
  void finish() {
    if (!immediate_ && next_tag_) resolve_to(next_tag_ - 1);
  }

 private:
  void resolve_to(uint64_t tag) {
    while (resolved_ <= tag) {
      const uint64_t d = port_.completion(resolved_);
      ring_[resolved_ % ring_.size()] = d;
      auto it = want_.find(resolved_);
      if (it != want_.end()) {
        it->second->mem_done = d;
        want_.erase(it);
      }
      ++resolved_;
    }
  }

  const cfg::UnitConfig& u_;
  MemoryPort& port_;
  uint64_t& descriptors_;
  uint64_t* bytes_[2];
  uint64_t* txns_[2];
  uint64_t* txn_bytes_[2];
  std::vector<uint64_t> ring_;    // completion cycles of the last `outstanding` transactions
  size_t pos_ = 0;                // next_tag_ % outstanding
  bool immediate_;
  std::unordered_map<uint64_t, Job*> want_;
  uint64_t issue_free_;
  uint64_t next_tag_ = 0, resolved_ = 0;
  uint64_t quant_free_ = 0;
  Job* cur_ = nullptr;
  uint64_t earliest_ = 0, first_issue_ = kNever;
};

// Block-scale operations of a W-wide dot: one per scale block, one for the unit scales of
// plain FP8 (the MXFP8 unit with scales fixed to 2^0), none for element-wise formats.
uint64_t scale_ops_per_dot(fmt::Format f, uint64_t W) {
  const fmt::FormatInfo& info = fmt::format_info(f);
  if (info.block > 1) return W / info.block;
  return fmt::format_traits(f).unit_scales ? 1 : 0;
}

}  // namespace

RunReport Engine::run(const GemmCommand& c, MemoryPort& port, uint64_t start, uint64_t* end) {
  return run(c, choose_tiling(u_, c.M, c.N, c.K), port, start, end);
}

RunReport Engine::run(const GemmCommand& c, const Tiling& tiling, MemoryPort& port, uint64_t start, uint64_t* end) {
  const cfg::UnitConfig& u = u_;
  const Schedule sc = build_schedule(u, tiling);
  const Tiling& t = sc.t;
  const uint64_t W = t.W, R = u.rows, C = u.cols;
  const uint64_t steps = t.steps();
  RunReport rep;
  rep.M = c.M;
  rep.N = c.N;
  rep.K = c.K;
  rep.macs = c.M * c.N * c.K;
  rep.peak_macs_per_cycle = u.peak_macs_per_cycle();
  rep.values = c.values;
  rep.tiling = {t.mt, t.nt, t.kt, t.tm, t.tn, t.tk, steps, t.order()};
  Actions& act = rep.actions;
  // Counters looked up once (the step loop runs per step).
  uint64_t& n_quantizer_blocks = act["quantizer.blocks"];
  uint64_t& n_quantizer_residual_blocks = act["quantizer.residual_blocks"];
  uint64_t& n_buffer_a_writes = act["buffer_a.writes"];
  uint64_t& n_buffer_a_write_bytes = act["buffer_a.write_bytes"];
  uint64_t& n_buffer_b_writes = act["buffer_b.writes"];
  uint64_t& n_buffer_b_write_bytes = act["buffer_b.write_bytes"];
  uint64_t& n_pe_dot_ops = act["pe.dot_ops"];
  uint64_t& n_pe_macs = act["pe.macs"];
  uint64_t& n_pe_scale_ops = act["pe.scale_ops"];
  uint64_t& n_residual_dot_ops = act["residual.dot_ops"];
  uint64_t& n_residual_products = act["residual.products"];
  uint64_t& n_acc_adds = act["acc.adds"];
  uint64_t& n_pe_idle_slots = act["pe.idle_slots"];
  uint64_t& n_buffer_a_reads = act["buffer_a.reads"];
  uint64_t& n_buffer_a_read_bytes = act["buffer_a.read_bytes"];
  uint64_t& n_buffer_b_reads = act["buffer_b.reads"];
  uint64_t& n_buffer_b_read_bytes = act["buffer_b.read_bytes"];
  uint64_t& n_acc_loads = act["acc.loads"];
  uint64_t& n_buffer_acc_reads = act["buffer_acc.reads"];
  uint64_t& n_buffer_acc_writes = act["buffer_acc.writes"];
  uint64_t& n_array_weight_loads = act["array.weight_loads"];
  uint64_t& n_acc_epilogue_muls = act["acc.epilogue_muls"];
  uint64_t& n_acc_residual_adds = act["acc.residual_adds"];

  const uint32_t a_slots = u.a.slots(), b_slots = u.b.slots(), acc_slots = u.acc_buf.slots();
  // Slot storage (value mode only).
  const uint64_t a_row_mem = u.quantizer ? t.kt * u.quant_input_bytes() : u.row_bytes(t.kt);
  const uint64_t a_slot_bytes = t.mt * a_row_mem * (u.residual && !u.quantizer ? 2 : 1);
  const uint64_t b_slot_bytes = t.nt * u.row_bytes(t.kt);
  std::vector<std::vector<uint8_t>> a_store, b_store;
  std::vector<std::vector<float>> acc_store;
  if (c.values) {
    a_store.assign(a_slots, std::vector<uint8_t>(a_slot_bytes));
    b_store.assign(b_slots, std::vector<uint8_t>(b_slot_bytes));
    acc_store.assign(acc_slots, std::vector<float>(t.mt * t.nt));
  }
  std::unique_ptr<ValueEngine> values;
  if (c.values) values = std::make_unique<ValueEngine>(u, t, c, threads_);

  Dma dma(u, port, act, start);
  std::vector<Job> jobs(sc.jobs.size());
  const uint64_t rowb_kp = u.row_bytes(t.Kp);
  auto issue_load = [&](size_t ji, uint64_t earliest) {
    const DmaJob& dj = sc.jobs[ji];
    const Step s = step_at(t, dj.step);
    if (dj.kind == DmaJob::load_a) {
      uint8_t* base = c.values ? a_store[dj.slot].data() : nullptr;
      dma.begin(jobs[ji], earliest);
      const uint64_t blocks = s.ml * (s.kl / W);
      if (u.quantizer) {
        const uint64_t ib = u.quant_input_bytes();
        dma.rows(s.ml, c.a_addr + (s.m0 * t.Kp + s.k0) * ib, t.Kp * ib, s.kl * ib, false, base, s.kl * ib);
        n_quantizer_blocks += blocks;
        if (u.residual) n_quantizer_residual_blocks += blocks;
        dma.end(blocks * (u.residual ? 2 : 1));
      } else {
        const uint64_t rb = u.row_bytes(s.kl), off = u.row_bytes(s.k0);
        dma.rows(s.ml, c.a_addr + s.m0 * rowb_kp + off, rowb_kp, rb, false, base, rb);
        if (u.residual)
          dma.rows(s.ml, c.r_addr + s.m0 * rowb_kp + off, rowb_kp, rb, false, base ? base + s.ml * rb : nullptr, rb);
        dma.end(0);
      }
      const uint64_t nreg = u.residual ? 2 : 1;
      n_buffer_a_writes += blocks * nreg;
      n_buffer_a_write_bytes += s.ml * u.row_bytes(s.kl) * nreg;
    } else {
      uint8_t* base = c.values ? b_store[dj.slot].data() : nullptr;
      const uint64_t rb = u.row_bytes(s.kl), off = u.row_bytes(s.k0);
      dma.begin(jobs[ji], earliest);
      dma.rows(s.nl, c.b_addr + s.n0 * rowb_kp + off, rowb_kp, rb, false, base, rb);
      dma.end(0);
      n_buffer_b_writes += s.nl * (s.kl / W);
      n_buffer_b_write_bytes += s.nl * rb;
    }
  };

  size_t qi = 0;
  while (qi < sc.jobs.size() && sc.jobs[qi].trigger < 0) issue_load(qi++, start);

  const uint64_t tail = output_tail(u);
  const bool fused = u.residual && u.residual_spec.mode == dp::ResidualMode::fused;
  const bool unfused = u.residual && !fused;
  const uint64_t sops = scale_ops_per_dot(u.format, W);
  const bool sparse = u.residual && u.residual_spec.kind == dp::ResidualKind::sparse24;
  uint64_t e_prev = start, first_wait = 0, wait = 0;
  ArrayHistory hist;
  for (uint64_t i = 0; i < steps; ++i) {
    const Step s = step_at(t, i);
    const uint32_t ja = sc.a_job[i], jb = sc.b_job[i];
    uint64_t ready = dma.ready(jobs[ja]);
    if (s.first && s.out >= acc_slots) ready = std::max(ready, dma.ready(jobs[sc.store_job[s.out - acc_slots]]));
    const StepTime st = time_step(u, t, s, e_prev, ready, dma.ready(jobs[jb]), hist);
    // Waiting for data (tiles, a free accumulator slot) is memory time, before the first step too;
    // only the memory latency of the first data counts as fill (see finish below).
    if (i == 0) first_wait = st.data - e_prev;
    else wait += st.data - e_prev;
    const uint64_t T = st.end - st.data;
    rep.cycles.compute += T;
    rep.cycles.bank_stall += st.bank;
    if (s.res) rep.cycles.residual += T;
    const uint64_t et = st.end;
    if (et - start > give_up_after) {
      rep.cycles.total = UINT64_MAX;
      return rep;
    }

    // ---- actions of the step ----
    const uint64_t kb = s.kl / W, ops = s.ml * s.nl * kb;
    const uint64_t kb_eff = s.res && u.residual_blocks_per_cycle == 2 ? ceil_div(kb, 2) : kb;
    const uint64_t a_reads = ceil_div(s.nl, C) * s.ml * kb;
    const uint64_t blk_bytes = u.row_bytes(W);
    const bool dedicated = t.residual_dedicated;
    if (!s.res) {
      n_pe_dot_ops += ops;
      n_pe_macs += ops * W;
      n_pe_scale_ops += ops * sops;
    }
    if (s.res || dedicated) {
      n_residual_dot_ops += ops;
      n_residual_products += ops * (sparse ? W / 2 : W);
    }
    n_acc_adds += ops * (dedicated ? 2 : 1);
    n_pe_idle_slots += T * R * C - s.ml * s.nl * kb_eff;
    n_buffer_a_reads += a_reads * (dedicated ? 2 : 1);
    n_buffer_a_read_bytes += a_reads * blk_bytes * (dedicated ? 2 : 1);
    // Does this step continue a partial sum from the accumulator buffer?
    const bool continues = !(s.ko == 0 && (!s.res || unfused));
    if (u.dataflow == cfg::Dataflow::os) {
      const uint64_t b_reads = ceil_div(s.ml, R) * s.nl * kb;
      n_buffer_b_reads += b_reads;
      n_buffer_b_read_bytes += b_reads * blk_bytes;
      const uint64_t loads = continues ? s.ml * s.nl : 0;
      n_acc_loads += loads * (dedicated && s.ko ? 2 : 1);
      n_buffer_acc_reads += loads * (dedicated && s.ko ? 2 : 1);
      n_buffer_acc_writes += s.ml * s.nl * (dedicated ? 2 : 1);
    } else {
      n_buffer_b_reads += s.nl * kb;
      n_buffer_b_read_bytes += s.nl * kb * blk_bytes;
      n_array_weight_loads += s.nl * kb;
      const uint64_t folds_k = ceil_div(kb, R);
      const uint64_t rmw = s.ml * s.nl * folds_k, fresh = continues ? 0 : s.ml * s.nl;
      n_acc_loads += (rmw - fresh) * (dedicated ? 2 : 1);
      n_buffer_acc_reads += (rmw - fresh) * (dedicated ? 2 : 1);
      n_buffer_acc_writes += rmw * (dedicated ? 2 : 1);
    }

    if (c.values) values->step(s, a_store[sc.jobs[ja].slot].data(), ja, b_store[sc.jobs[jb].slot].data(), jb);

    e_prev = et;
    // Loads whose slot this step frees, then the store of a finished output tile.
    while (qi < sc.jobs.size() && sc.jobs[qi].kind != DmaJob::store && sc.jobs[qi].trigger <= static_cast<int64_t>(i))
      issue_load(qi++, et);
    if (s.last) {
      const uint64_t n_out = s.ml * s.nl;
      if (fmt::format_traits(u.format).tensor_scale) n_acc_epilogue_muls += n_out * (unfused ? 2 : 1);
      if (unfused) {
        n_acc_residual_adds += n_out;
        n_buffer_acc_reads += n_out;
      }
      n_buffer_acc_reads += n_out;  // read out by the store
      float* out = nullptr;
      if (c.values) {
        out = acc_store[s.out % acc_slots].data();
        values->finish(s, out);
      }
      if (qi >= sc.jobs.size() || sc.jobs[qi].kind != DmaJob::store || sc.jobs[qi].out != s.out)
        throw std::logic_error("Engine: schedule out of order");
      Job& j = jobs[qi++];
      dma.begin(j, et + tail);
      dma.rows(s.ml, c.c_addr + (s.m0 * c.N + s.n0) * 4, c.N * 4, s.nl * 4, true, reinterpret_cast<uint8_t*>(out),
               s.nl * 4);
      dma.end(0);
    }
    if (progress && (i & 4095) == 4095) progress(i + 1, steps);
  }
  uint64_t finish = e_prev + tail;
  for (uint32_t ji : sc.store_job) finish = std::max(finish, dma.ready(jobs[ji]));
  dma.finish();
  rep.cycles.total = finish - start;
  // Attribution: the array is idle for first_wait + wait cycles waiting for memory and for finish - e_prev
  // cycles after its last issue. Of these, the latency an infinitely wide memory would still have
  // (the first data: L + one beat; the end: the pipeline tail, then L + one beat of the last
  // store) is fill / drain; the rest is memory time (transfers, outstanding limits, bus sharing).
  const uint64_t lat = u.mem_latency + 1 + (u.quantizer ? u.quant_latency : 0);
  rep.cycles.fill = std::min(first_wait, lat);
  rep.cycles.drain = std::min(finish - e_prev, tail + u.mem_latency + 1);
  rep.cycles.memory_stall = first_wait - rep.cycles.fill + wait + (finish - e_prev - rep.cycles.drain);
  if (end) *end = finish;
  return rep;
}

}  // namespace hifsim::perf
