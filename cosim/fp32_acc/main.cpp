// cosim_fp32_acc: rtl/fp32_acc.sv (several parameter sets side by side in
// fp32_acc_cosim_top.sv) against hifsim::dp::Accumulator, the register compared after every step.
//
// Vector: one sequence of operations, two words per step: {op, value}, op 0 = idle,
// 1 = clear, 2 = init(value), 3 = add(value). The first step is always clear or init, so a
// sequence is independent of the ones before it (the RTL register is not reset between
// sequences; a replay runs the sequence from reset).
// Output: the NV registers (fields v<i>.sign / exponent / mantissa, variant names such as
// fp32-m13-rz). Sources: corner, random (FP32 class mix), near (addends made from the current
// register: cancellation, ties, huge gaps, overflow), dot and tensor (HiF4 dot-unit outputs of
// shaped / real-tensor blocks: what a GEMM feeds the accumulator).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "Vfp32_acc_cosim_top.h"
#include "Vfp32_acc_cosim_top_mutant.h"
#include "common/cosim.hpp"
#include "common/stimulus.hpp"
#include "common/stream_driver.hpp"
#include "datapath/accumulator.hpp"
#include "datapath/fp_add.hpp"
#include "datapath/hif4_dot.hpp"
#include "formats/bits.hpp"

using namespace hifsim;
using namespace hifsim::cosim;
using stim::F32Class;

