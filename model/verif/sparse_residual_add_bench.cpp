// The sparse residual adder's bench (rtl/sparse_residual_add.sv, hifsim::dp::SparseResidualHif4Dot +
// hifsim::dp::Accumulator): generator, checker and coverage of model/verif/bench.hpp, one accumulator
// {MANT_BITS, ROUND_RZ} at a time.
//
//
// Vector: a sequence of 1..8 transactions (18 words each); the first starts a new accumulation,
// so the sequence does not depend on the ones before it:
//   words 0..6   the compressed residual unit: word 0 = meta (E6M2 | E1_8 << 8 | E1_16 << 16),
//                words 1..4 = val[0..31] (nibble j at bit 4j), words 5..6 = idx[0..31] (2 bits each)
//   words 7..15  the dense weight unit, layout (A)
//   word 16      bit 0: acc_start      word 17: init_value (FP32)
// Output per transaction: out_dot, out_acc (the accumulator after this add) and acc (the register
// before it), fields dot.* / acc_after.* / acc_before.*.
// Sources: corner, uniform (every field uniform, indices unsorted or equal too), shaped and tensor
// (the real residual path: X -> HiF4, R = RNE_bf16(X - deq), the 2:4 sparsified Q(R) compressed
// with compress_24, times a quantized weight block; dp::make_residual_operands), acc (dot products
// of small units added to accumulators near cancellation, overflow and ties).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "datapath/accumulator.hpp"
#include "formats/bits.hpp"
#include "gemm/gemm.hpp"
#include "gemm/residual_gemm.hpp"
#include "util/error.hpp"
#include "verif/acc_variant.hpp"
#include "verif/bench.hpp"
#include "verif/bins.hpp"
#include "verif/stimulus.hpp"
#include "verif/units.hpp"

