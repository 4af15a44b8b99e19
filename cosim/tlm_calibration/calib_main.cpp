// tlm_calibration: the TLM model against the cycle-accurate RTL top rtl/array/hif4_array_top.sv
// (docs/tlm.md "Calibration against RTL").
//
// One SystemC simulation holds both: the Verilated (--sc) RTL top with its clock, driven by a
// testbench thread, and the TLM platform (host + matrix unit + memory, model/tlm) for the config
// configs/units/hif4-4x4-rtl.yaml. For every GEMM of the table the testbench
//   - quantizes random operands (perf::prepare_operands, the same images the TLM host writes),
//   - writes them into the RTL memory, and the schedule perf::build_schedule() -- the program the
//     TLM engine executes -- into the RTL's DMA and compute instruction memories,
//   - runs the RTL, reads C back and compares it bit for bit with dp::gemm,
// while the TLM platform runs the same GEMMs. The table of TLM cycles, RTL cycles and the error
// is printed (and written with --table FILE). Exit code 1 if a value differs or a cycle error
// exceeds --max-error (percent, default 5).
//
//   tlm_calibration --config configs/units/hif4-4x4-rtl.yaml [--variant a|b] [--shapes M,N,K;...]
//                   [--seed S] [--table FILE] [--max-error P]
// Variant a: the RTL top with its defaults (STAGES 3, MEM_LAT 8, OUTST 4); variant b: STAGES 5,
// MEM_LAT 20, OUTST 2 (configs/units/hif4-4x4-rtl-b.yaml): a latency- and outstanding-bound regime.
#include <systemc>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "Vhif4_array_top.h"
#include "Vhif4_array_top_b.h"
#include "config/unit_config.hpp"
#include "datapath/gemm.hpp"
#include "perf/runner.hpp"
#include "perf/schedule.hpp"
#include "tlm/run_tlm.hpp"
#include "util/error.hpp"
#include "util/rng.hpp"

using namespace hifsim;
using namespace sc_core;

namespace {

struct Shape {
  uint64_t M, N, K;
};

// The default table: single tiles, K split over several tiles, partial passes and tiles,
// outputs that reuse resident operand tiles, and larger grids.
const std::vector<Shape> kDefault = {{4, 4, 64},    {8, 8, 256},   {8, 8, 512},   {5, 7, 64},   {12, 20, 192},
                                     {16, 16, 256}, {16, 16, 1024}, {32, 8, 512},  {8, 32, 768}, {24, 24, 320},
                                     {32, 32, 256}, {40, 24, 1024}, {64, 64, 512}};

// RTL parameters (must match hif4_array_top's defaults and the config).
constexpr int kMemAw = 13;
constexpr int kProgAw = 10;

struct Run {
  Shape s;
  std::vector<float> A, B;
  uint64_t rtl_cycles = 0, tlm_cycles = 0;
  bool values_ok = false;
  std::string note;
};

template <class Top>
struct Tb : sc_module {
  sc_in<bool> clk;
  sc_signal<bool> rst_n{"rst_n"}, start{"start"}, busy{"busy"}, mem_we{"mem_we"}, dma_we{"dma_we"}, cmp_we{"cmp_we"};
  sc_signal<uint32_t> cycles{"cycles"}, a_base{"a_base"}, b_base{"b_base"}, c_base{"c_base"}, kb_row{"kb_row"},
      c_tn{"c_tn"}, n_jobs{"n_jobs"}, n_steps{"n_steps"}, mem_waddr{"mem_waddr"}, mem_raddr{"mem_raddr"},
      dma_waddr{"dma_waddr"}, cmp_waddr{"cmp_waddr"};
  sc_signal<sc_dt::sc_bv<288>> mem_wdata{"mem_wdata"}, mem_rdata{"mem_rdata"};
  sc_signal<uint64_t> dma_wdata{"dma_wdata"}, cmp_wdata{"cmp_wdata"};
  Top top{"top"};

  const cfg::UnitConfig& u;
  std::vector<Run>& runs;
  const tlm_model::Platform* tlm = nullptr;
  std::string error;
  bool finished = false;