namespace {

enum Source { kCorner, kRandom, kNear, kDot, kTensor };
const std::vector<std::string> kSources = {"corner", "random", "near", "dot", "tensor"};
enum Op : uint32_t { kIdle = 0, kClear = 1, kInit = 2, kAdd = 3 };
constexpr int kMaxSteps = 32;

struct Variant {
  int mant_bits;
  bool rz;
  dp::AccSpec spec() const {
    dp::AccSpec s;
    if (mant_bits == 23 && !rz) return s;  // `fp32`: the host binary32 addition
    s.kind = dp::AccSpec::fp32_reduced;
    s.mant_bits = mant_bits;
    s.mode = rz ? dp::RoundMode::rz : dp::RoundMode::rne;
    return s;
  }
  int precision() const { return mant_bits + 1; }
};

// ---- exact classification of one addition (coverage only; the golden value is Accumulator) ----
int bitlen(dp::u128 v) {
  const uint64_t hi = static_cast<uint64_t>(v >> 64), lo = static_cast<uint64_t>(v);
  return hi ? 128 - __builtin_clzll(hi) : lo ? 64 - __builtin_clzll(lo) : 0;
}
struct AddClass {
  bool far = false;        // exponent gap beyond the model's exact path (sticky only)
  bool exact_zero = false;
  bool exact = false, tie = false, carry = false;
  int lead_exp = 0;        // exponent of the exact sum's leading bit
  bool overflow = false;   // exact |sum| >= 2^128
};
AddClass classify(uint32_t a, uint32_t b, int p, bool rz) {
  AddClass c;
  dp::ExactValue x = dp::ExactValue::from_float(fmt::bits_f32(a)), y = dp::ExactValue::from_float(fmt::bits_f32(b));
  if (x.mag == 0 || y.mag == 0) {
    const dp::ExactValue& z = x.mag ? x : y;
    if (z.mag == 0) {
      c.exact_zero = c.exact = true;
      return c;
    }
    x = z;
    y = dp::ExactValue::zero();
    y.exp = x.exp;
  }
  if (x.exp < y.exp) std::swap(x, y);
  const int d = x.exp - y.exp;
  if (d > 100) {
    c.far = true;
    c.lead_exp = x.exp + bitlen(x.mag) - 1;
    return c;
  }
  const dp::i128 s = static_cast<dp::i128>(x.mag << d) * (x.neg ? -1 : 1) + static_cast<dp::i128>(y.mag) * (y.neg ? -1 : 1);
  if (s == 0) {
    c.exact_zero = c.exact = true;
    return c;
  }
  const dp::u128 mag = static_cast<dp::u128>(s < 0 ? -s : s);
  const int n = bitlen(mag);
  const int e = y.exp + n - 1;
  c.lead_exp = e;
  c.overflow = e >= 128;
  const int q = std::max(e, -126) - (p - 1);
  const int sh = q - y.exp;
  if (sh <= 0) {
    c.exact = true;
    return c;
  }
  const dp::u128 rem = mag & ((static_cast<dp::u128>(1) << sh) - 1), half = static_cast<dp::u128>(1) << (sh - 1);
  dp::u128 kept = mag >> sh;
  c.exact = rem == 0;
  c.tie = rem == half;
  const bool up = !rz && (rem > half || (rem == half && (kept & 1)));
  if (up) {
    ++kept;
    c.carry = (kept & (kept - 1)) == 0 && bitlen(kept) > bitlen(mag >> sh);
  }
  return c;
}

template <class Model>
class AccHarness {
 public:
  AccHarness(Session& s, std::vector<Variant> vars, const std::string& npy) : s_(s), vars_(std::move(vars)) {
    if (s_.opt().only_source.empty() || s_.opt().only_source == "tensor") tensor_.reset(new stim::NpyBlocks(npy));
    Coverage& c = s_.cov();
    for (int i = 0; i < stim::kF32Classes; ++i)
      for (int j = 0; j < stim::kF32Classes; ++j) {
        const int id = c.declare(std::string("pair.") + stim::f32_class_name(static_cast<F32Class>(i)) + "+" +
                                 stim::f32_class_name(static_cast<F32Class>(j)));
        if (i == 0 && j == 0) cov_pair_ = id;
      }
    cov_cancel_ = c.declare("sum.exact_cancellation");
    cov_massive_ = c.declare("sum.massive_cancellation_10+bits");
    cov_ovf_rne_ = c.declare("overflow.rne_to_inf");
    cov_ovf_rz_ = c.declare("overflow.rz_to_max_finite");
    cov_sub_ = c.declare("underflow.normal_operands_to_subnormal");
    cov_uzero_ = c.declare("underflow.nonzero_to_zero");
    cov_tie_rne_ = c.declare("round.tie_rne");
    cov_tie_rz_ = c.declare("round.tie_rz");
    cov_inexact_rne_ = c.declare("round.inexact_rne");
    cov_inexact_rz_ = c.declare("round.inexact_rz");
    cov_carry_ = c.declare("round.carry_into_exponent");
    // Every alignment shift of the adder: d = exponent difference (subnormals at 1), 0..27, 28+.
    for (int d = 0; d <= 28; ++d) {
      const int id = c.declare(d < 28 ? "align.d" + std::to_string(d) : std::string("align.d28+"));
      if (d == 0) cov_align_ = id;
    }
    cov_gap_jam_ = c.declare("gap.4_to_27_jammed_sticky");
    cov_gap_sticky_ = c.declare("gap.28+_operand_is_sticky");
    cov_gap_far_ = c.declare("gap.model_far_path_100+");
    cov_negzero_ = c.declare("zero.neg_plus_neg");
    cov_mixzero_ = c.declare("zero.pos_plus_neg");
    cov_infinf_ = c.declare("special.inf_minus_inf");
    cov_init_round_ = c.declare("init.rounded_to_precision");
    cov_init_nan_ = c.declare("init.nan_canonicalised");
    cov_clear_ = c.declare("op.clear");
    cov_idle_ = c.declare("op.idle");
    cov_src_ = c.declare_group("source.", kSources, false);
  }

  const std::vector<Variant>& variants() const { return vars_; }
  std::string variant_name(size_t v) const { return vars_[v].spec().name(); }

