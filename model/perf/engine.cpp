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


// The report of a command before it runs: the command, the unit's peak and the tiling.
RunReport new_report(const cfg::UnitConfig& u, const GemmCommand& c, const Tiling& t) {
  RunReport rep;
  rep.M = c.M;
  rep.N = c.N;
  rep.K = c.K;
  rep.macs = c.M * c.N * c.K;
  rep.peak_macs_per_cycle = u.peak_macs_per_cycle();
  rep.values = c.values;
  rep.tiling = {t.mt, t.nt, t.kt, t.tm, t.tn, t.tk, t.steps(), t.order()};
  return rep;
}

// The action counters a command updates per step and per tile, looked up once (the step loop
// runs per step).
struct StepCounters {
  explicit StepCounters(Actions& act)
      : quantizer_blocks(act["quantizer.blocks"]),
        quantizer_residual_blocks(act["quantizer.residual_blocks"]),
        buffer_a_writes(act["buffer_a.writes"]),
        buffer_a_write_bytes(act["buffer_a.write_bytes"]),
        buffer_b_writes(act["buffer_b.writes"]),
        buffer_b_write_bytes(act["buffer_b.write_bytes"]),
        pe_dot_ops(act["pe.dot_ops"]),
        pe_macs(act["pe.macs"]),
        pe_scale_ops(act["pe.scale_ops"]),
        residual_dot_ops(act["residual.dot_ops"]),
        residual_products(act["residual.products"]),
        acc_adds(act["acc.adds"]),
        pe_idle_slots(act["pe.idle_slots"]),
        buffer_a_reads(act["buffer_a.reads"]),
        buffer_a_read_bytes(act["buffer_a.read_bytes"]),
        buffer_b_reads(act["buffer_b.reads"]),
        buffer_b_read_bytes(act["buffer_b.read_bytes"]),
        acc_loads(act["acc.loads"]),
        buffer_acc_reads(act["buffer_acc.reads"]),
        buffer_acc_writes(act["buffer_acc.writes"]),
        array_weight_loads(act["array.weight_loads"]),
        acc_epilogue_muls(act["acc.epilogue_muls"]),
        acc_residual_adds(act["acc.residual_adds"]) {}
  uint64_t &quantizer_blocks, &quantizer_residual_blocks;
  uint64_t &buffer_a_writes, &buffer_a_write_bytes, &buffer_b_writes, &buffer_b_write_bytes;
  uint64_t &pe_dot_ops, &pe_macs, &pe_scale_ops, &residual_dot_ops, &residual_products;
  uint64_t &acc_adds, &pe_idle_slots;
  uint64_t &buffer_a_reads, &buffer_a_read_bytes, &buffer_b_reads, &buffer_b_read_bytes;
  uint64_t &acc_loads, &buffer_acc_reads, &buffer_acc_writes, &array_weight_loads;
  uint64_t &acc_epilogue_muls, &acc_residual_adds;
};

// One GEMM command in flight: its DMA jobs in schedule order, the bytes of the operand and
// accumulator slots (value mode only) and the action counts. Engine::run drives it step by step
// and keeps the cycle accounting; each method here is one kind of work of the unit.
class CommandRun {
 public:
  CommandRun(const cfg::UnitConfig& u, const Schedule& sc, const GemmCommand& c, MemoryPort& port, uint64_t start,
             Actions& act, unsigned threads)
      : u_(u), sc_(sc), t_(sc.t), c_(c), n_(act), dma_(u, port, act, start), jobs_(sc.jobs.size()),
        rowb_kp_(u.row_bytes(sc.t.Kp)),
        tail_(output_tail(u)),
        unfused_(u.residual && u.residual_spec.mode != dp::ResidualMode::fused),
        sparse_(u.residual && u.residual_spec.kind == dp::ResidualKind::sparse24),
        scale_ops_(scale_ops_per_dot(u.format, sc.t.W)),
        acc_slots_(u.acc_buf.slots()) {
    if (!c.values) return;
    // Slot storage: an A row is the quantizer's input row or a stored row (and its residual row).
    const uint64_t a_row_mem = u.quantizer ? t_.kt * u.quant_input_bytes() : u.row_bytes(t_.kt);
    const uint64_t a_slot_bytes = t_.mt * a_row_mem * (u.residual && !u.quantizer ? 2 : 1);
    a_store_.assign(u.a.slots(), std::vector<uint8_t>(a_slot_bytes));
    b_store_.assign(u.b.slots(), std::vector<uint8_t>(t_.nt * u.row_bytes(t_.kt)));
    acc_store_.assign(acc_slots_, std::vector<float>(t_.mt * t_.nt));
    values_ = std::make_unique<ValueEngine>(u, t_, c, threads);
  }

