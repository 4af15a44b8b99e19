#include "perf/autotile.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <set>

#include "perf/array_timing.hpp"
#include "perf/engine.hpp"
#include "util/error.hpp"

namespace hifsim::perf {
namespace {

uint64_t round_up(uint64_t a, uint64_t b) { return ceil_div(a, b) * b; }

// Tile extents along a dimension of size `dim` with array granularity `g`: a set that does not
// depend on the buffer size (a bigger buffer only lets more of them fit). Every multiple of g up
// to 16 g, then steps of about 1/8; the balanced splits ceil(dim / d) rounded up to g; powers of
// two below g for buffers too small for g rows.
std::vector<uint64_t> extents(uint64_t dim, uint64_t g) {
  std::set<uint64_t> c;
  for (uint64_t q = 1; q * g < dim + g; q = q < 16 ? q + 1 : q + q / 8) c.insert(std::min(q * g, dim));
  for (uint64_t d = 1; d <= 32; ++d) c.insert(std::min(round_up(ceil_div(dim, d), g), dim));
  for (uint64_t x = 1; x < g && x < dim; x *= 2) c.insert(x);
  return {c.begin(), c.end()};
}

std::vector<uint64_t> k_extents(const cfg::UnitConfig& u, uint64_t Kp, uint64_t W) {
  std::set<uint64_t> c;
  for (uint64_t d = 1; d <= 64; ++d) {
    const uint64_t kt = round_up(ceil_div(Kp, d), W);
    c.insert(kt);
    // WS: whole folds of R blocks waste no PE rows.
    if (u.dataflow == cfg::Dataflow::ws && kt > u.rows * W) c.insert(std::min(Kp, round_up(kt, u.rows * W)));
    if (kt == W) break;
  }
  return {c.begin(), c.end()};
}

// Transactions and bus beats of one row of `bytes`, split at the burst size.
struct RowCost {
  double txns = 0, beats = 0;
};
RowCost row_cost(const cfg::UnitConfig& u, uint64_t bytes) {
  const uint64_t full = bytes / u.burst_bytes, rem = bytes % u.burst_bytes, bw = u.mem_bytes_per_cycle;
  RowCost r;
  r.txns = static_cast<double>(full + (rem ? 1 : 0));
  r.beats = static_cast<double>(full * ceil_div(u.burst_bytes, bw) + (rem ? ceil_div(rem, bw) : 0));
  return r;
}
RowCost operator*(double k, RowCost r) { return {k * r.txns, k * r.beats}; }
RowCost operator+(RowCost a, RowCost b) { return {a.txns + b.txns, a.beats + b.beats}; }

// One A row of k elements as the DMA moves it (quantizer input, or the row and its residual row).
RowCost a_row_cost(const cfg::UnitConfig& u, uint64_t k) {
  if (u.quantizer) return row_cost(u, k * u.quant_input_bytes());
  return (u.residual ? 2.0 : 1.0) * row_cost(u, u.row_bytes(k));
}

// Memory time of a set of transactions: the bus, or the outstanding limit (each transaction holds
// a slot for its beats plus the latency), whichever is slower.
double mem_time(const cfg::UnitConfig& u, RowCost c) {
  const double lat = static_cast<double>(u.mem_latency);
  return std::max(c.beats, (c.txns * lat + c.beats) / static_cast<double>(u.outstanding));
}

}  // namespace

std::vector<Tiling> tiling_candidates(const cfg::UnitConfig& u, uint64_t M, uint64_t N, uint64_t K) {
  const Tiling base = make_tiling(u, M, N, K, M, N, u.dot_width(), false);
  const uint64_t W = base.W, Kp = base.Kp;
  const std::vector<uint64_t> kc = u.tile_k ? std::vector<uint64_t>{std::min(u.tile_k, Kp)} : k_extents(u, Kp, W);
  const std::vector<uint64_t> mc = u.tile_m ? std::vector<uint64_t>{std::min(u.tile_m, M)} : extents(M, u.rows);
  const std::vector<uint64_t> nc = u.tile_n ? std::vector<uint64_t>{std::min(u.tile_n, N)} : extents(N, u.cols);
  std::vector<Tiling> out;
  for (uint64_t kt : kc)
    for (uint64_t mt : mc)
      for (uint64_t nt : nc) {
        Tiling t = make_tiling(u, M, N, K, mt, nt, kt, false);
        if (u.tile_m && u.tile_n && u.tile_k) check_tiling_fits(u, t);  // all pinned: say which field
        if (!tiling_fits(u, t)) continue;
        t.nmk = choose_order_nmk(u, t);
        out.push_back(t);
      }
  return out;
}

namespace {

// What the estimate and the lower bound need of a tiling: per class of output tile (full or
// partial along M and N), the issue cycles of its steps (steady state and minimum), and the
// memory transactions of the whole GEMM.
struct Profile {
  uint64_t mr = 0, nr = 0, kr = 0;  // extents of the last M, N, K tiles
  double compute_min = 0;           // sum over all steps of min_step_cycles
  RowCost all;                      // every load and store
  RowCost first;                    // the first step's A and B tiles
  RowCost last_store;               // the last output tile's store
};

Profile profile(const cfg::UnitConfig& u, const Tiling& t) {
  Profile p;
  p.mr = t.M - (t.tm - 1) * t.mt;
  p.nr = t.N - (t.tn - 1) * t.nt;
  p.kr = t.Kp - (t.tk - 1) * t.kt;
  const OperandLoads l = operand_loads(u, t, t.nmk);
  const double ktiles = static_cast<double>(t.tk - 1);
  const RowCost a_panel = static_cast<double>(t.M) * (ktiles * a_row_cost(u, t.kt) + a_row_cost(u, p.kr));
  const RowCost b_panel =
      static_cast<double>(t.N) * (ktiles * row_cost(u, u.row_bytes(t.kt)) + row_cost(u, u.row_bytes(p.kr)));
  const RowCost stores =
      static_cast<double>(t.M) * (static_cast<double>(t.tn - 1) * row_cost(u, 4 * t.nt) + row_cost(u, 4 * p.nr));
  p.all = static_cast<double>(l.a_panels) * a_panel + static_cast<double>(l.b_panels) * b_panel + stores;
  p.first = static_cast<double>(t.mt) * a_row_cost(u, t.kt) + static_cast<double>(t.nt) * row_cost(u, u.row_bytes(t.kt));
  p.last_store = static_cast<double>(p.mr) * row_cost(u, 4 * p.nr);
  for (int im = 0; im < 2; ++im)
    for (int in = 0; in < 2; ++in)
      for (int ik = 0; ik < 2; ++ik) {
        const uint64_t cm = im ? 1 : t.tm - 1, cn = in ? 1 : t.tn - 1, ck = ik ? 1 : t.tk - 1;
        if (!cm || !cn || !ck) continue;
        Step s;
        s.ml = im ? p.mr : t.mt;
        s.nl = in ? p.nr : t.nt;
        s.kl = ik ? p.kr : t.kt;
        double c = static_cast<double>(min_step_cycles(u, t, s));
        if (t.residual_shared) {
          s.res = true;
          c += static_cast<double>(min_step_cycles(u, t, s));
        }
        p.compute_min += c * static_cast<double>(cm * cn * ck);
      }
  return p;
}

}  // namespace

double estimate_cycles(const cfg::UnitConfig& u, const Tiling& t) {
  const Profile p = profile(u, t);
  const double lat = static_cast<double>(u.mem_latency), tail = static_cast<double>(output_tail(u));
  const double mem_per_out = mem_time(u, p.all) / static_cast<double>(t.outputs());
  // Per output tile: its steps' issue cycles, its share of the memory time (double buffering
  // overlaps both), and the accumulator slots: output o + slots waits for the store of output o
  // (tail, latency, its beats).
  double body = 0;
  for (int im = 0; im < 2; ++im)
    for (int in = 0; in < 2; ++in) {
      const uint64_t cm = im ? 1 : t.tm - 1, cn = in ? 1 : t.tn - 1;
      if (!cm || !cn) continue;
      Step s;
      s.ml = im ? p.mr : t.mt;
      s.nl = in ? p.nr : t.nt;
      double c_out = 0;
      for (int ik = 0; ik < 2; ++ik) {
        const uint64_t ck = ik ? 1 : t.tk - 1;
        if (!ck) continue;
        s.kl = ik ? p.kr : t.kt;
        s.res = false;
        double c = static_cast<double>(steady_step_cycles(u, t, s));
        if (t.residual_shared) {
          s.res = true;
          c += static_cast<double>(steady_step_cycles(u, t, s));
        }
        c_out += c * static_cast<double>(ck);
      }
      const double store = tail + lat + row_cost(u, 4 * s.nl).beats * static_cast<double>(s.ml);
      const double slot_bound = u.acc_buf.double_buffer ? (c_out + std::max(c_out, store)) / 2 : c_out + store;
      body += std::max(slot_bound, mem_per_out) * static_cast<double>(cm * cn);
    }
  return lat + mem_time(u, p.first) + body + tail + lat + mem_time(u, p.last_store);
}

double lower_bound_cycles(const cfg::UnitConfig& u, const Tiling& t) {
  const Profile p = profile(u, t);
  const double lat = static_cast<double>(u.mem_latency);
  // The critical path: the first tiles over the bus, every step on the array, the tail, the last
  // store over the bus. The bus carries every beat; every transaction holds one of the
  // `outstanding` slots for its beats and the latency.
  const double path = lat + p.first.beats + p.compute_min + static_cast<double>(output_tail(u)) + p.last_store.beats + lat;
  const double bus = p.all.beats + lat;
  const double slots = (p.all.txns * lat + p.all.beats) / static_cast<double>(u.outstanding);
  return std::max({path, bus, slots});
}

namespace {
std::function<void(const std::string&)>& tiling_progress() {
  static std::function<void(const std::string&)> f;
  return f;
}

// Rate-limited progress lines of one search: the first after kFirst seconds, then every kEvery.
class SearchProgress {
 public:
  SearchProgress(uint64_t M, uint64_t N, uint64_t K, size_t candidates)
      : what_(std::to_string(M) + " x " + std::to_string(N) + " x " + std::to_string(K)), candidates_(candidates),
        start_(std::chrono::steady_clock::now()), next_(kFirst) {}
  bool on() const { return static_cast<bool>(tiling_progress()); }
  void candidate(size_t done, uint64_t best) { report(std::to_string(done) + " of " + std::to_string(candidates_) +
                                                      " candidates simulated, best " + std::to_string(best) + " cycles"); }
  void steps(size_t j, uint64_t done, uint64_t all) {
    report("candidate " + std::to_string(j + 1) + " of " + std::to_string(candidates_) + ": step " + std::to_string(done) +
           " of " + std::to_string(all));
  }