  // ---- golden ----
  void golden_reset() {
    accs_.clear();
    for (const auto& v : vars_) accs_.emplace_back(v.spec());
  }
  // Applies one step to the golden accumulators, fills the expected registers, counts coverage.
  void golden_step(uint32_t op, uint32_t val, uint32_t* expected, bool count) {
    Coverage& c = s_.cov();
    for (size_t v = 0; v < vars_.size(); ++v) {
      dp::Accumulator& a = accs_[v];
      const uint32_t before = fmt::f32_bits(a.result());
      switch (op) {
        case kClear: a.reset(0.0f); break;
        case kInit: a.reset(fmt::bits_f32(val)); break;
        case kAdd: a.add_value(fmt::bits_f32(val)); break;
        default: break;
      }
      const uint32_t after = fmt::f32_bits(a.result());
      expected[v] = after;
      if (!count) continue;
      if (op == kClear) c.hit(cov_clear_);
      if (op == kIdle) c.hit(cov_idle_);
      if (op == kInit) {
        if (stim::f32_class(val) == F32Class::nan) c.hit(cov_init_nan_);
        else if (after != val) c.hit(cov_init_round_);
      }
      if (op == kAdd) count_add(before, val, after, vars_[v]);
    }
  }

  void count_add(uint32_t a, uint32_t b, uint32_t r, const Variant& var) {
    Coverage& c = s_.cov();
    const F32Class ca = stim::f32_class(a), cb = stim::f32_class(b), cr = stim::f32_class(r);
    c.hit(cov_pair_ + stim::kF32Classes * static_cast<int>(ca) + static_cast<int>(cb));
    if (ca == F32Class::inf && cb == F32Class::inf && ((a ^ b) >> 31)) c.hit(cov_infinf_);
    if (ca == F32Class::zero && cb == F32Class::zero) c.hit((a & b) >> 31 ? cov_negzero_ : cov_mixzero_);
    const bool fin_a = ca != F32Class::inf && ca != F32Class::nan, fin_b = cb != F32Class::inf && cb != F32Class::nan;
    if (!fin_a || !fin_b) return;
    const AddClass k = classify(a, b, var.precision(), var.rz);
    const bool both_nz = ca != F32Class::zero && cb != F32Class::zero;
    if (both_nz) {
      const int ea = static_cast<int>((a >> 23) & 0xFF), eb = static_cast<int>((b >> 23) & 0xFF);
      const int d = std::abs(std::max(ea, 1) - std::max(eb, 1));
      c.hit(cov_align_ + std::min(d, 28));
      if (d >= 28) c.hit(cov_gap_sticky_);
      else if (d >= 4) {
        // bits of the smaller significand below the 27-bit field
        const uint32_t small = (ea >= eb ? b : a) & 0x7FFFFFFF;
        const uint32_t sig = (small >> 23 ? 0x800000u : 0u) | (small & 0x7FFFFF);
        if ((static_cast<uint64_t>(sig) << 3) & ((uint64_t{1} << d) - 1)) c.hit(cov_gap_jam_);
      }
      if (k.far) c.hit(cov_gap_far_);
      if (k.exact_zero) c.hit(cov_cancel_);
      const int lead_max = std::max(ea, eb) - 127;  // exponent of the larger operand (normal)
      if (!k.exact_zero && !k.far && k.lead_exp <= lead_max - 10 && std::max(ea, eb) > 0) c.hit(cov_massive_);
      if (ca == F32Class::normal && cb == F32Class::normal && cr == F32Class::subnormal) c.hit(cov_sub_);
      if (!k.exact_zero && cr == F32Class::zero) c.hit(cov_uzero_);
    }
    if (k.overflow || cr == F32Class::inf) c.hit(var.rz ? cov_ovf_rz_ : cov_ovf_rne_);
    if (k.tie) c.hit(var.rz ? cov_tie_rz_ : cov_tie_rne_);
    if (!k.exact) c.hit(var.rz ? cov_inexact_rz_ : cov_inexact_rne_);
    if (k.carry) c.hit(cov_carry_);
  }

  // ---- stimulus ----
  static void push(Vector& v, uint32_t op, uint32_t val) {
    v.w.push_back(op);
    v.w.push_back(val);
  }

