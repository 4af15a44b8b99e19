#include "perf/tiling.hpp"

#include <algorithm>

#include "util/error.hpp"

namespace hifsim::perf {

Tiling make_tiling(const cfg::UnitConfig& u, uint64_t M, uint64_t N, uint64_t K, uint64_t mt, uint64_t nt, uint64_t kt,
                   bool nmk) {
  if (M == 0 || N == 0 || K == 0) throw Error("gemm", "shape", "M, N and K must be at least 1");
  Tiling t;
  t.M = M;
  t.N = N;
  t.K = K;
  t.W = u.dot_width();
  t.Kp = ceil_div(K, t.W) * t.W;
  t.residual_shared = u.residual && u.residual_path == cfg::ResidualPath::shared;
  t.residual_dedicated = u.residual && u.residual_path == cfg::ResidualPath::dedicated;
  t.mt = std::min(mt, M);
  t.nt = std::min(nt, N);
  t.kt = std::min(kt, t.Kp);
  if (t.mt == 0 || t.nt == 0 || t.kt == 0 || t.kt % t.W != 0)
    throw std::logic_error("make_tiling: empty tile or K tile not a multiple of the dot width");
  t.tm = ceil_div(M, t.mt);
  t.tn = ceil_div(N, t.nt);
  t.tk = ceil_div(t.Kp, t.kt);
  t.nmk = nmk;
  return t;
}

uint64_t a_mem_row_bytes(const cfg::UnitConfig& u, uint64_t k) {
  if (u.quantizer) return k * u.quant_input_bytes();
  return u.row_bytes(k) * (u.residual ? 2 : 1);
}

namespace {
uint64_t a_buf_row_bytes(const cfg::UnitConfig& u, uint64_t k) { return u.row_bytes(k) * (u.residual ? 2 : 1); }
}  // namespace

bool tiling_fits(const cfg::UnitConfig& u, const Tiling& t) {
  return t.mt * a_buf_row_bytes(u, t.kt) <= u.a.slot_bytes() && t.nt * u.row_bytes(t.kt) <= u.b.slot_bytes() &&
         t.mt * t.nt * 4 <= u.acc_buf.slot_bytes();
}

void check_tiling_fits(const cfg::UnitConfig& u, const Tiling& t) {
  const std::string where = u.source.empty() ? "config" : u.source;
  const uint64_t a_row = a_buf_row_bytes(u, t.kt), b_row = u.row_bytes(t.kt);
  if (t.mt * a_row > u.a.slot_bytes())
    throw Error(where, "tiling.m", std::to_string(t.mt) + " rows x K tile " + std::to_string(t.kt) + " need " +
                                       std::to_string(t.mt * a_row) + " bytes; a buffers.a slot holds " +
                                       std::to_string(u.a.slot_bytes()));
  if (t.nt * b_row > u.b.slot_bytes())
    throw Error(where, "tiling.n", std::to_string(t.nt) + " rows x K tile " + std::to_string(t.kt) + " need " +
                                       std::to_string(t.nt * b_row) + " bytes; a buffers.b slot holds " +
                                       std::to_string(u.b.slot_bytes()));
  if (t.mt * t.nt * 4 > u.acc_buf.slot_bytes())
    throw Error(where, "tiling.m", "output tile " + std::to_string(t.mt) + " x " + std::to_string(t.nt) +
                                       " FP32 needs " + std::to_string(t.mt * t.nt * 4) +
                                       " bytes; a buffers.acc slot holds " + std::to_string(u.acc_buf.slot_bytes()));
}

// The steps of one output tile touch the K tiles 0..tk-1 of its A row panel and of its B row
// panel (twice with a shared residual: ks = 2 tk accesses). With LRU over `slots` slots:
//   - the outer operand (A in mnk) keeps its tk tiles for the whole row of output tiles when
//     tk <= slots: loaded once; else every access misses (a cyclic sequence longer than the
//     slots): tn x ks / tk panels;
//   - the inner operand (B in mnk) changes panel with every output tile: loaded once when all
//     tn x tk tiles fit the slots, else once per output tile when tk <= slots (the residual phase
//     hits), else at every access: tm x ks / tk panels.
OperandLoads operand_loads(const cfg::UnitConfig& u, const Tiling& t, bool nmk) {
  const uint64_t sa = u.a.slots(), sb = u.b.slots(), rep = t.ksteps() / t.tk;
  auto outer = [&](uint64_t slots, uint64_t inner_tiles) { return t.tk <= slots ? 1 : inner_tiles * rep; };
  auto inner = [&](uint64_t slots, uint64_t own_tiles, uint64_t outer_tiles) {
    if (own_tiles * t.tk <= slots) return uint64_t{1};
    return outer_tiles * (t.tk <= slots ? 1 : rep);
  };
  OperandLoads l;
  if (nmk) {
    l.b_panels = outer(sb, t.tm);
    l.a_panels = inner(sa, t.tm, t.tn);
  } else {
    l.a_panels = outer(sa, t.tn);
    l.b_panels = inner(sb, t.tn, t.tm);
  }
  return l;
}

uint64_t operand_traffic(const cfg::UnitConfig& u, const Tiling& t, bool nmk) {
  const OperandLoads l = operand_loads(u, t, nmk);
  return l.a_panels * t.M * a_mem_row_bytes(u, t.Kp) + l.b_panels * t.N * u.row_bytes(t.Kp);
}

bool choose_order_nmk(const cfg::UnitConfig& u, const Tiling& t) {
  if (u.order == cfg::LoopOrder::mnk) return false;
  if (u.order == cfg::LoopOrder::nmk) return true;
  return operand_traffic(u, t, true) < operand_traffic(u, t, false);
}

Step step_at(const Tiling& t, uint64_t i) {
  Step s;
  s.index = i;
  const uint64_t ks = t.ksteps();
  s.out = i / ks;
  const uint64_t j = i % ks;
  s.res = j >= t.tk;
  s.ko = j % t.tk;
  s.first = j == 0;
  s.last = j == ks - 1;
  if (t.nmk) {
    s.no = s.out / t.tm;
    s.mo = s.out % t.tm;
  } else {
    s.mo = s.out / t.tn;
    s.no = s.out % t.tn;
  }
  s.m0 = s.mo * t.mt;
  s.ml = std::min(t.mt, t.M - s.m0);
  s.n0 = s.no * t.nt;
  s.nl = std::min(t.nt, t.N - s.n0);
  s.k0 = s.ko * t.kt;
  s.kl = std::min(t.kt, t.Kp - s.k0);
  return s;
}

}  // namespace hifsim::perf