namespace hifsim::verif {
namespace {


enum Source { kCorner, kUniform, kShaped, kTensor, kAcc };
const std::vector<std::string> kSources = {"corner", "uniform", "shaped", "tensor", "acc"};
constexpr int kStepWords = 18;
constexpr int kOut = 3;  // output words per transaction: dot, acc_after, acc_before (main())
constexpr int kMaxSteps = 8;

struct Step {
  dp::Hif4Sparse24 r;
  fmt::Hif4Unit w;
  bool start = false;
  uint32_t init = 0;
};

void push_step(Vector& v, const Step& s) {
  const size_t b = v.w.size();
  v.w.resize(b + kStepWords, 0);
  uint32_t* p = v.w.data() + b;
  p[0] = static_cast<uint32_t>(s.r.e6m2) | static_cast<uint32_t>(s.r.e1_8) << 8 | static_cast<uint32_t>(s.r.e1_16) << 16;
  for (int j = 0; j < 32; ++j) {
    p[1 + j / 8] |= static_cast<uint32_t>(s.r.val[j] & 0xF) << (4 * (j % 8));
    p[5 + j / 16] |= static_cast<uint32_t>(s.r.idx[j] & 3) << (2 * (j % 16));
  }
  stim::hif4_to_words(s.w, p + 7);
  p[16] = s.start ? 1u : 0u;
  p[17] = s.init;
}

// Appends the one-step corner vector of s.
void push_corner(std::vector<Vector>& c, const Step& s) {
  Vector v;
  v.source = kCorner;
  push_step(v, s);
  c.push_back(v);
}

Step get_step(const Vector& v, int i) {
  const uint32_t* p = v.w.data() + static_cast<size_t>(i) * kStepWords;
  Step s;
  s.r.e6m2 = static_cast<uint8_t>(p[0]);
  s.r.e1_8 = static_cast<uint8_t>(p[0] >> 8);
  s.r.e1_16 = static_cast<uint16_t>(p[0] >> 16);
  for (int j = 0; j < 32; ++j) {
    s.r.val[j] = static_cast<uint8_t>((p[1 + j / 8] >> (4 * (j % 8))) & 0xF);
    s.r.idx[j] = static_cast<uint8_t>((p[5 + j / 16] >> (2 * (j % 16))) & 3);
  }
  s.w = stim::hif4_from_words(p + 7);
  s.start = p[16] & 1;
  s.init = p[17];
  return s;
}

int nsteps(const Vector& v) { return static_cast<int>(v.w.size() / kStepWords); }

// The accumulator of a parameter set.
using Variant = AccVariant;

// The six sorted index pairs of a group: 01 02 03 12 13 23.
int pair_id(int i0, int i1) {
  static const int ids[4][4] = {{-1, 0, 1, 2}, {-1, -1, 3, 4}, {-1, -1, -1, 5}, {-1, -1, -1, -1}};
  return ids[i0][i1];
}
const char* const kPairs[6] = {"01", "02", "03", "12", "13", "23"};

class SparseBench : public BenchBase {
 public:
  SparseBench(const BenchContext& ctx, std::vector<Variant> vars, const std::string& npy)
      : BenchBase(ctx, kSources), vars_(std::move(vars)), blocks_(ctx, npy) {
    Coverage& c = cov();
    cov_pair_ = c.declare_each(16 * 6, [](int k) { return "idx.g" + std::to_string(k / 6) + ".pair" + kPairs[k % 6]; });
    cov_unsorted_ = c.declare("idx.unsorted_or_equal_pair");
    tree_.declare(c, "rw");
    cov_nan_ = c.declare_group("nan.", {"scale_r_only", "scale_w_only", "both"});
    cov_imax_ = c.declare_group("I.", {"max_pos_25088", "max_neg_25088"});
    cov_bigmax_ = c.declare("big.max_magnitude_1229312");
    cov_psign_ = c.declare_group("prod.sign.", {"pp", "pn", "np", "nn"});
    cov_dzero_ = c.declare("dot.zero");
    cov_dcancel_ = c.declare("dot.zero_with_nonzero_products");
    cov_dpos_ = c.declare("dot.positive");
    cov_dneg_ = c.declare("dot.negative");
    cov_start_zero_ = c.declare("acc.start_from_zero");
    cov_start_val_ = c.declare("acc.start_from_init_value");
    cov_cont_ = c.declare("acc.add_to_register");
    cov_anan_ = c.declare("acc.nan");
    cov_ainf_ = c.declare("acc.inf_operand");
    // (No overflow bin: |dot| < 2^45 can never carry an FP32 register past the largest finite value.)
    cov_acancel_ = c.declare("acc.exact_cancellation");
    // Rounding of each accumulator at its own precision and mode (stim::classify_add).
    for (const Variant& va : vars_) {
      cov_ainexact_.push_back(c.declare(va.name() + ".acc.round_inexact"));
      cov_atie_.push_back(c.declare(va.name() + ".acc.round_tie"));
    }
    cov_anegzero_ = c.declare("acc.neg_zero_init_plus_zero_dot");
    cov_long_ = c.declare("seq.8_steps");
    cov_src_ = c.declare_group("source.", kSources, false);
  }


  // The register value left by the last sequence (what the RTL register holds when the next
  // sequence starts). Reset by the waveform re-run, which starts from reset.
  uint32_t last_acc = 0;

  // The parameter set `first` runs now (one at a time), from reset.
  void set_active(size_t first, size_t n) override {
    if (n != 1) throw Error("sparse_residual_add bench", "", "checks one accumulator at a time");
    cur_ = first;
    last_acc = 0;
  }

  // Around the waveform re-run of a failing cosim vector: the re-run starts from reset, where the register
  // holds +0; the regression's value is restored afterwards.
  void around_rerun(bool entering) override {
    if (entering) {
      saved_acc_ = last_acc;
      last_acc = 0;
    } else {
      last_acc = saved_acc_;
    }
  }