  std::vector<Vector> corners() {
    std::vector<Vector> out;
    auto seq = [&](std::initializer_list<std::pair<uint32_t, uint32_t>> ops) {
      Vector v;
      v.source = kCorner;
      for (const auto& o : ops) push(v, o.first, o.second);
      out.push_back(v);
    };
    const uint32_t P0 = 0, N0 = 0x80000000u, PINF = 0x7F800000u, NINF = 0xFF800000u, ONE = 0x3F800000u;
    const uint32_t MAXF = 0x7F7FFFFFu, MINSUB = 1, MINNORM = 0x00800000u;
    seq({{kClear, 0}, {kAdd, N0}, {kAdd, P0}, {kInit, N0}, {kAdd, N0}, {kAdd, P0}, {kAdd, N0}});
    seq({{kInit, PINF}, {kAdd, NINF}, {kAdd, ONE}, {kInit, 0x7F800001u}, {kAdd, ONE}, {kInit, 0xFFC12345u}, {kIdle, 0}});
    seq({{kInit, PINF}, {kAdd, PINF}, {kAdd, 0xC2F60000u}, {kInit, NINF}, {kAdd, MAXF}});
    seq({{kInit, MAXF}, {kAdd, MAXF}, {kInit, MAXF | N0}, {kAdd, MAXF | N0}, {kInit, MAXF}, {kAdd, 0x73000000u}});
    seq({{kInit, MAXF}, {kAdd, 0x72FFFFFFu}, {kAdd, 0x73000001u}, {kInit, 0x7F7FFFFEu}, {kAdd, 0x73000000u}});
    seq({{kInit, ONE}, {kAdd, 0x33800000u}, {kAdd, 0x33800000u}, {kInit, 0x3F800001u}, {kAdd, 0x33800000u},
         {kInit, ONE}, {kAdd, 0x33800001u}, {kInit, ONE}, {kAdd, 0xB3800000u}, {kInit, ONE}, {kAdd, 0xB3000000u}});
    seq({{kInit, MINSUB}, {kAdd, MINSUB | N0}, {kInit, 0x007FFFFFu}, {kAdd, MINSUB}, {kInit, MINNORM}, {kAdd, MINSUB | N0},
         {kInit, 0x00400000u}, {kAdd, 0x00400000u}, {kInit, MINSUB}, {kInit, MINSUB | N0}});
    seq({{kInit, ONE}, {kAdd, 0x30800000u}, {kAdd, 0x0B800000u}, {kAdd, 0x8B800000u}, {kAdd, MINSUB}, {kAdd, MINSUB | N0},
         {kInit, 0x7E800000u}, {kAdd, MINSUB}, {kAdd, MINSUB | N0}, {kAdd, 0x00000003u}});
    seq({{kInit, 0x3F800010u}, {kAdd, 0x3F800001u}, {kInit, 0x3F8FFFFFu}, {kAdd, ONE}, {kInit, 0x40400000u}, {kAdd, 0xC0400000u},
         {kAdd, 0x3FC00000u}, {kAdd, 0xBFBFFFFFu}});
    seq({{kInit, 0x3F8FFFFFu}, {kInit, 0x3F800800u}, {kInit, 0x3F801000u}, {kInit, 0x3F803000u}, {kInit, 0xFF7FFFFFu}});
    // Every (register class, addend class) pair: init with class i, add class j.
    SplitMix64 r(0xACC0);
    for (int i = 0; i < stim::kF32Classes; ++i)
      for (int j = 0; j < stim::kF32Classes; ++j)
        for (int t = 0; t < 3; ++t) {
          Vector v;
          v.source = kCorner;
          push(v, kInit, stim::random_f32(r, static_cast<F32Class>(i)));
          push(v, kAdd, stim::random_f32(r, static_cast<F32Class>(j)));
          out.push_back(v);
        }
    return out;
  }

