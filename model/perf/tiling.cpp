#include "perf/tiling.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "util/error.hpp"

namespace hifsim::perf {
namespace {

uint64_t round_up(uint64_t a, uint64_t b) { return ceil_div(a, b) * b; }

// Candidate tile extents along one dimension of size `dim` with array granularity `g`, at most
// `max_t`: every multiple of g up to 16 g, then geometric steps, the largest multiple, and `dim`
// itself when it fits.
std::vector<uint64_t> candidates(uint64_t dim, uint64_t g, uint64_t max_t) {
  std::vector<uint64_t> c;
  if (max_t == 0) return c;
  if (dim <= max_t) c.push_back(dim);
  const uint64_t top = std::min(round_up(dim, g), max_t / g * g);
  if (top == 0) {
    c.push_back(std::min(dim, max_t));  // a tile smaller than the array
  } else {
    uint64_t q = 1;
    while (q * g <= top) {
      c.push_back(q * g);
      q = q < 16 ? q + 1 : q + std::max<uint64_t>(1, q / 4);
    }
    c.push_back(top);
  }
  std::sort(c.begin(), c.end());
  c.erase(std::unique(c.begin(), c.end()), c.end());
  for (auto& x : c) x = std::min(x, dim);
  c.erase(std::unique(c.begin(), c.end()), c.end());
  return c;
}

uint64_t a_mem_row_bytes(const cfg::UnitConfig& u, uint64_t k) {
  if (u.quantizer) return k * u.quant_input_bytes();
  return u.row_bytes(k) * (u.residual ? 2 : 1);
}

struct Estimate {
  double time = std::numeric_limits<double>::infinity();
  uint64_t steps = 0;
};

Estimate estimate(const cfg::UnitConfig& u, const Tiling& t) {
  Estimate e;
  const double steps = static_cast<double>(t.steps());
  // Memory traffic: operands reloaded every step unless a single K tile lets the outer operand
  // stay resident; plus the results.
  const double a_all = static_cast<double>(t.M) * static_cast<double>(a_mem_row_bytes(u, t.Kp));
  const double b_all = static_cast<double>(t.N) * static_cast<double>(u.row_bytes(t.Kp));
  const double rs = t.residual_shared && t.tk > 1 ? 2.0 : 1.0;
  double traffic;
  if (t.tk == 1) {
    traffic = t.nmk ? b_all + a_all * static_cast<double>(t.tn) : a_all + b_all * static_cast<double>(t.tm);
  } else {
    traffic = a_all * static_cast<double>(t.tn) * rs + b_all * static_cast<double>(t.tm) * rs;
  }
  traffic += static_cast<double>(t.M) * static_cast<double>(t.N) * 4.0;
  // Effective bandwidth: at most `outstanding` row transactions in flight, each waiting `latency`.
  const double bw = static_cast<double>(u.mem_bytes_per_cycle);
  const double txn = std::min<double>(static_cast<double>(u.burst_bytes), static_cast<double>(u.row_bytes(t.kt)));
  const double eff_bw =
      std::min(bw, static_cast<double>(u.outstanding) * txn / (static_cast<double>(u.mem_latency) + std::ceil(txn / bw)));
  const double mem_per_step = traffic / eff_bw / steps;
  // Per output tile: its steps' compute, or its share of the memory time if slower (double
  // buffering overlaps them); with a double-buffered accumulator the next-but-one output also
  // waits for this one's store (tail + its memory share + latency), without one it waits always.
  double time = 0;
  const uint64_t mr = t.M - (t.tm - 1) * t.mt, nr = t.N - (t.tn - 1) * t.nt, kr = t.Kp - (t.tk - 1) * t.kt;
  const double mem_out = mem_per_step * static_cast<double>(t.ksteps());
  const double lat = static_cast<double>(u.mem_latency), tail = static_cast<double>(output_tail(u));
  for (int im = 0; im < 2; ++im)
    for (int in = 0; in < 2; ++in) {
      const uint64_t cm = im ? 1 : t.tm - 1, cn = in ? 1 : t.tn - 1;
      if (!cm || !cn) continue;
      double c_out = 0;
      for (int ik = 0; ik < 2; ++ik) {
        const uint64_t ck = ik ? 1 : t.tk - 1;
        if (!ck) continue;
        Step s;
        s.ml = im ? mr : t.mt;
        s.nl = in ? nr : t.nt;
        s.kl = ik ? kr : t.kt;
        double c = static_cast<double>(step_issue_cycles(u, t, s, false));
        if (t.residual_shared) {
          s.res = true;
          c += static_cast<double>(step_issue_cycles(u, t, s, false));
        }
        c_out += c * static_cast<double>(ck);
      }
      const double per_out = u.acc_buf.double_buffer ? std::max({c_out, mem_out, tail + mem_out + lat})
                                                     : std::max(c_out, mem_out) + tail + lat;
      time += per_out * static_cast<double>(cm * cn);
    }
  (void)steps;
  const double first = static_cast<double>(u.mem_latency) +
                       (static_cast<double>(t.mt) * static_cast<double>(a_mem_row_bytes(u, t.kt)) +
                        static_cast<double>(t.nt) * static_cast<double>(u.row_bytes(t.kt))) / eff_bw;
  e.time = time + first + static_cast<double>(output_tail(u));
  e.steps = t.steps();
  return e;
}

}  // namespace

Tiling choose_tiling(const cfg::UnitConfig& u, uint64_t M, uint64_t N, uint64_t K) {
  if (M == 0 || N == 0 || K == 0) throw Error("gemm", "shape", "M, N and K must be at least 1");
  Tiling base;
  base.M = M;
  base.N = N;
  base.K = K;
  base.W = u.dot_width();
  base.Kp = round_up(K, base.W);
  base.residual_shared = u.residual && u.residual_path == cfg::ResidualPath::shared;
  base.residual_dedicated = u.residual && u.residual_path == cfg::ResidualPath::dedicated;
  const uint64_t R = u.rows, C = u.cols, W = base.W;
  const uint64_t slot_a = u.a.slot_bytes(), slot_b = u.b.slot_bytes(), slot_acc = u.acc_buf.slot_bytes();
  const uint64_t a_buf_factor = u.residual ? 2 : 1;
  const std::string where = u.source.empty() ? "config" : u.source;

  std::vector<uint64_t> kc;
  if (u.tile_k) {
    kc.push_back(std::min(u.tile_k, base.Kp));
  } else {
    for (uint64_t d = 1; d <= 64; ++d) {
      const uint64_t kt = round_up(ceil_div(base.Kp, d), W);
      kc.push_back(kt);
      if (u.dataflow == cfg::Dataflow::ws && kt > R * W) kc.push_back(std::min(base.Kp, round_up(kt, R * W)));
      if (kt == W) break;
    }
    std::sort(kc.begin(), kc.end());
    kc.erase(std::unique(kc.begin(), kc.end()), kc.end());
  }
  std::vector<bool> orders;
  if (u.order == cfg::LoopOrder::mnk) orders = {false};
  else if (u.order == cfg::LoopOrder::nmk) orders = {true};
  else orders = {false, true};

  Tiling best;
  Estimate best_e;
  for (uint64_t kt : kc) {
    const uint64_t a_row = u.row_bytes(kt) * a_buf_factor, b_row = u.row_bytes(kt);
    const uint64_t max_m = slot_a / a_row, max_n = slot_b / b_row;
    std::vector<uint64_t> mc, nc;
    if (u.tile_m) {
      const uint64_t mt = std::min(u.tile_m, M);
      if (mt > max_m)
        throw Error(where, "tiling.m", std::to_string(mt) + " rows x K tile " + std::to_string(kt) + " need " +
                                           std::to_string(mt * a_row) + " bytes; a buffers.a slot holds " +
                                           std::to_string(slot_a));
      mc.push_back(mt);
    } else {
      mc = candidates(M, R, max_m);
    }
    if (u.tile_n) {
      const uint64_t nt = std::min(u.tile_n, N);
      if (nt > max_n)
        throw Error(where, "tiling.n", std::to_string(nt) + " rows x K tile " + std::to_string(kt) + " need " +
                                           std::to_string(nt * b_row) + " bytes; a buffers.b slot holds " +
                                           std::to_string(slot_b));
      nc.push_back(nt);
    } else {
      nc = candidates(N, C, max_n);
    }
    for (uint64_t mt : mc)
      for (uint64_t nt : nc) {
        if (mt * nt * 4 > slot_acc) {
          if (u.tile_m && u.tile_n)
            throw Error(where, "tiling.m", "output tile " + std::to_string(mt) + " x " + std::to_string(nt) +
                                               " FP32 needs " + std::to_string(mt * nt * 4) +
                                               " bytes; a buffers.acc slot holds " + std::to_string(slot_acc));
          continue;
        }
        for (bool nmk : orders) {
          Tiling t = base;
          t.mt = mt;
          t.nt = nt;
          t.kt = kt;
          t.tm = ceil_div(M, mt);
          t.tn = ceil_div(N, nt);
          t.tk = ceil_div(base.Kp, kt);
          t.nmk = nmk;
          const Estimate e = estimate(u, t);
          const bool better = e.time < best_e.time ||
                              (e.time == best_e.time && (e.steps < best_e.steps || (e.steps == best_e.steps && kt > best.kt)));
          if (better) {
            best = t;
            best_e = e;
          }
        }
      }
  }
  if (best.mt == 0)
    throw Error(where, u.tile_m ? "tiling.m" : "buffers.acc.bytes",
                "no output tile fits the accumulator buffer for this GEMM (" + std::to_string(M) + " x " +
                    std::to_string(N) + ")");
  return best;
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

uint64_t pass_drain_cycles(const cfg::UnitConfig& u) {
  return u.drain_width == 0 ? 0 : ceil_div(uint64_t{u.rows} * u.cols, u.drain_width);
}

uint64_t output_tail(const cfg::UnitConfig& u) {
  const uint64_t R = u.rows, C = u.cols, P = u.pipeline_depth;
  const bool sys = u.interconnect == cfg::Interconnect::systolic;
  // The last issue is in cycle e - 1; the accumulator holds its result from cycle e - 1 + P.
  if (u.dataflow == cfg::Dataflow::os) return P - 1 + pass_drain_cycles(u) + (sys ? R + C - 2 : 0);
  return P + R - 2 + (sys ? C - 1 : 0);  // down the R PEs of a column, one per cycle
}

uint64_t step_issue_cycles(const cfg::UnitConfig& u, const Tiling& t, const Step& s, bool restart,
                           uint64_t* bank_extra) {
  const uint64_t R = u.rows, C = u.cols, W = t.W;
  uint64_t kb = s.kl / W;
  if (s.res && u.residual_blocks_per_cycle == 2) kb = ceil_div(kb, 2);
  // Row blocks the array reads per cycle from buffer A (the dedicated residual array doubles it).
  const uint64_t a_demand = R * (t.residual_dedicated ? 2 : 1);
  const uint64_t fa = u.a.banks ? ceil_div(a_demand, u.a.banks) : 1;
  const uint64_t fb = u.b.banks ? ceil_div(C, u.b.banks) : 1;
  uint64_t T, T0;
  if (u.dataflow == cfg::Dataflow::os) {
    const uint64_t passes = ceil_div(s.ml, R) * ceil_div(s.nl, C);
    const uint64_t D = pass_drain_cycles(u);
    const uint64_t f = std::max(fa, fb);
    T = passes * std::max(kb * f, D);
    T0 = passes * std::max(kb, D);
  } else {
    const uint64_t folds = ceil_div(kb, R) * ceil_div(s.nl, C);
    const uint64_t S = s.ml * fa, S0 = s.ml;
    const uint64_t Lw = R * fb, Lw0 = R;
    if (u.weight_double_buffer) {
      T = folds * std::max(S, Lw) + (restart ? Lw : 0);
      T0 = folds * std::max(S0, Lw0) + (restart ? Lw0 : 0);
    } else {
      T = folds * (S + Lw);
      T0 = folds * (S0 + Lw0);
    }
  }
  if (bank_extra) *bank_extra = T - T0;
  return T;
}

}  // namespace hifsim::perf