 private:
  static constexpr double kFirst = 2.0, kEvery = 5.0;
  void report(const std::string& s) {
    if (!on()) return;
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (t < next_) return;
    next_ = t + kEvery;
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.0f s", t);
    tiling_progress()("[tiling] " + what_ + ": " + s + " (" + secs + ")");
  }
  std::string what_;
  size_t candidates_;
  std::chrono::steady_clock::time_point start_;
  double next_;
};
}  // namespace

void set_tiling_progress(std::function<void(const std::string&)> report) { tiling_progress() = std::move(report); }

uint64_t simulate_cycles(const cfg::UnitConfig& u, const Tiling& t) { return simulate_cycles(u, t, UINT64_MAX); }

namespace {
uint64_t simulate_cycles(const cfg::UnitConfig& u, const Tiling& t, uint64_t give_up_after,
                         const std::function<void(uint64_t, uint64_t)>& step_progress);
}

uint64_t simulate_cycles(const cfg::UnitConfig& u, const Tiling& t, uint64_t give_up_after) {
  return simulate_cycles(u, t, give_up_after, nullptr);
}

namespace {

uint64_t simulate_cycles(const cfg::UnitConfig& u, const Tiling& t, uint64_t give_up_after,
                         const std::function<void(uint64_t, uint64_t)>& step_progress) {
  // Addresses only have to be distinct regions; timing does not depend on them.
  GemmCommand c;
  c.M = t.M;
  c.N = t.N;
  c.K = t.K;
  c.values = false;
  const uint64_t region = uint64_t{1} << 44;
  c.a_addr = 0;
  c.b_addr = region;
  c.r_addr = 2 * region;
  c.c_addr = 3 * region;
  PlainMemory mem(u.mem_bytes_per_cycle, u.mem_latency, std::numeric_limits<uint64_t>::max() / 2, false);
  Engine e(u, 1);
  e.give_up_after = give_up_after;
  if (step_progress) e.progress = step_progress;
  uint64_t end = 0;
  return e.run(c, t, mem, 0, &end).cycles.total;
}
}  // namespace

Tiling choose_tiling(const cfg::UnitConfig& u, uint64_t M, uint64_t N, uint64_t K) {
  const std::vector<Tiling> cand = tiling_candidates(u, M, N, K);
  if (cand.empty()) {
    const std::string where = u.source.empty() ? "config" : u.source;
    // Name the field that keeps every tile from fitting.
    const Tiling small = make_tiling(u, M, N, K, u.tile_m ? u.tile_m : 1, u.tile_n ? u.tile_n : 1,
                                     u.tile_k ? u.tile_k : u.dot_width(), false);
    if (u.tile_m || u.tile_n) check_tiling_fits(u, small);
    throw Error(where, u.tile_m ? "tiling.m" : "buffers.acc.bytes",
                "no output tile fits the buffers for this GEMM (" + std::to_string(M) + " x " + std::to_string(N) +
                    " x " + std::to_string(K) + ")");
  }
  if (cand.size() == 1) return cand[0];
  // Branch and bound over every candidate: the best estimates first (a good bound early), a
  // candidate skipped when its lower bound cannot beat the best simulated so far, a simulation
  // abandoned once it falls behind. The result is the fastest candidate, exactly.
  struct Ranked {
    double est, lb;
    size_t i;
  };
  std::vector<Ranked> r;
  r.reserve(cand.size());
  for (size_t i = 0; i < cand.size(); ++i) r.push_back({estimate_cycles(u, cand[i]), lower_bound_cycles(u, cand[i]), i});
  std::sort(r.begin(), r.end(), [](const Ranked& a, const Ranked& b) { return a.est != b.est ? a.est < b.est : a.i < b.i; });
  // Equal cycles: fewer steps, then a larger K tile, then the candidate order.
  auto preferred = [&](size_t a, size_t b) {
    const Tiling &x = cand[a], &y = cand[b];
    if (x.steps() != y.steps()) return x.steps() < y.steps();
    if (x.kt != y.kt) return x.kt > y.kt;
    return a < b;
  };
  SearchProgress progress(M, N, K, r.size());
  size_t j_now = 0;
  const std::function<void(uint64_t, uint64_t)> steps =
      progress.on() ? std::function<void(uint64_t, uint64_t)>([&](uint64_t d, uint64_t a) { progress.steps(j_now, d, a); })
                    : nullptr;
  size_t best = r[0].i;
  uint64_t best_cycles = simulate_cycles(u, cand[best], UINT64_MAX, steps);
  for (size_t j = 1; j < r.size(); ++j) {
    progress.candidate(j, best_cycles);
    if (r[j].lb > static_cast<double>(best_cycles)) continue;
    j_now = j;
    // Abandoned (UINT64_MAX) once a step ends at or after best_cycles: it cannot even tie.
    const uint64_t c = simulate_cycles(u, cand[r[j].i], best_cycles - 1, steps);
    if (c < best_cycles || (c == best_cycles && preferred(r[j].i, best))) {
      best = r[j].i;
      best_cycles = c;
    }
  }
  return cand[best];
}

}  // namespace hifsim::perf
