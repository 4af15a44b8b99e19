#include "calibrate.hpp"

#include <algorithm>
#include <cstring>

#include "gemm/gemm.hpp"
#include "gemm/residual_gemm.hpp"
#include "perf/autotile.hpp"
#include "perf/schedule.hpp"
#include "perf/values.hpp"
#include "util/error.hpp"

namespace hifsim::calib {
namespace {

// matrix_unit_pkg PE codes.
enum Pe { kHif4 = 0, kHif8 = 1, kNvfp4 = 2, kMxfp4 = 3, kMxfp8 = 4, kBf16 = 5, kHif4Sparse = 6 };

std::string field(const cfg::UnitConfig& u, const std::string& name) {
  for (const auto& [k, v] : u.fields)
    if (k == name) return v;
  return "";
}

// Register addresses of matrix_unit_top (its header lists the fields).
constexpr uint32_t kDmaProg = 0x400, kStepProg = 0x800;

uint64_t bits(uint64_t v, int lo, int width) {
  if (width < 64 && v >> width) throw std::logic_error("calibrate: a field does not fit its instruction bits");
  return v << lo;
}

}  // namespace

void check_config_matches(const cfg::UnitConfig& u, const RtlParams& p) {
  const std::string where = u.source.empty() ? "config" : u.source;
  auto fail = [&](const std::string& f, const std::string& why) { throw Error(where, f, why + " (RTL model " + p.name + ")"); };
  int pe = -1;
  switch (u.format) {
    case fmt::Format::hif4: pe = u.residual ? kHif4Sparse : kHif4; break;
    case fmt::Format::hif8: pe = kHif8; break;
    case fmt::Format::nvfp4: pe = kNvfp4; break;
    case fmt::Format::mxfp4: pe = kMxfp4; break;
    case fmt::Format::mxfp8_e4m3: pe = kMxfp8; break;
    case fmt::Format::bf16: pe = kBf16; break;
    default: fail("pe.format", "has no calibration RTL");
  }
  if (pe != p.pe) fail(u.residual != (p.pe == kHif4Sparse) ? "residual.enabled" : "pe.format", "is not this model's PE type");
  if (u.rows != static_cast<uint32_t>(p.rows) || u.cols != static_cast<uint32_t>(p.cols))
    fail("array.rows", "must be " + std::to_string(p.rows) + " x " + std::to_string(p.cols));
  if (u.pipeline_depth != static_cast<uint32_t>(p.stages + 1))
    fail("pe.pipeline_depth", "must be the dot unit's STAGES + 1 = " + std::to_string(p.stages + 1));
  if (field(u, "pe.accumulator") != "fp32") fail("pe.accumulator", "must be fp32 (the PE adder is FP32 RNE)");
  if (pe == kHif8) {
    const dp::GemmSpec g = u.gemm_spec(1);
    const dp::AlignSpec a = dp::effective_align(g);
    if (u.hif8_lanes != p.hif8_n) fail("pe.hif8_lanes", "must be " + std::to_string(p.hif8_n));
    if (a.width != p.hif8_w || (a.policy == dp::AlignPolicy::sticky) != (p.hif8_sticky != 0))
      fail("pe.align_width", "must be " + std::to_string(p.hif8_w) + (p.hif8_sticky ? " sticky" : " trunc"));
  }
  if (pe == kBf16) {
    const dp::AlignSpec a = dp::effective_align(u.gemm_spec(1));
    if (a.width != 64 || a.policy != dp::AlignPolicy::sticky) fail("pe.align_width", "must be 64 sticky (bf16_dot64)");
  }
  if (u.interconnect != cfg::Interconnect::broadcast) fail("array.interconnect", "must be broadcast");
  if (u.quantizer) fail("quantizer.enabled", "the RTL has no quantizer");
  if (u.residual && (u.residual_spec.kind != dp::ResidualKind::sparse24 || u.residual_spec.mode != dp::ResidualMode::fused ||
                     u.residual_path != cfg::ResidualPath::shared || u.residual_blocks_per_cycle != 1))
    fail("residual.kind", "the RTL residual path is 2:4, fused, shared, 1 block per cycle");
  if (u.mem_bytes_per_cycle * 8 != static_cast<uint64_t>(p.word_bits))
    fail("memory.bytes_per_cycle", "must be one block per beat: " + std::to_string(p.word_bits / 8));
  if (u.mem_latency < 1 || u.mem_latency > static_cast<uint64_t>(p.max_latency))
    fail("memory.latency", "must be in [1, " + std::to_string(p.max_latency) + "]");
  if (u.outstanding > static_cast<uint32_t>(p.max_outstanding))
    fail("dma.outstanding", "must be at most " + std::to_string(p.max_outstanding));
  const uint64_t longest_row = std::max<uint64_t>(static_cast<uint64_t>(p.ktu) * p.word_bits / 8, 4ull * p.nt);
  if (u.burst_bytes < longest_row) fail("dma.burst_bytes", "must hold a whole tile row (" + std::to_string(longest_row) + ")");
  if (u.a.banks > static_cast<uint32_t>(p.rows)) fail("buffers.a.banks", "must be at most " + std::to_string(p.rows));
  if (u.b.banks > static_cast<uint32_t>(p.cols)) fail("buffers.b.banks", "must be at most " + std::to_string(p.cols));
}

RtlRun run_rtl_gemm(RtlUnit& rtl, const cfg::UnitConfig& u, uint64_t M, uint64_t N, uint64_t K,
                    const std::vector<float>& A, const std::vector<float>& B, bool sequencer) {
  const RtlParams& p = rtl.params();
  check_config_matches(u, p);
  const perf::Schedule sc = perf::build_schedule(u, M, N, K);
  const perf::Tiling& t = sc.t;
  const std::string where = "tlm_calibration " + std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K);
  const uint64_t W = t.W, kb_row = t.Kp / W, wb = rtl.word_bytes();
  if (t.mt > static_cast<uint64_t>(p.mt) || t.nt > static_cast<uint64_t>(p.nt) || t.kt / W > static_cast<uint64_t>(p.ktu))
    throw Error(where, "tiling", "tiles " + std::to_string(t.mt) + "x" + std::to_string(t.nt) + "x" + std::to_string(t.kt) +
                                     " exceed the RTL buffers (" + std::to_string(p.mt) + "x" + std::to_string(p.nt) + "x" +
                                     std::to_string(p.ktu * W) + ")");
  if (!sequencer && (sc.jobs.size() > static_cast<size_t>(p.prog_words) || t.steps() > static_cast<uint64_t>(p.prog_words)))
    throw Error(where, "shape", "the program is longer than the RTL instruction memories");

