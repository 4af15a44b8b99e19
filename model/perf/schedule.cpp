#include "perf/schedule.hpp"

#include "perf/autotile.hpp"

#include <algorithm>
#include <limits>

namespace hifsim::perf {
namespace {

constexpr uint64_t kNone = std::numeric_limits<uint64_t>::max();

struct Load {
  uint64_t first = 0;
  int64_t trigger = -1;
  uint32_t slot = 0;
};

// LRU over `slots` slots: the loads of one buffer and, per step, which load provides its tile.
template <class IdFn>
std::vector<Load> plan_buffer(uint64_t steps, uint32_t slots, IdFn id, std::vector<uint32_t>& load_of_step) {
  std::vector<Load> loads;
  load_of_step.resize(steps);
  struct Slot {
    uint64_t id = kNone, last = 0;
    uint32_t load = 0;
    bool used = false;
  };
  std::vector<Slot> s(slots);
  for (uint64_t i = 0; i < steps; ++i) {
    const uint64_t x = id(i);
    int hit = -1;
    for (uint32_t k = 0; k < slots; ++k)
      if (s[k].used && s[k].id == x) hit = static_cast<int>(k);
    if (hit < 0) {
      uint32_t v = 0;
      bool empty = false;
      for (uint32_t k = 0; k < slots; ++k)
        if (!s[k].used) {
          v = k;
          empty = true;
          break;
        }
      if (!empty)
        for (uint32_t k = 1; k < slots; ++k)
          if (s[k].last < s[v].last) v = k;
      loads.push_back({i, empty ? -1 : static_cast<int64_t>(s[v].last), v});
      s[v] = {x, i, static_cast<uint32_t>(loads.size() - 1), true};
      hit = static_cast<int>(v);
    }
    s[static_cast<size_t>(hit)].last = i;
    load_of_step[i] = s[static_cast<size_t>(hit)].load;
  }
  return loads;
}

}  // namespace

Schedule build_schedule(const cfg::UnitConfig& u, uint64_t M, uint64_t N, uint64_t K) {
  return build_schedule(u, choose_tiling(u, M, N, K));
}

Schedule build_schedule(const cfg::UnitConfig& u, const Tiling& tiling) {
  Schedule sc;
  sc.t = tiling;
  const Tiling& t = sc.t;
  const uint64_t steps = t.steps();
  std::vector<uint32_t> la, lb;
  const std::vector<Load> A = plan_buffer(steps, u.a.slots(), [&](uint64_t i) { return step_at(t, i).a_id(); }, la);
  const std::vector<Load> B = plan_buffer(steps, u.b.slots(), [&](uint64_t i) { return step_at(t, i).b_id(); }, lb);

  // Loads grouped by trigger step (trigger + 1 so that -1 maps to 0), each group by first step, A before B.
  struct Ref {
    int64_t trigger;
    uint64_t first;
    int buf;
    uint32_t idx;
  };
  std::vector<Ref> refs;
  refs.reserve(A.size() + B.size());
  for (uint32_t i = 0; i < A.size(); ++i) refs.push_back({A[i].trigger, A[i].first, 0, i});
  for (uint32_t i = 0; i < B.size(); ++i) refs.push_back({B[i].trigger, B[i].first, 1, i});
  std::sort(refs.begin(), refs.end(), [](const Ref& x, const Ref& y) {
    if (x.trigger != y.trigger) return x.trigger < y.trigger;
    if (x.first != y.first) return x.first < y.first;
    return x.buf < y.buf;
  });
  std::vector<uint32_t> job_of_a(A.size()), job_of_b(B.size());
  sc.store_job.resize(t.outputs());
  sc.jobs.reserve(refs.size() + t.outputs());
  size_t r = 0;
  auto emit_loads = [&](int64_t trig) {
    while (r < refs.size() && refs[r].trigger == trig) {
      const Ref& x = refs[r++];
      const Load& l = x.buf ? B[x.idx] : A[x.idx];
      DmaJob j;
      j.kind = x.buf ? DmaJob::load_b : DmaJob::load_a;
      j.trigger = l.trigger;
      j.step = l.first;
      j.slot = l.slot;
      (x.buf ? job_of_b : job_of_a)[x.idx] = static_cast<uint32_t>(sc.jobs.size());
      sc.jobs.push_back(j);
    }
  };
  emit_loads(-1);
  const uint32_t acc_slots = u.acc_buf.slots();
  for (uint64_t i = 0; i < steps; ++i) {
    emit_loads(static_cast<int64_t>(i));
    const uint64_t ks = t.ksteps();
    if (i % ks == ks - 1) {
      DmaJob j;
      j.kind = DmaJob::store;
      j.trigger = static_cast<int64_t>(i);
      j.step = i;
      j.out = i / ks;
      j.slot = static_cast<uint32_t>(j.out % acc_slots);
      sc.store_job[j.out] = static_cast<uint32_t>(sc.jobs.size());
      sc.jobs.push_back(j);
    }
  }
  sc.a_job.resize(steps);
  sc.b_job.resize(steps);
  for (uint64_t i = 0; i < steps; ++i) {
    sc.a_job[i] = job_of_a[la[i]];
    sc.b_job[i] = job_of_b[lb[i]];
  }
  return sc;
}

}  // namespace hifsim::perf