  uint32_t dot_addend(SplitMix64& r, bool tensor) {
    float x[64];
    fmt::Hif4Unit a, b;
    if (tensor && tensor_) {
      tensor_->block(r, x, 64);
      a = stim::hif4_quantize_random_opts(r, x);
      tensor_->block(r, x, 64);
      b = stim::hif4_quantize_random_opts(r, x);
    } else {
      stim::shaped_block(r, x, 64);
      a = stim::hif4_quantize_random_opts(r, x);
      stim::shaped_block(r, x, 64);
      b = stim::hif4_quantize_random_opts(r, x);
    }
    return fmt::f32_bits(dp::Hif4Dot64::compute(a, b).value);
  }

  // An addend made from register `acc` of a variant with precision p.
  static uint32_t near_addend(SplitMix64& r, uint32_t acc, int p) {
    const F32Class c = stim::f32_class(acc);
    if (c == F32Class::nan || c == F32Class::inf || c == F32Class::zero) return stim::random_f32_mixed(r);
    const uint32_t s = acc & 0x80000000u, mag = acc & 0x7FFFFFFFu;
    const int e = std::max(static_cast<int>(mag >> 23), 1) - 127;  // exponent of the register's binade
    auto pow2 = [](int k, uint32_t sign) -> uint32_t {
      if (k > 127) return sign | 0x7F7FFFFFu;
      if (k < -149) return sign | 1u;
      return sign | fmt::f32_bits(fmt::pow2f(k));
    };
    switch (r.below(10)) {
      case 0: return mag | (s ^ 0x80000000u);                                   // exact cancellation
      case 1: {                                                                  // massive cancellation
        const uint32_t m2 = mag + static_cast<uint32_t>(r.below(64)) - 32;
        return ((m2 & 0x7F800000u) == 0x7F800000u ? mag : m2) | (s ^ 0x80000000u);
      }
      case 2: return pow2(e - p, r.below(2) ? s : s ^ 0x80000000u);             // half an ulp: a tie
      case 3: return pow2(e - p - 1 - static_cast<int>(r.below(3)), r.below(2) ? s : s ^ 0x80000000u);  // below half
      case 4: {                                                                  // tie +- a sticky bit
        const uint32_t h = pow2(e - p, 0);
        return (h + (r.below(2) ? 1u : 0xFFFFFFFFu)) | (r.below(2) ? s : s ^ 0x80000000u);
      }
      case 5: return pow2(e - 28 - static_cast<int>(r.below(20)), r.next() & 1 ? 0x80000000u : 0);   // gap 28+
      case 6: return pow2(e - 101 - static_cast<int>(r.below(60)), r.next() & 1 ? 0x80000000u : 0);  // model's far path
      case 7: return acc;                                                        // doubling: exponent carry
      case 8: {                                                                  // large values: overflow
        const uint32_t big = (static_cast<uint32_t>(250 + r.below(5)) << 23) | (r.next32() & 0x7FFFFF);
        return big | s;
      }
      default: {                                                                 // a nearby value, short gap
        const int k = static_cast<int>(r.below(30));
        return (stim::random_f32(r, F32Class::normal) & 0x807FFFFFu) |
               (static_cast<uint32_t>(std::clamp(e + 127 - k, 1, 254)) << 23);
      }
    }
  }