  uint64_t tail() const { return tail_; }

  // The loads whose slots are free at the start.
  void issue_first_loads(uint64_t start) {
    while (next_ < sc_.jobs.size() && sc_.jobs[next_].trigger < 0) issue_load(next_++, start);
  }
  // The loads whose slot step i frees, issued at its end `et`.
  void issue_loads_freed_by(uint64_t i, uint64_t et) {
    while (next_ < sc_.jobs.size() && sc_.jobs[next_].kind != DmaJob::store &&
           sc_.jobs[next_].trigger <= static_cast<int64_t>(i))
      issue_load(next_++, et);
  }

  // Step i's timing: its A tile (and accumulator slot, when the step starts a tile whose slot is
  // still being stored) and B tile ready.
  StepTime time(uint64_t i, const Step& s, uint64_t e_prev, ArrayHistory& hist) {
    uint64_t ready = dma_.ready(jobs_[sc_.a_job[i]]);
    if (s.first && s.out >= acc_slots_)
      ready = std::max(ready, dma_.ready(jobs_[sc_.store_job[s.out - acc_slots_]]));
    return time_step(u_, t_, s, e_prev, ready, dma_.ready(jobs_[sc_.b_job[i]]), hist);
  }

  // The actions of one step that issued for T cycles.
  void count_step(const Step& s, uint64_t T) {
    const uint64_t W = t_.W, R = u_.rows, C = u_.cols;
    const uint64_t kb = s.kl / W, ops = s.ml * s.nl * kb;
    const uint64_t kb_eff = s.res && u_.residual_blocks_per_cycle == 2 ? ceil_div(kb, 2) : kb;
    const uint64_t a_reads = ceil_div(s.nl, C) * s.ml * kb;
    const uint64_t blk_bytes = u_.row_bytes(W);
    const bool dedicated = t_.residual_dedicated;
    if (!s.res) {
      n_.pe_dot_ops += ops;
      n_.pe_macs += ops * W;
      n_.pe_scale_ops += ops * scale_ops_;
    }
    if (s.res || dedicated) {
      n_.residual_dot_ops += ops;
      n_.residual_products += ops * (sparse_ ? W / 2 : W);
    }
    n_.acc_adds += ops * (dedicated ? 2 : 1);
    n_.pe_idle_slots += T * R * C - s.ml * s.nl * kb_eff;
    n_.buffer_a_reads += a_reads * (dedicated ? 2 : 1);
    n_.buffer_a_read_bytes += a_reads * blk_bytes * (dedicated ? 2 : 1);
    // Does this step continue a partial sum from the accumulator buffer?
    const bool continues = !(s.ko == 0 && (!s.res || unfused_));
    if (u_.dataflow == cfg::Dataflow::os) {
      const uint64_t b_reads = ceil_div(s.ml, R) * s.nl * kb;
      n_.buffer_b_reads += b_reads;
      n_.buffer_b_read_bytes += b_reads * blk_bytes;
      const uint64_t loads = continues ? s.ml * s.nl : 0;
      n_.acc_loads += loads * (dedicated && s.ko ? 2 : 1);
      n_.buffer_acc_reads += loads * (dedicated && s.ko ? 2 : 1);
      n_.buffer_acc_writes += s.ml * s.nl * (dedicated ? 2 : 1);
    } else {
      n_.buffer_b_reads += s.nl * kb;
      n_.buffer_b_read_bytes += s.nl * kb * blk_bytes;
      n_.array_weight_loads += s.nl * kb;
      const uint64_t folds_k = ceil_div(kb, R);
      const uint64_t rmw = s.ml * s.nl * folds_k, fresh = continues ? 0 : s.ml * s.nl;
      n_.acc_loads += (rmw - fresh) * (dedicated ? 2 : 1);
      n_.buffer_acc_reads += (rmw - fresh) * (dedicated ? 2 : 1);
      n_.buffer_acc_writes += rmw * (dedicated ? 2 : 1);
    }
  }

