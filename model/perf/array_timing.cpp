#include "perf/array_timing.hpp"

#include <algorithm>

namespace hifsim::perf {
namespace {

struct Shape {
  uint64_t kb = 0;      // blocks per PE per pass / fold set (halved for 2-per-cycle residual steps)
  uint64_t fa = 1, fb = 1;  // bank read cycles per A / B access group
};

Shape shape(const cfg::UnitConfig& u, const Tiling& t, const Step& s, bool banks) {
  Shape x;
  x.kb = s.kl / t.W;
  if (s.res && u.residual_blocks_per_cycle == 2) x.kb = ceil_div(x.kb, 2);
  if (banks) {
    // Row blocks the array reads per cycle from buffer A (the dedicated residual array doubles it).
    const uint64_t a_demand = uint64_t{u.rows} * (t.residual_dedicated ? 2 : 1);
    x.fa = u.a.banks ? ceil_div(a_demand, u.a.banks) : 1;
    x.fb = u.b.banks ? ceil_div(u.cols, u.b.banks) : 1;
  }
  return x;
}

// OS: returns the last issue cycle of the step.
uint64_t os_last_issue(const cfg::UnitConfig& u, const Step& s, const Shape& x, uint64_t start, const ArrayHistory& h) {
  const uint64_t passes = ceil_div(s.ml, u.rows) * ceil_div(s.nl, u.cols);
  const uint64_t f = std::max(x.fa, x.fb), D = pass_drain_cycles(u), per = x.kb * f;
  uint64_t L = start + per - 1;
  if (D && h.any) L = std::max(L, h.last_issue + D);
  return L + (passes - 1) * std::max(per, D);
}

// WS: returns the stream start of the step's last fold.
uint64_t ws_last_fold(const cfg::UnitConfig& u, const Step& s, const Shape& x, uint64_t e_prev, uint64_t start,
                      uint64_t b_ready, const ArrayHistory& h) {
  const uint64_t folds = ceil_div(x.kb, u.rows) * ceil_div(s.nl, u.cols);
  const uint64_t S = s.ml * x.fa, Lw = uint64_t{u.rows} * x.fb;
  if (u.weight_double_buffer) {
    const uint64_t w = (h.any ? std::max(h.last_fold_start, b_ready) : b_ready) + Lw;
    return std::max(start, w) + (folds - 1) * std::max(S, Lw);
  }
  const uint64_t w = std::max(e_prev, b_ready) + Lw;
  return std::max(start, w) + (folds - 1) * (S + Lw);
}

}  // namespace

StepTime time_step(const cfg::UnitConfig& u, const Tiling& t, const Step& s, uint64_t e_prev, uint64_t ready,
                   uint64_t b_ready, ArrayHistory& h) {
  StepTime r;
  r.data = std::max({e_prev, ready, b_ready});
  const Shape x = shape(u, t, s, true), x0 = shape(u, t, s, false);
  if (u.dataflow == cfg::Dataflow::os) {
    const uint64_t L = os_last_issue(u, s, x, r.data, h);
    r.end = L + 1;
    r.bank = r.end - (os_last_issue(u, s, x0, r.data, h) + 1);
    h.last_issue = L;
  } else {
    const uint64_t S = s.ml * x.fa;
    const uint64_t fs = ws_last_fold(u, s, x, e_prev, r.data, b_ready, h);
    r.end = fs + S;
    r.bank = r.end - (ws_last_fold(u, s, x0, e_prev, r.data, b_ready, h) + s.ml);
    h.last_fold_start = fs;
  }
  h.any = true;
  return r;
}

uint64_t steady_step_cycles(const cfg::UnitConfig& u, const Tiling& t, const Step& s) {
  const Shape x = shape(u, t, s, true);
  if (u.dataflow == cfg::Dataflow::os) {
    const uint64_t passes = ceil_div(s.ml, u.rows) * ceil_div(s.nl, u.cols);
    return passes * std::max(x.kb * std::max(x.fa, x.fb), pass_drain_cycles(u));
  }
  const uint64_t folds = ceil_div(x.kb, u.rows) * ceil_div(s.nl, u.cols);
  const uint64_t S = s.ml * x.fa, Lw = uint64_t{u.rows} * x.fb;
  return folds * (u.weight_double_buffer ? std::max(S, Lw) : S + Lw);
}

uint64_t min_step_cycles(const cfg::UnitConfig& u, const Tiling& t, const Step& s) {
  const Shape x = shape(u, t, s, true);
  if (u.dataflow == cfg::Dataflow::os) {
    const uint64_t passes = ceil_div(s.ml, u.rows) * ceil_div(s.nl, u.cols);
    const uint64_t per = x.kb * std::max(x.fa, x.fb);
    return per + (passes - 1) * std::max(per, pass_drain_cycles(u));
  }
  const uint64_t folds = ceil_div(x.kb, u.rows) * ceil_div(s.nl, u.cols);
  const uint64_t S = s.ml * x.fa, Lw = uint64_t{u.rows} * x.fb;
  if (u.weight_double_buffer) return (folds - 1) * std::max(S, Lw) + S;
  return Lw + (folds - 1) * (S + Lw) + S;
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

}  // namespace hifsim::perf