  Vector random(SplitMix64& r) {
    Vector v;
    const std::string& only = s_.opt().only_source;
    if (!only.empty() && only != "corner") {
      v.source = static_cast<int>(std::find(kSources.begin(), kSources.end(), only) - kSources.begin());
    } else {
      const uint64_t k = r.below(10);
      v.source = k < 3 ? kRandom : k < 7 ? kNear : k < 9 ? kDot : kTensor;
    }
    // The generator runs its own golden copy so `near` addends see the register values.
    std::vector<dp::Accumulator> g;
    for (const auto& var : vars_) g.emplace_back(var.spec());
    const int steps = 2 + static_cast<int>(r.below(kMaxSteps - 1));
    for (int i = 0; i < steps; ++i) {
      uint32_t op = kAdd, val = 0;
      const uint64_t k = r.below(100);
      if (i == 0) op = r.below(2) ? kClear : kInit;
      else if (k < 3) op = kInit;
      else if (k < 5) op = kClear;
      else if (k < 9) op = kIdle;
      if (op == kInit) {
        val = r.below(4) == 0 && v.source == kDot ? dot_addend(r, false) : stim::random_f32_mixed(r);
      } else if (op == kAdd) {
        const uint64_t pick = r.below(10);
        if (pick == 0) val = stim::random_f32_mixed(r);
        else if (v.source == kRandom) val = stim::random_f32_mixed(r);
        else if (v.source == kNear) {
          const size_t which = static_cast<size_t>(r.below(vars_.size()));
          val = near_addend(r, fmt::f32_bits(g[which].result()), vars_[which].precision());
        } else val = dot_addend(r, v.source == kTensor);
      }
      if (op == kIdle || op == kClear) val = r.next32();  // ignored by the unit (and the model)
      push(v, op, val);
      for (auto& a : g) {
        if (op == kClear) a.reset(0.0f);
        else if (op == kInit) a.reset(fmt::bits_f32(val));
        else if (op == kAdd) a.add_value(fmt::bits_f32(val));
      }
    }
    return v;
  }

  std::string describe(const Vector& v) const {
    static const char* const kOps[] = {"idle", "clear", "init", "add"};
    std::string s = "sequence (register values of the C++ model after each step):";
    std::vector<dp::Accumulator> g;
    for (const auto& var : vars_) g.emplace_back(var.spec());
    char buf[160];
    for (size_t i = 0; i + 1 < v.w.size(); i += 2) {
      const uint32_t op = v.w[i] & 3, val = v.w[i + 1];
      std::snprintf(buf, sizeof buf, "\n  step %2zu: %-5s 0x%08x (%a) ->", i / 2, kOps[op], val, static_cast<double>(fmt::bits_f32(val)));
      s += buf;
      for (auto& a : g) {
        if (op == kClear) a.reset(0.0f);
        else if (op == kInit) a.reset(fmt::bits_f32(val));
        else if (op == kAdd) a.add_value(fmt::bits_f32(val));
        std::snprintf(buf, sizeof buf, " %08x", fmt::f32_bits(a.result()));
        s += buf;
      }
    }
    s += "\n  (registers in the order:";
    for (size_t k = 0; k < vars_.size(); ++k) s += " " + variant_name(k);
    return s + ")";
  }

  // ---- driving the model ----
  // The port an operation does not use carries junk derived from the value (deterministic, so
  // replays are exact): the RTL must ignore it.
  static void apply(Model& m, uint32_t op, uint32_t val) {
    m.clear = op == kClear;
    m.init = op == kInit;
    m.add_valid = op == kAdd;
    m.init_value = op == kInit ? val : ~val;
    m.addend = op == kAdd ? val : val ^ 0x5A5A5A5Au;
  }
  static void read(const Model& m, uint32_t* got, size_t nv) {
    for (size_t i = 0; i < nv; ++i) got[i] = m.acc[static_cast<int>(i)];
  }
  static void reset(Sim<Model>& sim) {
    apply(*sim.m, kIdle, 0);
    sim.m->rst_n = 0;
    sim.cycle();
    sim.m->rst_n = 1;
    sim.cycle();
  }

  // Runs one sequence through `sim` (already out of reset); returns false on a mismatch.
  bool run_sequence(Sim<Model>& sim, uint64_t index, const Vector& v, bool check, bool count) {
    const size_t nv = vars_.size();
    std::vector<uint32_t> exp(nv), got(nv);
    golden_reset();
    if (count) s_.cov().hit(cov_src_ + v.source);
    for (size_t i = 0; i + 1 < v.w.size(); i += 2) {
      const uint32_t op = v.w[i] & 3, val = v.w[i + 1];
      apply(*sim.m, op, val);
      sim.cycle();
      golden_step(op, val, exp.data(), count);
      read(*sim.m, got.data(), nv);
      if (check) {
        if (!s_.check(index, v, exp.data(), got.data(), static_cast<int>(i / 2))) return false;
      } else if (exp != got) {
        return false;
      }
    }
    return true;
  }

