// The FP32 accumulator's bench (rtl/fp32_acc.sv, hifsim::dp::Accumulator): generator, checker and
// coverage of model/verif/bench.hpp, for one or more accumulators {MANT_BITS, ROUND_RZ} at once.
//
// Vector: one sequence of clock steps, three words per step: {ctl, init_value, addend}, ctl bit 0
// = clear, bit 1 = init, bit 2 = add_valid, in any combination: the unit's documented priority is
// clear > init > add, so a step with several controls set must do only the first (the ports of the
// losing operations carry values that would change the register). The first step always has clear
// or init set, so a sequence is independent of the ones before it (the RTL register is not reset
// between sequences; a replay runs the sequence from reset).
// Output: the registers of the parameter sets (fields v<i>(<name>).sign / exponent / mantissa).
// Sources: corner, random (FP32 class mix), near (addends made from the current register:
// cancellation, ties, huge gaps, overflow), dot and tensor (HiF4 dot-unit outputs of shaped /
// real-tensor blocks: what a GEMM feeds the accumulator).
#include <algorithm>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "datapath/accumulator.hpp"
#include "verif/acc_variant.hpp"
#include "datapath/fp_add.hpp"
#include "datapath/hif4_dot.hpp"
#include "formats/bits.hpp"
#include "verif/bench.hpp"
#include "verif/bins.hpp"
#include "verif/stimulus.hpp"
#include "verif/units.hpp"

namespace hifsim::verif {
namespace {

using stim::F32Class;

enum Source { kCorner, kRandom, kNear, kDot, kTensor };
const std::vector<std::string> kSources = {"corner", "random", "near", "dot", "tensor"};
// ctl bits of a step (the unit's control inputs).
constexpr uint32_t kClear = 1, kInit = 2, kAdd = 4;
constexpr int kStepWords = 3;  // ctl, init_value, addend
constexpr int kMaxSteps = 32;

using Variant = AccVariant;

// One clock step as the unit sees it.
struct Step {
  uint32_t ctl, init_value, addend;
};
Step get_step(const Vector& v, int i) {
  const uint32_t* p = v.w.data() + static_cast<size_t>(kStepWords * i);
  return {p[0] & 7u, p[1], p[2]};
}
int nsteps(const Vector& v) { return static_cast<int>(v.w.size()) / kStepWords; }

// The unit's documented behaviour: one operation per clock, clear > init > add.
void apply(dp::Accumulator& a, const Step& s) {
  if (s.ctl & kClear) a.reset(0.0f);
  else if (s.ctl & kInit) a.reset(fmt::bits_f32(s.init_value));
  else if (s.ctl & kAdd) a.add_value(fmt::bits_f32(s.addend));
}

class AccBench : public BenchBase {
 public:
  AccBench(const BenchContext& ctx, std::vector<Variant> vars, const std::string& npy)
      : BenchBase(ctx, kSources), vars_(std::move(vars)), blocks_(ctx, npy) {
    set_active(0, vars_.size());
    Coverage& c = cov();
    cov_pair_ = c.declare_each(stim::kF32Classes * stim::kF32Classes, [](int k) {
      return std::string("pair.") + stim::f32_class_name(static_cast<F32Class>(k / stim::kF32Classes)) + "+" +
             stim::f32_class_name(static_cast<F32Class>(k % stim::kF32Classes));
    });
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
    cov_align_ =
        c.declare_each(29, [](int d) { return "align.d" + (d < 28 ? std::to_string(d) : std::string("28+")); });
    cov_gap_jam_ = c.declare("gap.4_to_27_jammed_sticky");
    cov_gap_sticky_ = c.declare("gap.28+_operand_is_sticky");
    cov_gap_far_ = c.declare("gap.model_far_path_100+");
    cov_negzero_ = c.declare("zero.neg_plus_neg");
    cov_mixzero_ = c.declare("zero.pos_plus_neg");
    cov_infinf_ = c.declare("special.inf_minus_inf");
    cov_init_round_ = c.declare("init.rounded_to_precision");
    cov_init_nan_ = c.declare("init.nan_canonicalised");
    // Every combination of the three controls (priority clear > init > add).
    cov_ctl_ = c.declare_group("ctl.", {"idle", "clear", "init", "clear+init", "add", "clear+add", "init+add",
                                        "clear+init+add"});
    cov_src_ = c.declare_group("source.", kSources, false);
  }