  SC_HAS_PROCESS(Tb);
  Tb(sc_module_name n, const cfg::UnitConfig& uu, std::vector<Run>& r) : sc_module(n), clk("clk"), u(uu), runs(r) {
    top.clk(clk);
    top.rst_n(rst_n);
    top.start(start);
    top.busy(busy);
    top.cycles(cycles);
    top.a_base(a_base);
    top.b_base(b_base);
    top.c_base(c_base);
    top.kb_row(kb_row);
    top.c_tn(c_tn);
    top.n_jobs(n_jobs);
    top.n_steps(n_steps);
    top.mem_we(mem_we);
    top.mem_waddr(mem_waddr);
    top.mem_wdata(mem_wdata);
    top.mem_raddr(mem_raddr);
    top.mem_rdata(mem_rdata);
    top.dma_we(dma_we);
    top.dma_waddr(dma_waddr);
    top.dma_wdata(dma_wdata);
    top.cmp_we(cmp_we);
    top.cmp_waddr(cmp_waddr);
    top.cmp_wdata(cmp_wdata);
    SC_THREAD(main);
  }

  void tick() { wait(clk.negedge_event()); }

  static sc_dt::sc_bv<288> word(const std::string& img, size_t w) {
    sc_dt::sc_bv<288> v;
    for (int i = 0; i < 9; ++i) {
      uint32_t x = 0;
      for (int b = 0; b < 4; ++b) x |= static_cast<uint32_t>(static_cast<unsigned char>(img[w * 36 + 4 * i + b])) << (8 * b);
      v.range(32 * i + 31, 32 * i) = x;
    }
    return v;
  }

  void write_words(uint32_t base, const std::string& img) {
    for (size_t w = 0; w < img.size() / 36; ++w) {
      mem_we.write(true);
      mem_waddr.write(base + static_cast<uint32_t>(w));
      mem_wdata.write(word(img, w));
      tick();
    }
    mem_we.write(false);
  }