  // Memory layout in words (a word is one block).
  const uint64_t c_tile = (32 * t.nt + p.word_bits - 1) / p.word_bits, c_row = t.tn * c_tile;
  const uint64_t a0 = 0, b0 = a0 + M * kb_row, r0 = b0 + N * kb_row, c0 = r0 + (u.residual ? M * kb_row : 0);
  if (c0 + M * c_row > (uint64_t{1} << p.addr_bits)) throw Error(where, "shape", "does not fit the RTL memory");

  const perf::HostOperands ops = perf::prepare_operands(u, A.data(), B.data(), M, N, K, 1);
  rtl.reset();
  auto put_image = [&](uint64_t base, const std::string& img) {
    for (uint64_t w = 0; w * wb < img.size(); ++w)
      rtl.write_word(static_cast<uint32_t>(base + w), reinterpret_cast<const uint8_t*>(img.data()) + w * wb);
  };
  put_image(a0, ops.a_image);
  put_image(b0, ops.b_image);
  if (u.residual) put_image(r0, ops.r_image);

  const uint32_t acc_slots = u.acc_buf.slots();
  if (!sequencer) {
    for (size_t j = 0; j < sc.jobs.size(); ++j) {
      const perf::DmaJob& dj = sc.jobs[j];
      const perf::Step s = perf::step_at(t, dj.step);
      const uint64_t kind = dj.kind == perf::DmaJob::load_a ? 0 : dj.kind == perf::DmaJob::load_b ? 1 : 2;
      uint64_t w = bits(kind, 0, 2) | bits(dj.slot, 2, 1) |
                   bits(kind == 2 ? dj.out + 1 : static_cast<uint64_t>(dj.trigger + 1), 3, 16) |
                   bits(kind == 1 ? s.n0 : s.m0, 19, 12) | bits(kind == 1 ? s.nl : s.ml, 31, 8);
      if (kind == 2) w |= bits(s.nl, 39, 8) | bits(s.no, 55, 8);
      else w |= bits(s.k0 / W, 39, 8) | bits(s.kl / W, 47, 8) | bits(kind == 0 && u.residual, 63, 1);
      rtl.write_reg(kDmaProg + static_cast<uint32_t>(j), w);
    }
    for (uint64_t i = 0; i < t.steps(); ++i) {
      const perf::Step s = perf::step_at(t, i);
      uint64_t need = std::max(sc.a_job[i], sc.b_job[i]);
      if (s.first && s.out >= acc_slots) need = std::max<uint64_t>(need, sc.store_job[s.out - acc_slots]);
      const bool cont = s.ko != 0 || s.res;  // fused residual: the residual phase continues the sums
      const uint64_t w = bits(sc.jobs[sc.a_job[i]].slot, 0, 1) | bits(sc.jobs[sc.b_job[i]].slot, 1, 1) |
                         bits(s.out % acc_slots, 2, 1) | bits(s.ml, 3, 8) | bits(s.nl, 11, 8) | bits(s.kl / W, 19, 8) |
                         bits(cont, 27, 1) | bits(s.last, 28, 1) | bits(s.res, 29, 1) | bits(need + 1, 30, 16) |
                         bits(sc.b_job[i] + 1, 46, 16);
      rtl.write_reg(kStepProg + static_cast<uint32_t>(i), w);
    }
  }
  const uint64_t order = u.order == cfg::LoopOrder::mnk ? 1 : u.order == cfg::LoopOrder::nmk ? 2 : 0;
  uint32_t scale_a = 0, scale_b = 0;
  std::memcpy(&scale_a, &ops.a_scale, 4);
  std::memcpy(&scale_b, &ops.b_scale, 4);
  rtl.write_reg(0, bits(u.dataflow == cfg::Dataflow::ws, 0, 1) | bits(u.weight_double_buffer, 1, 1) | bits(sequencer, 2, 1) |
                       bits(order, 3, 2) | bits(u.residual, 5, 1) | bits(u.a.double_buffer, 6, 1) |
                       bits(u.b.double_buffer, 7, 1) | bits(u.acc_buf.double_buffer, 8, 1));
  rtl.write_reg(1, bits(u.mem_latency, 0, 8) | bits(u.outstanding, 8, 8) | bits(u.a.banks, 16, 8) | bits(u.b.banks, 24, 8) |
                       bits(u.drain_width, 32, 16));
  rtl.write_reg(2, bits(a0, 0, 16) | bits(b0, 16, 16) | bits(r0, 32, 16) | bits(c0, 48, 16));
  rtl.write_reg(3, bits(kb_row, 0, 16) | bits(c_row, 16, 16) | bits(c_tile, 32, 16));
  rtl.write_reg(4, bits(sc.jobs.size(), 0, 16) | bits(t.steps(), 16, 16) | bits(t.outputs(), 32, 16));
  rtl.write_reg(5, bits(M, 0, 16) | bits(N, 16, 16));
  rtl.write_reg(6, bits(t.mt, 0, 8) | bits(t.nt, 8, 8) | bits(t.kt / W, 16, 8));
  rtl.write_reg(7, bits(scale_a, 0, 32) | bits(scale_b, 32, 32));

  RtlRun r;
  r.tiling = t;
  r.cycles = rtl.run(100'000'000);

  // C: row m of N tile no at c0 + m * c_row + no * c_tile, values packed from byte 0.
  std::vector<float> Cm(M * N);
  std::vector<uint8_t> row(c_tile * wb);
  for (uint64_t m = 0; m < M; ++m)
    for (uint64_t no = 0; no < t.tn; ++no) {
      for (uint64_t w = 0; w < c_tile; ++w) rtl.read_word(static_cast<uint32_t>(c0 + m * c_row + no * c_tile + w), row.data() + w * wb);
      const uint64_t nl = std::min(t.nt, N - no * t.nt);
      std::memcpy(&Cm[m * N + no * t.nt], row.data(), nl * 4);
    }
  const std::vector<float> ref = dp::gemm_with_residual(A.data(), M, K, B.data(), N, u.gemm_spec(1), u.residual_spec);
  r.values_ok = std::memcmp(ref.data(), Cm.data(), ref.size() * 4) == 0;
  return r;
}

}  // namespace hifsim::calib