  // The registers of every active parameter set after each step (from +0: the first step clears or
  // initialises), with the coverage of each step.
  void golden(const Vector& v, uint32_t* out) override {
    Coverage& c = cov();
    c.hit(cov_src_ + v.source);
    const size_t nv = n_;
    std::vector<dp::Accumulator> accs;
    for (size_t k = 0; k < nv; ++k) accs.emplace_back(vars_[first_ + k].spec());
    for (int i = 0; i < nsteps(v); ++i) {
      const Step s = get_step(v, i);
      c.hit(cov_ctl_ + static_cast<int>(s.ctl));
      for (size_t k = 0; k < nv; ++k) {
        dp::Accumulator& a = accs[k];
        const uint32_t before = fmt::f32_bits(a.result());
        apply(a, s);
        const uint32_t after = fmt::f32_bits(a.result());
        out[nv * static_cast<size_t>(i) + k] = after;
        if (s.ctl & kClear) continue;
        if (s.ctl & kInit) {
          if (stim::f32_class(s.init_value) == F32Class::nan) c.hit(cov_init_nan_);
          else if (after != s.init_value) c.hit(cov_init_round_);
        } else if (s.ctl & kAdd) {
          count_add(before, s.addend, after, vars_[first_ + k]);
        }
      }
    }
  }

  void count_add(uint32_t a, uint32_t b, uint32_t r, const Variant& var) {
    Coverage& c = cov();
    const F32Class ca = stim::f32_class(a), cb = stim::f32_class(b), cr = stim::f32_class(r);
    c.hit(cov_pair_ + stim::kF32Classes * static_cast<int>(ca) + static_cast<int>(cb));
    if (ca == F32Class::inf && cb == F32Class::inf && ((a ^ b) >> 31)) c.hit(cov_infinf_);
    if (ca == F32Class::zero && cb == F32Class::zero) c.hit((a & b) >> 31 ? cov_negzero_ : cov_mixzero_);
    const bool fin_a = ca != F32Class::inf && ca != F32Class::nan, fin_b = cb != F32Class::inf && cb != F32Class::nan;
    if (!fin_a || !fin_b) return;
    const stim::AddClass k = stim::classify_add(a, b, var.precision(), var.rz);
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
  // A step doing `op` (one of kClear, kInit, kAdd, or 0: idle) with value `val`; the ports the
  // operation does not use carry other values (the RTL must ignore them).
  static void push(Vector& v, uint32_t op, uint32_t val) {
    v.w.push_back(op);
    v.w.push_back(op == kInit ? val : ~val);
    v.w.push_back(op == kAdd ? val : val ^ 0x5A5A5A5Au);
  }
  static void push_ctl(Vector& v, uint32_t ctl, uint32_t init_value, uint32_t addend) {
    v.w.push_back(ctl);
    v.w.push_back(init_value);
    v.w.push_back(addend);
  }

  std::vector<Vector> corners() override {
    std::vector<Vector> out;
    auto seq = [&](std::initializer_list<std::pair<uint32_t, uint32_t>> ops) {
      Vector v;
      v.source = kCorner;
      for (const auto& o : ops) push(v, o.first, o.second);
      out.push_back(v);
    };
    constexpr uint32_t kIdle = 0;
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
    // The control priority: every combination of controls from a register of 3.0 with an init
    // value (5.0) and an addend (1.0) that each leave another value (0, 5, 4), and again from a
    // register of +0 with -5.0 and -1.0 (+0, -5, -1), so any other priority is visible.
    for (uint32_t ctl = 1; ctl < 8; ++ctl) {
      Vector v;
      v.source = kCorner;
      push_ctl(v, kInit, 0x40400000u, 0x3F800000u);
      push_ctl(v, ctl, 0x40A00000u, 0x3F800000u);
      push_ctl(v, kAdd, 0x12345678u, 0x3F800000u);
      push_ctl(v, kClear | kAdd, 0x40A00000u, 0x3F800000u);
      push_ctl(v, ctl, 0xC0A00000u, 0xBF800000u);
      out.push_back(v);
    }
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
    blocks_.fill(r, !tensor, x, 64);
    a = stim::hif4_quantize_random_opts(r, x);
    blocks_.fill(r, !tensor, x, 64);
    b = stim::hif4_quantize_random_opts(r, x);
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

  Vector random(SplitMix64& r) override {
    Vector v;
    v.source = pick_source(r, ctx_, kSources, {0, 3, 4, 2, 1}, kRandom);
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
      else if (k < 9) op = 0;  // idle
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
      } else {
        val = r.next32();  // ignored by the unit (and the model)
      }
      // 1 step in 12 adds one or two other controls: the priority decides (clear > init > add).
      const uint32_t ctl = (i > 0 && r.below(12) == 0) ? op | static_cast<uint32_t>(1 + r.below(7)) : op;
      push_ctl(v, ctl, op == kInit ? val : stim::random_f32_mixed(r), op == kAdd ? val : stim::random_f32_mixed(r));
      const Step s = get_step(v, i);
      for (auto& a : g) apply(a, s);
    }
    return v;
  }