  void run_one(Run& r) {
    const Shape s = r.s;
    const perf::HostOperands ops = perf::prepare_operands(u, r.A.data(), r.B.data(), s.M, s.N, s.K, 1);
    const perf::Schedule sc = perf::build_schedule(u, s.M, s.N, s.K);
    const perf::Tiling& t = sc.t;
    const uint32_t kb = static_cast<uint32_t>(t.Kp / 64);
    const uint32_t A0 = 0, B0 = static_cast<uint32_t>(s.M * kb), C0 = static_cast<uint32_t>(B0 + s.N * kb);
    if (C0 + s.M * t.tn > (1u << kMemAw)) throw Error("tlm_calibration", "shape", "does not fit the RTL memory");
    if (sc.jobs.size() > (1u << kProgAw) || t.steps() > (1u << kProgAw))
      throw Error("tlm_calibration", "shape", "program longer than the RTL instruction memories");
    write_words(A0, ops.a_image);
    write_words(B0, ops.b_image);
    // DMA program
    for (size_t j = 0; j < sc.jobs.size(); ++j) {
      const perf::DmaJob& dj = sc.jobs[j];
      const perf::Step st = perf::step_at(t, dj.step);
      uint64_t kind = dj.kind == perf::DmaJob::load_a ? 0 : dj.kind == perf::DmaJob::load_b ? 1 : 2;
      uint64_t wait_v = dj.kind == perf::DmaJob::store ? dj.out + 1 : static_cast<uint64_t>(dj.trigger + 1);
      uint64_t row0 = kind == 1 ? st.n0 : st.m0, nrows = kind == 1 ? st.nl : st.ml;
      uint64_t w = kind | (uint64_t{dj.slot} << 2) | (wait_v << 3) | (row0 << 19) | (nrows << 31) |
                   ((st.k0 / 64) << 39) | ((st.kl / 64) << 45) | (st.no << 51);
      dma_we.write(true);
      dma_waddr.write(static_cast<uint32_t>(j));
      dma_wdata.write(w);
      tick();
    }
    dma_we.write(false);
    // compute program
    const uint32_t acc_slots = u.acc_buf.slots();
    for (uint64_t i = 0; i < t.steps(); ++i) {
      const perf::Step st = perf::step_at(t, i);
      uint64_t need = std::max(sc.a_job[i], sc.b_job[i]);
      if (st.first && st.out >= acc_slots) need = std::max<uint64_t>(need, sc.store_job[st.out - acc_slots]);
      need += 1;
      const uint64_t w = uint64_t{sc.jobs[sc.a_job[i]].slot} | (uint64_t{sc.jobs[sc.b_job[i]].slot} << 1) |
                         (uint64_t{st.out % acc_slots} << 2) | (st.ml << 3) | (st.nl << 11) | ((st.kl / 64) << 19) |
                         (uint64_t{st.ko != 0} << 27) | (uint64_t{st.last} << 28) | (need << 29);
      cmp_we.write(true);
      cmp_waddr.write(static_cast<uint32_t>(i));
      cmp_wdata.write(w);
      tick();
    }
    cmp_we.write(false);
    a_base.write(A0);
    b_base.write(B0);
    c_base.write(C0);
    kb_row.write(kb);
    c_tn.write(static_cast<uint32_t>(t.tn));
    n_jobs.write(static_cast<uint32_t>(sc.jobs.size()));
    n_steps.write(static_cast<uint32_t>(t.steps()));
    start.write(true);
    tick();
    start.write(false);
    uint64_t guard = 0;
    while (busy.read()) {
      tick();
      if (++guard > 50'000'000) throw Error("tlm_calibration", "rtl", "the RTL did not finish (hang)");
    }
    r.rtl_cycles = cycles.read();
    // Results: one word per (row, N tile).
    std::vector<float> C(s.M * s.N);
    for (uint64_t m = 0; m < s.M; ++m)
      for (uint64_t no = 0; no < t.tn; ++no) {
        mem_raddr.write(C0 + static_cast<uint32_t>(m * t.tn + no));
        tick();
        const sc_dt::sc_bv<288> v = mem_rdata.read();
        for (uint64_t j = 0; j < t.nt && no * t.nt + j < s.N; ++j) {
          const uint32_t bits = v.range(32 * static_cast<int>(j) + 31, 32 * static_cast<int>(j)).to_uint();
          std::memcpy(&C[m * s.N + no * t.nt + j], &bits, 4);
        }
      }
    const std::vector<float> ref = dp::gemm(r.A.data(), s.M, s.K, r.B.data(), s.N, u.gemm_spec(1));
    r.values_ok = std::memcmp(ref.data(), C.data(), ref.size() * 4) == 0;
  }

  void main() {
    try {
      rst_n.write(false);
      for (int i = 0; i < 3; ++i) tick();
      rst_n.write(true);
      tick();
      for (Run& r : runs) run_one(r);
    } catch (const std::exception& e) {
      error = e.what();
    }
    // Let the TLM platform (same simulation) finish its jobs, then stop the clock.
    while (tlm && !tlm->done()) wait(1, SC_US);
    finished = true;
    sc_stop();
  }
};

std::vector<Shape> parse_shapes(const std::string& s) {
  std::vector<Shape> v;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ';')) {
    Shape x{};
    if (std::sscanf(item.c_str(), "%lu,%lu,%lu", &x.M, &x.N, &x.K) != 3)
      throw Error("command line", "--shapes", "'" + item + "' is not M,N,K");
    v.push_back(x);
  }
  return v;
}

}  // namespace