 private:
  Session& s_;
  std::vector<Variant> vars_;
  std::vector<dp::Accumulator> accs_;
  std::unique_ptr<stim::NpyBlocks> tensor_;
  int cov_pair_, cov_cancel_, cov_massive_, cov_ovf_rne_, cov_ovf_rz_, cov_sub_, cov_uzero_, cov_tie_rne_, cov_tie_rz_;
  int cov_inexact_rne_, cov_inexact_rz_, cov_carry_, cov_gap_jam_, cov_gap_sticky_, cov_gap_far_, cov_negzero_;
  int cov_mixzero_, cov_infinf_, cov_init_round_, cov_init_nan_, cov_clear_, cov_idle_, cov_src_, cov_align_;
};

}  // namespace

template <class Model>
int run(const Options& o) {
  // The parameter sets come from the model itself (cfg port of fp32_acc_cosim_top).
  std::vector<Variant> vars;
  Sim<Model> cfg_sim;
  cfg_sim.m->eval();
  const size_t nv = sizeof(cfg_sim.m->acc) / 4;  // 32-bit registers in the acc port
  for (size_t i = 0; i < nv; ++i) {
    const uint32_t c = static_cast<uint32_t>((static_cast<uint64_t>(cfg_sim.m->cfg) >> (8 * i)) & 0xFF);
    vars.push_back({static_cast<int>(c & 0x7F), (c >> 7) != 0});
  }
  std::vector<Field> layout;
  for (size_t i = 0; i < nv; ++i) {
    const std::string n = "v" + std::to_string(i) + "(" + vars[i].spec().name() + ")";
    const int base = 32 * static_cast<int>(i);
    layout.push_back({n + ".sign", base + 31, base + 31});
    layout.push_back({n + ".exponent", base + 30, base + 23});
    layout.push_back({n + ".mantissa", base + 22, base});
  }
  Session s(o, kSources, layout, static_cast<int>(nv));
  s.set_count(o.count ? o.count : (o.level == Level::quick ? 30000 : 1000000));
  try {
    AccHarness<Model> h(s, vars, o.npy.empty() ? stim::default_npy() : o.npy);
    std::printf("fp32_acc parameter sets:");
    for (size_t i = 0; i < nv; ++i) std::printf(" %s", vars[i].spec().name().c_str());
    std::printf("\n");
    s.describe = [&](const Vector& v) { return h.describe(v); };
    s.rerun_with_waves = [&](const Vector& v, const std::string& path) {
      Sim<Model> sim(path);
      AccHarness<Model>::reset(sim);
      return !h.run_sequence(sim, 0, v, false, false);
    };
    VectorStream vs(s, h.corners(), [&](SplitMix64& r) { return h.random(r); });
    const std::string wave_path = run_wave_path(o);
    Sim<Model> sim(wave_path);
    if (!wave_path.empty()) std::printf("waveform: %s\n", wave_path.c_str());
    AccHarness<Model>::reset(sim);
    Vector v;
    uint64_t index = 0;
    while (vs.next(v, index)) {
      h.run_sequence(sim, index, v, true, true);
      s.count_vector(v);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cosim_fp32_acc: %s\n", e.what());
    return kExitUsage;
  }
  return s.finish();
}

int main(int argc, char** argv) {
  bool mutant = false;
  Options o = parse_cli(argc, argv, "fp32_acc",
                        "  --mutant            run the mutant model (HIFSIM_MUTANT_ROUNDING: ties away instead of\n"
                        "                      ties to even); the regression must report a mismatch\n",
                        [&](const std::string& f, const std::function<std::string()>&) {
                          if (f != "--mutant") return false;
                          mutant = true;
                          return true;
                        });
  if (mutant) {
    std::printf("fp32_acc: MUTANT model (HIFSIM_MUTANT_ROUNDING)\n");
    return run<Vfp32_acc_cosim_top_mutant>(o);
  }
  return run<Vfp32_acc_cosim_top>(o);
}
