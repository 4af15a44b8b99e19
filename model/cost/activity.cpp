#include "cost/activity.hpp"

#include <algorithm>
#include <vector>

#include "datapath/accumulator.hpp"
#include "datapath/hw.hpp"
#include "gemm/gemm.hpp"
#include "util/error.hpp"
#include "util/rng.hpp"

namespace hifsim::cost {

using i128 = __int128;
using u128 = unsigned __int128;

// ---------------------------------------------------------------------------------------------
// Activity

double Activity::toggles_per_dot(const std::string& comp) const {
  auto it = toggle_sum.find(comp);
  if (it == toggle_sum.end()) throw Error("cost activity", comp, "no activity was measured for this component");
  return transitions ? it->second / static_cast<double>(transitions) : 0.0;
}
double Activity::bits_per_dot(const std::string& comp) const {
  auto it = bit_sum.find(comp);
  if (it == bit_sum.end()) throw Error("cost activity", comp, "no activity was measured for this component");
  return transitions ? it->second / static_cast<double>(transitions) : 0.0;
}
double Activity::alpha(const std::string& comp) const {
  const double b = bits_per_dot(comp);
  return b > 0 ? toggles_per_dot(comp) / b : 0.0;
}
Activity& Activity::operator+=(const Activity& o) {
  if (source.empty()) source = o.source;
  else if (!o.source.empty() && o.source != source) source += "; " + o.source;
  dots += o.dots;
  transitions += o.transitions;
  for (const auto& [k, v] : o.toggle_sum) toggle_sum[k] += v;
  for (const auto& [k, v] : o.bit_sum) bit_sum[k] += v;
  return *this;
}

// ---------------------------------------------------------------------------------------------
// ToggleRecorder

void ToggleRecorder::begin() {
  for (auto& [k, s] : slots_) {
    s.v.clear();
    s.w.clear();
  }
}

void ToggleRecorder::put(const std::string& comp, uint64_t value, int width) {
  if (width < 1 || width > 64) throw Error("cost activity", comp, "value width must be 1..64");
  Slot& s = slots_[comp];
  s.v.push_back(width == 64 ? value : (value & ((uint64_t{1} << width) - 1)));
  s.w.push_back(width);
}

void ToggleRecorder::put128(const std::string& comp, i128 value, int width) {
  if (width < 1 || width > 128) throw Error("cost activity", comp, "value width must be 1..128");
  const u128 u = static_cast<u128>(value);
  if (width <= 64) {
    put(comp, static_cast<uint64_t>(u), width);
  } else {
    put(comp, static_cast<uint64_t>(u), 64);
    put(comp, static_cast<uint64_t>(u >> 64), width - 64);
  }
}

void ToggleRecorder::end(Activity& into) {
  ++into.dots;
  if (have_prev_) {
    ++into.transitions;
    for (auto& [k, s] : slots_) {
      if (s.w != s.prevw)
        throw Error("cost activity", k, "the recorded nets changed shape between operations (internal error)");
      uint64_t t = 0, b = 0;
      for (size_t i = 0; i < s.v.size(); ++i) {
        t += static_cast<uint64_t>(__builtin_popcountll(s.v[i] ^ s.prev[i]));
        b += static_cast<uint64_t>(s.w[i]);
      }
      into.toggle_sum[k] += static_cast<double>(t);
      into.bit_sum[k] += static_cast<double>(b);
    }
  }
  for (auto& [k, s] : slots_) {
    s.prev.swap(s.v);
    s.prevw.swap(s.w);
  }
  have_prev_ = true;
}

Activity measure_activity(const UnitSpec& s, const fmt::QTensor& A, const fmt::QTensor& B, const ActivityOptions& o) {
  if (A.format != s.format || B.format != s.format) throw Error("cost activity", "operands", "not quantized in the unit's format");
  if (A.padded_cols != B.padded_cols || A.padded_cols % static_cast<size_t>(s.lanes) != 0)
    throw Error("cost activity", "K", "operands are not padded to the same multiple of the unit width");
  const dp::hw::DotUnitHw& unit = dp::hw::dot_unit(s.format);
  if (const auto [field, why] = unit.unsupported(s); !field.empty()) throw Error("cost activity", field, why);
  if (s.acc.kind == dp::AccSpec::kulisch) throw Error("cost activity", "accumulator", "kulisch is not modelled");
  const dp::hw::UnitDesc desc = unit.describe(s);
  const size_t M = A.rows, N = B.rows, nblk = A.padded_cols / static_cast<size_t>(s.lanes);
  Activity act;
  if (M == 0 || N == 0 || nblk == 0) return act;
  ToggleRecorder rec;
  dp::Accumulator acc(s.acc);
  SplitMix64 rng(mix64(o.seed) ^ 0xC057u);
  // At most the dot operations the sampled region has (outputs are drawn with replacement, so a
  // larger sample only repeats them): 10^8 on a 2 x 2 x 64 GEMM is 4 operations, not 10^8.
  const size_t region = (o.order == cfg::Dataflow::os ? M : std::min<size_t>(M, 16)) * N * nblk;
  const size_t want = std::min(std::max<size_t>(o.sample_dots, 2), std::max<size_t>(region, 2));
  auto step = [&](size_t m, size_t n, size_t blk, float acc_in, float& acc_out) {
    rec.begin();
    const float d = unit.trace(desc, s, A, m, B, n, blk, rec);
    acc.reset(acc_in);
    acc.add_value(d);
    acc_out = acc.state();
    dp::hw::acc_nets(acc_in, d, acc_out, s.acc, rec);
    rec.end(act);
  };
  if (o.order == cfg::Dataflow::os) {
    size_t done = 0;
    while (done < want) {
      const size_t i = rng.below(M * N);
      const size_t m = i / N, n = i % N;
      float a = 0.0f;
      for (size_t blk = 0; blk < nblk && done < want; ++blk, ++done) step(m, n, blk, a, a);
    }
  } else {
    const size_t rows = std::min<size_t>(M, 16);
    std::vector<float> part(rows);
    size_t done = 0;
    while (done < want) {
      const size_t n = rng.below(N);
      std::fill(part.begin(), part.end(), 0.0f);
      for (size_t blk = 0; blk < nblk && done < want; ++blk)
        for (size_t m = 0; m < rows && done < want; ++m, ++done) step(m, n, blk, part[m], part[m]);
    }
  }
  return act;
}

Activity measure_activity(const UnitSpec& s, const dp::GemmSpec& g, const float* A, size_t M, size_t K, const float* B,
                          size_t N, const ActivityOptions& o) {
  const fmt::QTensor qa = dp::quantize_operand(A, M, K, g);
  const fmt::QTensor qb = dp::quantize_operand(B, N, K, g);
  return measure_activity(s, qa, qb, o);
}

}  // namespace hifsim::cost