int sc_main(int argc, char** argv) {
  std::string config, table_path, shapes_arg, variant = "a";
  uint64_t seed = 1;
  double max_error = 5.0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw Error("command line", a, "needs a value");
      return argv[++i];
    };
    if (a == "--config") config = next();
    else if (a == "--table") table_path = next();
    else if (a == "--shapes") shapes_arg = next();
    else if (a == "--seed") seed = std::stoull(next());
    else if (a == "--variant") variant = next();
    else if (a == "--max-error") max_error = std::stod(next());
    else {
      std::cerr << "usage: tlm_calibration --config U.yaml [--variant a|b] [--shapes M,N,K;...] [--seed S] [--table FILE] "
                   "[--max-error P]\n";
      return 2;
    }
  }
  try {
    if (config.empty()) throw Error("command line", "--config", "is required");
    const cfg::UnitConfig u = cfg::load_unit_config(config);
    const std::vector<Shape> shapes = shapes_arg.empty() ? kDefault : parse_shapes(shapes_arg);
    std::vector<Run> runs;
    for (size_t i = 0; i < shapes.size(); ++i) {
      Run r;
      r.s = shapes[i];
      SplitMix64 g(mix64(seed) + i);
      r.A.resize(r.s.M * r.s.K);
      r.B.resize(r.s.N * r.s.K);
      for (auto& x : r.A) x = static_cast<float>(g.uniform() * 2 - 1) * std::ldexp(1.0f, static_cast<int>(g.below(9)) - 4);
      for (auto& x : r.B) x = static_cast<float>(g.uniform() * 2 - 1) * std::ldexp(1.0f, static_cast<int>(g.below(9)) - 4);
      runs.push_back(std::move(r));
    }
    std::vector<perf::Job> jobs;
    for (const Run& r : runs) {
      perf::Job j;
      j.name = std::to_string(r.s.M) + "x" + std::to_string(r.s.N) + "x" + std::to_string(r.s.K);
      j.M = r.s.M;
      j.N = r.s.N;
      j.K = r.s.K;
      j.A = r.A.data();
      j.B = r.B.data();
      j.values = true;
      jobs.push_back(j);
    }
    if (variant != "a" && variant != "b") throw Error("command line", "--variant", "must be a or b");
    sc_clock clk("clk", sc_time(1, SC_NS));
    std::unique_ptr<Tb<Vhif4_array_top>> tba;
    std::unique_ptr<Tb<Vhif4_array_top_b>> tbb;
    perf::RunOptions o;
    o.threads = 1;
    tlm_model::Platform tlm(u, jobs, o);
    if (variant == "a") {
      tba = std::make_unique<Tb<Vhif4_array_top>>("tb", u, runs);
      tba->clk(clk);
      tba->tlm = &tlm;
    } else {
      tbb = std::make_unique<Tb<Vhif4_array_top_b>>("tb", u, runs);
      tbb->clk(clk);
      tbb->tlm = &tlm;
    }
    sc_report_handler::set_actions(SC_ERROR, SC_DISPLAY | SC_THROW);
    sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);
    sc_start();
    const std::string tb_error = tba ? tba->error : tbb->error;
    if (!tb_error.empty()) throw Error(tb_error);
    const std::vector<perf::JobResult> res = tlm.results();
    std::ostringstream t;
    t << "| M | N | K | steps | TLM cycles | RTL cycles | error | values |\n|---:|---:|---:|---:|---:|---:|---:|---|\n";
    bool ok = true;
    double worst = 0;
    for (size_t i = 0; i < runs.size(); ++i) {
      Run& r = runs[i];
      r.tlm_cycles = res[i].report.cycles.total;
      const double err = 100.0 * (static_cast<double>(r.tlm_cycles) - static_cast<double>(r.rtl_cycles)) /
                         static_cast<double>(r.rtl_cycles);
      worst = std::max(worst, std::fabs(err));
      if (std::fabs(err) > max_error || !r.values_ok) ok = false;
      char e[32];
      std::snprintf(e, sizeof e, "%+.2f %%", err);
      t << "| " << r.s.M << " | " << r.s.N << " | " << r.s.K << " | " << res[i].report.tiling.steps << " | "
        << r.tlm_cycles << " | " << r.rtl_cycles << " | " << e << " | "
        << (r.values_ok ? "bit-identical" : "**DIFFER**") << " |\n";
    }
    char w[64];
    std::snprintf(w, sizeof w, "%.2f", worst);
    t << "\nlargest |error|: " << w << " % (limit " << max_error << " %)\n";
    std::cout << t.str();
    if (!table_path.empty()) std::ofstream(table_path) << t.str();
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "tlm_calibration: error: " << e.what() << "\n";
    return 2;
  }
}