  // Value mode: step i's products from the bytes of its A and B slots.
  void compute_values(uint64_t i, const Step& s) {
    if (!values_) return;
    const uint32_t ja = sc_.a_job[i], jb = sc_.b_job[i];
    values_->step(s, a_store_[sc_.jobs[ja].slot].data(), ja, b_store_[sc_.jobs[jb].slot].data(), jb);
  }

  // After the last step of an output tile (ending at et): its epilogue and its store, which
  // starts once the pipeline tail has delivered the last value.
  void store_output(const Step& s, uint64_t et) {
    const uint64_t n_out = s.ml * s.nl;
    if (fmt::format_traits(u_.format).tensor_scale) n_.acc_epilogue_muls += n_out * (unfused_ ? 2 : 1);
    if (unfused_) {
      n_.acc_residual_adds += n_out;
      n_.buffer_acc_reads += n_out;
    }
    n_.buffer_acc_reads += n_out;  // read out by the store
    float* out = nullptr;
    if (values_) {
      out = acc_store_[s.out % acc_slots_].data();
      values_->finish(s, out);
    }
    if (next_ >= sc_.jobs.size() || sc_.jobs[next_].kind != DmaJob::store || sc_.jobs[next_].out != s.out)
      throw std::logic_error("Engine: schedule out of order");
    Job& j = jobs_[next_++];
    dma_.begin(j, et + tail_);
    dma_.rows(s.ml, c_.c_addr + (s.m0 * c_.N + s.n0) * 4, c_.N * 4, s.nl * 4, true, reinterpret_cast<uint8_t*>(out),
              s.nl * 4);
    dma_.end(0);
  }

  // The cycle the last result is in memory, given the end of the last issue; resolves every
  // transaction still outstanding.
  uint64_t finish(uint64_t e_last) {
    uint64_t finish = e_last + tail_;
    for (uint32_t ji : sc_.store_job) finish = std::max(finish, dma_.ready(jobs_[ji]));
    dma_.finish();
    return finish;
  }

 private:
  // The load of job ji (an A tile, with its residual rows or through the quantizer, or a B tile),
  // not before `earliest`.
  void issue_load(size_t ji, uint64_t earliest) {
    const DmaJob& dj = sc_.jobs[ji];
    const Step s = step_at(t_, dj.step);
    const uint64_t W = t_.W;
    if (dj.kind == DmaJob::load_a) {
      uint8_t* base = values_ ? a_store_[dj.slot].data() : nullptr;
      dma_.begin(jobs_[ji], earliest);
      const uint64_t blocks = s.ml * (s.kl / W);
      if (u_.quantizer) {
        const uint64_t ib = u_.quant_input_bytes();
        dma_.rows(s.ml, c_.a_addr + (s.m0 * t_.Kp + s.k0) * ib, t_.Kp * ib, s.kl * ib, false, base, s.kl * ib);
        n_.quantizer_blocks += blocks;
        if (u_.residual) n_.quantizer_residual_blocks += blocks;
        dma_.end(blocks * (u_.residual ? 2 : 1));
      } else {
        const uint64_t rb = u_.row_bytes(s.kl), off = u_.row_bytes(s.k0);
        dma_.rows(s.ml, c_.a_addr + s.m0 * rowb_kp_ + off, rowb_kp_, rb, false, base, rb);
        if (u_.residual)
          dma_.rows(s.ml, c_.r_addr + s.m0 * rowb_kp_ + off, rowb_kp_, rb, false, base ? base + s.ml * rb : nullptr,
                    rb);
        dma_.end(0);
      }
      const uint64_t nreg = u_.residual ? 2 : 1;
      n_.buffer_a_writes += blocks * nreg;
      n_.buffer_a_write_bytes += s.ml * u_.row_bytes(s.kl) * nreg;
    } else {
      uint8_t* base = values_ ? b_store_[dj.slot].data() : nullptr;
      const uint64_t rb = u_.row_bytes(s.kl), off = u_.row_bytes(s.k0);
      dma_.begin(jobs_[ji], earliest);
      dma_.rows(s.nl, c_.b_addr + s.n0 * rowb_kp_ + off, rowb_kp_, rb, false, base, rb);
      dma_.end(0);
      n_.buffer_b_writes += s.nl * (s.kl / W);
      n_.buffer_b_write_bytes += s.nl * rb;
    }
  }