  void golden(const Vector& v, uint32_t* out) override {
    Coverage& c = cov();
    c.hit(cov_src_ + v.source);
    const int n = nsteps(v);
    if (n == kMaxSteps) c.hit(cov_long_);
    const Variant& va = vars_[cur_];
    dp::Accumulator acc(va.spec());
    uint32_t reg = last_acc;
    for (int i = 0; i < n; ++i) {
      const Step s = get_step(v, i);
      dp::SparseDotStages st;
      const dp::DotResult d = dp::SparseResidualHif4Dot::compute(s.r, s.w, &st);
      const uint32_t before = reg;
      const uint32_t x = s.start ? va.init_seen(s.init) : before;
      if (s.start) acc.reset(fmt::bits_f32(x));
      acc.add(d);
      reg = fmt::f32_bits(acc.result());
      out[kOut * i + 0] = st.out_bits;
      out[kOut * i + 1] = reg;
      out[kOut * i + 2] = before;
      count_dot(s, st);
      count_acc(s, x, st.out_bits, reg);
    }
    last_acc = reg;
  }

  void count_dot(const Step& s, const dp::SparseDotStages& st) {
    Coverage& c = cov();
    const bool nr = s.r.e6m2 == 0xFF, nw = s.w.e6m2 == 0xFF;
    if (nr || nw) c.hit(cov_nan_ + (nr && nw ? 2 : nr ? 0 : 1));
    for (int g = 0; g < 16; ++g) {
      const int p = pair_id(s.r.idx[2 * g], s.r.idx[2 * g + 1]);
      if (p >= 0) c.hit(cov_pair_ + 6 * g + p);
      else c.hit(cov_unsorted_);
    }
    if (st.nan) return;
    bool any_p = false;
    for (int j = 0; j < 32; ++j)
      if (st.p[j]) {
        any_p = true;
        const int wpos = 4 * (j / 2) + s.r.idx[j];
        c.hit(cov_psign_ + 2 * ((s.r.val[j] >> 3) & 1) + ((s.w.nib[wpos] >> 3) & 1));
      }
    tree_.count(c, st.group, s.r, s.w, [&](int g) { return st.p[2 * g] || st.p[2 * g + 1]; });
    if (st.i_sum == dp::SparseDotBounds::i_sum) c.hit(cov_imax_);
    if (st.i_sum == -dp::SparseDotBounds::i_sum) c.hit(cov_imax_ + 1);
    if (std::abs(st.big) == dp::SparseDotBounds::big) c.hit(cov_bigmax_);
    if (st.big == 0) {
      c.hit(cov_dzero_);
      if (any_p) c.hit(cov_dcancel_);
    } else {
      c.hit(st.big > 0 ? cov_dpos_ : cov_dneg_);
    }
  }

  void count_acc(const Step& s, uint32_t x, uint32_t dot, uint32_t result) {
    Coverage& c = cov();
    if (s.start) c.hit((s.init & 0x7FFFFFFFu) == 0 ? cov_start_zero_ : cov_start_val_);
    else c.hit(cov_cont_);
    const stim::F32Class cx = stim::f32_class(x), cd = stim::f32_class(dot);
    if (stim::f32_class(result) == stim::F32Class::nan) c.hit(cov_anan_);
    if (cx == stim::F32Class::inf || cd == stim::F32Class::inf) c.hit(cov_ainf_);
    if (cx == stim::F32Class::nan || cd == stim::F32Class::nan || cx == stim::F32Class::inf) return;
    if (x == 0x80000000u && dot == 0) c.hit(cov_anegzero_);
    // The exact sum x + dot and its rounding at the register's precision, classified
    // independently of the adder.
    const Variant& va = vars_[cur_];
    const stim::AddClass k = stim::classify_add(x, dot, va.precision(), va.rz);
    if (k.exact_zero && (x & 0x7FFFFFFFu) && dot) c.hit(cov_acancel_);
    if (!k.far && !k.exact) c.hit(cov_ainexact_[cur_]);
    if (k.tie) c.hit(cov_atie_[cur_]);
  }