  std::string describe(const Vector& v) const override {
    std::string s = "sequence (register values of the C++ model after each step; ctl = clear/init/add):";
    std::vector<dp::Accumulator> g;
    for (const auto& var : vars_) g.emplace_back(var.spec());
    char buf[200];
    for (int i = 0; i < nsteps(v); ++i) {
      const Step st = get_step(v, i);
      std::snprintf(buf, sizeof buf, "\n  step %2d: ctl %c%c%c init_value 0x%08x addend 0x%08x (%a) ->", i,
                    st.ctl & kClear ? 'C' : '-', st.ctl & kInit ? 'I' : '-', st.ctl & kAdd ? 'A' : '-', st.init_value,
                    st.addend, static_cast<double>(fmt::bits_f32(st.ctl & kInit ? st.init_value : st.addend)));
      s += buf;
      for (auto& a : g) {
        apply(a, st);
        std::snprintf(buf, sizeof buf, " %08x", fmt::f32_bits(a.result()));
        s += buf;
      }
    }
    return s + "\n  (registers in the order:" + variant_names(vars_) + ")";
  }

  const std::vector<Variant>& variants() const { return vars_; }

  std::string active_names() const override { return active_variant_names(vars_, first_, n_); }
  int steps(const Vector& v) const override { return nsteps(v); }
  bool sequential() const override { return true; }
  std::vector<uint32_t> transaction(const Vector& v, int step) const override {
    const Step s = get_step(v, step);
    return {s.ctl, s.init_value, s.addend};
  }
  std::vector<PortField> inputs() const override {
    return {{"clear", 0, 1, "acc <= +0 (priority clear > init > add)"},
            {"init", 1, 1, "acc <= round_P(init_value)"},
            {"add_valid", 2, 1, "acc <= round_P(acc + addend)"},
            {"init_value", 32, 32, "FP32"},
            {"addend", 64, 32, "FP32"}};
  }
  std::vector<PortField> outputs() const override { return variant_fp32_outputs(vars_, first_, n_, "acc"); }
  std::string protocol() const override {
    return "No handshake: one operation per rising edge, chosen by priority clear > init > add_valid (none set: "
           "hold). Each line of stimulus.hex is the inputs of one clock cycle; the matching line of expected.hex is "
           "the register after that cycle's rising edge. Reset (rst_n low) clears the register to +0; the first "
           "line of every sequence clears or initialises it.";
  }

 private:
  std::vector<Variant> vars_;
  ValueBlocks blocks_;
  int cov_pair_, cov_cancel_, cov_massive_, cov_ovf_rne_, cov_ovf_rz_, cov_sub_, cov_uzero_, cov_tie_rne_, cov_tie_rz_;
  int cov_inexact_rne_, cov_inexact_rz_, cov_carry_, cov_gap_jam_, cov_gap_sticky_, cov_gap_far_, cov_negzero_;
  int cov_mixzero_, cov_infinf_, cov_init_round_, cov_init_nan_, cov_ctl_, cov_src_, cov_align_;
};

}  // namespace

std::unique_ptr<Bench> make_fp32_acc_bench(const std::vector<Params>& sets, const BenchContext& ctx, const std::string& npy) {
  std::vector<Variant> vars;
  for (const Params& p : sets) {
    check_params(p, {"MANT_BITS", "ROUND_RZ"}, "fp32_acc");
    vars.push_back({param(p, "MANT_BITS", 23, 1, 23), param(p, "ROUND_RZ", 0, 0, 1) != 0});
  }
  return std::unique_ptr<Bench>(new AccBench(ctx, vars, npy));
}

}  // namespace hifsim::verif