  const cfg::UnitConfig& u_;
  const Schedule& sc_;
  const Tiling& t_;
  const GemmCommand& c_;
  StepCounters n_;
  Dma dma_;
  std::vector<Job> jobs_;
  size_t next_ = 0;  // next job of the DMA queue
  const uint64_t rowb_kp_, tail_;
  const bool unfused_, sparse_;
  const uint64_t scale_ops_;
  const uint32_t acc_slots_;
  std::vector<std::vector<uint8_t>> a_store_, b_store_;
  std::vector<std::vector<float>> acc_store_;
  std::unique_ptr<ValueEngine> values_;
};

// Attribution of the cycles the array is idle: first_wait + wait waiting for memory and
// finish - e_last after its last issue. Of these, the latency an infinitely wide memory would
// still have (the first data: L + one beat; the end: the pipeline tail, then L + one beat of the
// last store) is fill / drain; the rest is memory time (transfers, outstanding limits, bus sharing).
void attribute_idle_cycles(const cfg::UnitConfig& u, uint64_t tail, uint64_t first_wait, uint64_t wait,
                           uint64_t e_last, uint64_t finish, Cycles& cy) {
  const uint64_t lat = u.mem_latency + 1 + (u.quantizer ? u.quant_latency : 0);
  cy.fill = std::min(first_wait, lat);
  cy.drain = std::min(finish - e_last, tail + u.mem_latency + 1);
  cy.memory_stall = first_wait - cy.fill + wait + (finish - e_last - cy.drain);
}

}  // namespace

RunReport Engine::run(const GemmCommand& c, MemoryPort& port, uint64_t start, uint64_t* end) {
  return run(c, choose_tiling(u_, c.M, c.N, c.K), port, start, end);
}

RunReport Engine::run(const GemmCommand& c, const Tiling& tiling, MemoryPort& port, uint64_t start, uint64_t* end) {
  const Schedule sc = build_schedule(u_, tiling);
  const Tiling& t = sc.t;
  const uint64_t steps = t.steps();
  RunReport rep = new_report(u_, c, t);
  CommandRun cmd(u_, sc, c, port, start, rep.actions, threads_);
  cmd.issue_first_loads(start);
  uint64_t e_prev = start, first_wait = 0, wait = 0;
  ArrayHistory hist;
  for (uint64_t i = 0; i < steps; ++i) {
    const Step s = step_at(t, i);
    const StepTime st = cmd.time(i, s, e_prev, hist);
    // Waiting for data (tiles, a free accumulator slot) is memory time, before the first step too;
    // only the memory latency of the first data counts as fill (attribute_idle_cycles).
    if (i == 0) first_wait = st.data - e_prev;
    else wait += st.data - e_prev;
    const uint64_t T = st.end - st.data;
    rep.cycles.compute += T;
    rep.cycles.bank_stall += st.bank;
    if (s.res) rep.cycles.residual += T;
    if (st.end - start > give_up_after) {
      rep.cycles.total = UINT64_MAX;
      return rep;
    }
    cmd.count_step(s, T);
    cmd.compute_values(i, s);
    e_prev = st.end;
    // Loads whose slot this step frees, then the store of a finished output tile.
    cmd.issue_loads_freed_by(i, st.end);
    if (s.last) cmd.store_output(s, st.end);
    if (progress && (i & 4095) == 4095) progress(i + 1, steps);
  }
  const uint64_t finish = cmd.finish(e_prev);
  rep.cycles.total = finish - start;
  attribute_idle_cycles(u_, cmd.tail(), first_wait, wait, e_prev, finish, rep.cycles);
  if (end) *end = finish;
  return rep;
}

}  // namespace hifsim::perf