  // ---- stimulus ----
  static dp::Hif4Sparse24 sparse_uniform(SplitMix64& r) {
    dp::Hif4Sparse24 u;
    const uint64_t m = r.next();
    u.e6m2 = static_cast<uint8_t>(m);
    u.e1_8 = static_cast<uint8_t>(m >> 8);
    u.e1_16 = static_cast<uint16_t>(m >> 16);
    const bool sorted = r.below(4) != 0;
    for (int g = 0; g < 16; ++g) {
      int i0 = static_cast<int>(r.below(4)), i1 = static_cast<int>(r.below(4));
      if (sorted) {
        const int p = static_cast<int>(r.below(6));
        static const int pr[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
        i0 = pr[p][0];
        i1 = pr[p][1];
      }
      u.idx[2 * g] = static_cast<uint8_t>(i0);
      u.idx[2 * g + 1] = static_cast<uint8_t>(i1);
    }
    for (auto& v : u.val) v = static_cast<uint8_t>(r.below(16));
    return u;
  }

  // The real fused residual path on one 64-value block: the compressed 2:4 residual unit.
  static dp::Hif4Sparse24 sparse_from_values(SplitMix64& r, const float* x) {
    dp::GemmSpec gs;
    gs.format = fmt::Format::hif4;
    gs.quant.rounding = r.below(4) == 0 ? fmt::Rounding::nearest_even : fmt::Rounding::nearest_away;
    gs.threads = 1;
    gs.quant.threads = 1;
    dp::ResidualSpec rs;
    rs.kind = dp::ResidualKind::sparse24;
    rs.mode = dp::ResidualMode::fused;
    const dp::ResidualOperands ops = dp::make_residual_operands(x, 1, 64, gs, rs);
    return dp::compress_24(ops.residual.hif4_unit(0, 0));
  }

  uint32_t init_value(SplitMix64& r) {
    const uint64_t k = r.below(10);
    if (k < 3) return r.below(2) ? 0u : 0x80000000u;
    return stim::random_f32_mixed(r);
  }

  std::vector<Vector> corners() override {
    std::vector<Vector> c;
    SplitMix64 r(0x5A24);
    Step z;
    z.start = true;
    push_corner(c, z);
    dot_corners(c, r);
    accumulator_corners(c, r);
    return c;
  }

  Vector random(SplitMix64& r) override {
    const int src = pick_source(r, ctx_, kSources, {0, 3, 3, 2, 2}, kUniform);
    Vector v;
    v.source = src;
    const int n = 1 + static_cast<int>(r.below(kMaxSteps));
    float x[64];
    for (int i = 0; i < n; ++i) {
      Step s;
      s.start = i == 0 || r.below(12) == 0;
      s.init = init_value(r);
      switch (src) {
        case kUniform:
          s.r = sparse_uniform(r);
          s.w = stim::hif4_uniform(r);
          break;
        case kShaped:
        case kTensor:
          blocks_.fill(r, src == kShaped, x, 64);
          s.r = sparse_from_values(r, x);
          blocks_.fill(r, src == kShaped, x, 64);
          s.w = stim::hif4_quantize_random_opts(r, x);
          break;
        default: {  // acc: small dot products into registers near cancellation / ties / overflow
          s.r = sparse_uniform(r);
          s.w = stim::hif4_uniform(r);
          if (s.r.e6m2 == 0xFF) s.r.e6m2 = 0xFE;
          if (s.w.e6m2 == 0xFF) s.w.e6m2 = 0xC0;
          const float dot = dp::SparseResidualHif4Dot::compute(s.r, s.w).value;
          const uint64_t k = r.below(5);
          if (k == 0) s.init = fmt::f32_bits(-dot);                                    // exact cancellation
          else if (k == 1) s.init = tie_init(r, dot);                                  // ties / sticky
          else if (k == 2) s.init = fmt::f32_bits(-std::ldexp(dot, static_cast<int>(r.below(3))));       // massive cancellation
          else if (k == 3) s.init = r.below(2) ? 0x7F7FFFFFu : 0xFF7FFFFFu;             // overflow
          s.start = s.start || k < 4;
          break;
        }
      }
      push_step(v, s);
    }
    return v;
  }

  // A register value (of the running accumulator's precision P) that the dot product `dot` meets
  // at half an ulp or near it: +-2^(e + P + k), e the weight of dot's lowest set bit, k = 0..2
  // (k = 0: an exact tie when dot has fewer than P significant bits).
  uint32_t tie_init(SplitMix64& r, float dot) const {
    const uint32_t b = fmt::f32_bits(dot) & 0x7FFFFFFFu;
    if (b == 0 || b >= 0x7F800000u) return 0;
    const int field = static_cast<int>(b >> 23);
    const uint32_t sig = (b & 0x7FFFFF) | (field ? 0x800000u : 0);
    const int low = std::max(field, 1) - 150 + __builtin_ctz(sig);
    const int e = std::min(low + vars_[cur_].precision() + static_cast<int>(r.below(3)), 127);
    return fmt::f32_bits(std::ldexp(1.0f, e)) | (r.below(2) ? 0x80000000u : 0u);
  }

  std::string describe(const Vector& v) const override {
    std::string s;
    const Variant& va = vars_[cur_];
    dp::Accumulator acc(va.spec());
    char buf[320];
    for (int i = 0; i < nsteps(v); ++i) {
      const Step st = get_step(v, i);
      std::snprintf(buf, sizeof buf, "step %d: start=%d init=0x%08x | R: E6M2 0x%02x E1_8 0x%02x E1_16 0x%04x val/idx:", i,
                    st.start ? 1 : 0, st.init, st.r.e6m2, st.r.e1_8, st.r.e1_16);
      s += buf;
      for (int j = 0; j < 32; ++j) {
        std::snprintf(buf, sizeof buf, " %x/%u", st.r.val[j], st.r.idx[j]);
        s += buf;
      }
      std::snprintf(buf, sizeof buf, "\n  W: E6M2 0x%02x E1_8 0x%02x E1_16 0x%04x elements: ", st.w.e6m2, st.w.e1_8, st.w.e1_16);
      s += buf + hex_nibbles(st.w.nib, 64);
      dp::SparseDotStages ds;
      const dp::DotResult d = dp::SparseResidualHif4Dot::compute(st.r, st.w, &ds);
      if (st.start) acc.reset(fmt::bits_f32(va.init_seen(st.init)));
      acc.add(d);
      std::snprintf(buf, sizeof buf, "\n  model: I=%d SS=%u X=%d big=%d -> dot 0x%08x (%a), acc 0x%08x (%a)\n", ds.i_sum,
                    ds.scale_prod, ds.exp, ds.big, ds.out_bits, static_cast<double>(d.value),
                    fmt::f32_bits(acc.result()), static_cast<double>(acc.result()));
      s += buf;
    }
    return s;
  }

  std::string active_names() const override { return vars_[cur_].name(); }
  int steps(const Vector& v) const override { return nsteps(v); }
  bool sequential() const override { return true; }
  std::vector<uint32_t> transaction(const Vector& v, int step) const override {
    const auto b = v.w.begin() + static_cast<long>(step) * kStepWords;
    return std::vector<uint32_t>(b, b + kStepWords);
  }
  std::vector<PortField> inputs() const override {
    return {{"r", 0, 224, "compressed 2:4 residual unit: [7:0] E6M2, [15:8] E1_8, [31:16] E1_16, val[j] at [32+4j+3:32+4j], idx[j] at [160+2j+1:160+2j]"},
            {"w", 224, 288, "dense weight unit, layout (A)"},
            {"acc_start", 512, 1, "1: x = init_value; 0: x = the register"},
            {"init_value", 544, 32, "FP32; its low 23 - MANT_BITS mantissa bits are ignored"}};
  }
  std::vector<PortField> outputs() const override { return fp32_fields({"out_dot", "out_acc", "acc"}); }
  std::string protocol() const override {
    return std::string(kDotProtocol) +
           " The accumulator register (reset +0) takes out_acc at each output transfer; `acc` is its value "
           "before this transaction's add. A sequence of transactions starts with acc_start = 1.";
  }

 private:
  // Corner vectors (corners(), in this order): the dot product's maxima, NaN scales, every index
  // pair in every group, the level-2 shifts and level-3 patterns.
  static void dot_corners(std::vector<Vector>& c, SplitMix64& r) {
    // Maxima: every kept value 7 with all micro-exponents set, both weights 7 with their bits,
    // scales 0xFB (SS = 49): |I| = 25088, |big| = 1229312; both signs.
    for (int sgn = 0; sgn < 4; ++sgn) {
      Step s;
      s.start = true;
      s.r.e6m2 = 0xFB;
      s.r.e1_8 = 0xFF;
      s.r.e1_16 = 0xFFFF;
      for (int j = 0; j < 32; ++j) {
        s.r.val[j] = static_cast<uint8_t>(7 | ((sgn & 1) << 3));
        s.r.idx[j] = static_cast<uint8_t>(j & 1 ? 3 : 0);
      }
      s.w.e6m2 = 0xFB;
      s.w.e1_8 = 0xFF;
      s.w.e1_16 = 0xFFFF;
      for (auto& n : s.w.nib) n = static_cast<uint8_t>(7 | ((sgn >> 1) << 3));
      push_corner(c, s);
    }
    // NaN scales; every index pair in every group (the weight element at each position distinct).
    for (int which = 0; which < 3; ++which) {
      Step s;
      s.start = true;
      s.r = sparse_uniform(r);
      s.w = stim::hif4_uniform(r);
      s.r.e6m2 = which != 1 ? 0xFF : 0xC0;
      s.w.e6m2 = which != 0 ? 0xFF : 0xC0;
      push_corner(c, s);
    }
    for (int p = 0; p < 6; ++p) {
      static const int pr[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
      Step s;
      s.start = true;
      s.r.e6m2 = 0xC0;
      s.w.e6m2 = 0xC1;
      for (int g = 0; g < 16; ++g) {
        s.r.idx[2 * g] = static_cast<uint8_t>(pr[p][0]);
        s.r.idx[2 * g + 1] = static_cast<uint8_t>(pr[p][1]);
        s.r.val[2 * g] = static_cast<uint8_t>(1 + r.below(7));
        s.r.val[2 * g + 1] = static_cast<uint8_t>(9 + r.below(7));
      }
      for (int k = 0; k < 64; ++k) s.w.nib[k] = static_cast<uint8_t>(1 + (k % 4) + 2 * (k % 2));  // distinct per position
      push_corner(c, s);
    }
    // Level-2 shifts and level-3 patterns per group.
    for (int i = 0; i < 8; ++i)
      for (int sh = 0; sh < 3; ++sh) {
        Step s;
        s.start = true;
        s.r = sparse_uniform(r);
        s.w = stim::hif4_uniform(r);
        s.r.e6m2 = 0xC0;
        s.w.e6m2 = 0xC0;
        s.r.e1_8 = static_cast<uint8_t>(sh >= 1 ? 1 << i : 0);
        s.w.e1_8 = static_cast<uint8_t>(sh == 2 ? 1 << i : 0);
        s.r.val[4 * i] = 5;
        s.w.nib[8 * i + s.r.idx[4 * i]] = 3;
        push_corner(c, s);
      }
    for (int j = 0; j < 16; ++j)
      for (int p = 0; p < 4; ++p) {
        Step s;
        s.start = true;
        s.r.e6m2 = 0xC0;
        s.w.e6m2 = 0xC2;
        s.r.e1_16 = static_cast<uint16_t>((p >> 1) << j);
        s.w.e1_16 = static_cast<uint16_t>((p & 1) << j);
        s.r.idx[2 * j] = 1;
        s.r.idx[2 * j + 1] = 2;
        s.r.val[2 * j] = 6;
        s.w.nib[4 * j + 1] = 0xB;
        push_corner(c, s);
      }
  }

  // Corner vectors: exact cancellation in the dot, the accumulator's special init values and
  // overflow, and the register cancelled exactly by the next dot product.
  static void accumulator_corners(std::vector<Vector>& c, SplitMix64& r) {
    // Exact cancellation inside the dot; accumulator corners: NaN / Inf / -0 init, overflow,
    // cancellation of the register, a long sequence.
    {
      Step s;
      s.start = true;
      s.r.e6m2 = s.w.e6m2 = 0xC0;
      s.r.idx[0] = 0;
      s.r.idx[1] = 1;
      s.r.val[0] = 3;
      s.r.val[1] = 3;
      s.w.nib[0] = 2;
      s.w.nib[1] = 0xA;
      push_corner(c, s);
    }
    const uint32_t inits[] = {0x7FC00000u, 0x7F812345u, 0x7F800000u, 0xFF800000u, 0x80000000u, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x4B800000u};
    for (uint32_t init : inits) {
      Vector v;
      v.source = kCorner;
      Step s;
      s.start = true;
      s.init = init;
      s.r = sparse_uniform(r);
      s.w = stim::hif4_uniform(r);
      s.r.e6m2 = s.w.e6m2 = 0xFE;  // the largest dot products (up to ~2^45)
      if (init == 0x80000000u) s.r.e6m2 = 0xC0, s.r.val[0] = 0, s.r.val[1] = 0;
      push_step(v, s);
      s.start = false;
      push_step(v, s);
      c.push_back(v);
    }
    // The register cancelled exactly by the next dot product (same unit, negated residual).
    {
      Vector v;
      v.source = kCorner;
      Step s;
      s.start = true;
      s.r = sparse_uniform(r);
      s.w = stim::hif4_uniform(r);
      s.r.e6m2 = 0xC3;
      s.w.e6m2 = 0xC5;
      s.w.e1_8 = 0;
      push_step(v, s);
      s.start = false;
      for (auto& vv : s.r.val) vv = static_cast<uint8_t>(vv ^ 8);
      push_step(v, s);
      c.push_back(v);
    }
  }

  std::vector<Variant> vars_;
  size_t cur_ = 0;          // the parameter set running now (set_active)
  ValueBlocks blocks_;
  Hif4ScaleTreeBins tree_;
  uint32_t saved_acc_ = 0;  // last_acc during the waveform re-run
  std::vector<int> cov_ainexact_, cov_atie_;  // per accumulator
  int cov_pair_, cov_unsorted_, cov_nan_, cov_imax_, cov_bigmax_, cov_psign_, cov_dzero_, cov_dcancel_;
  int cov_dpos_, cov_dneg_, cov_start_zero_, cov_start_val_, cov_cont_, cov_anan_, cov_ainf_, cov_acancel_;
  int cov_anegzero_, cov_long_, cov_src_;
};

}  // namespace

std::unique_ptr<Bench> make_sparse_residual_add_bench(const std::vector<Params>& sets, const BenchContext& ctx,
                                                      const std::string& npy) {
  std::vector<Variant> vars;
  for (const Params& p : sets) {
    check_params(p, {"MANT_BITS", "ROUND_RZ", "STAGES"}, "sparse_residual_add");
    param(p, "STAGES", 3, 0, 5);
    vars.push_back({param(p, "MANT_BITS", 23, 1, 23), param(p, "ROUND_RZ", 0, 0, 1) != 0});
  }
  return std::unique_ptr<Bench>(new SparseBench(ctx, vars, npy));
}

}  // namespace hifsim::verif
