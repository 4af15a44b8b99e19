// The stochastic-rounding element quantizer's bench (rtl/sr_quantizer.sv, hifsim::dp::SrQuantizer
// with the parameter sets {SR_BITS, FMT}): generator, checker and coverage of model/verif/bench.hpp.
//
// Vector: 21 words: a (16 FP32 elements, words 0..15), seed (words 16, 17), stream (word 18), the
// element index i of element 0 (words 19, 20). An instance with L = floor(64 / SR_BITS) lanes per
// word takes group = i div L (low 32 bits, as the model's counter) and lane = i mod L (the cosim
// top computes them; an RTL team's test bench does the same). Output: 16 four-bit codes (2 words)
// per parameter set.
// Sources: corner (zeros, signed zeros, every code boundary and midpoint of both grids exactly and
// one FP32 ulp either side, saturation, Inf, NaN (MXFP4: code 0 for either sign), FP32
// subnormals, elements placed where the draw is r = 0 or r = 2^B - 1, index wrap-around), uniform (FP32 bit patterns over [2^-30, 2^4]),
// boundaries (values within a few ulps of the grid points and midpoints), fractions (values whose
// top B discarded bits are all ones or T = 1), index (large and wrapping element indices).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "datapath/sr_quantizer.hpp"
#include "formats/bits.hpp"
#include "formats/stochastic.hpp"
#include "verif/bench.hpp"
#include "verif/units.hpp"

namespace hifsim::verif {
namespace {

enum Source { kCorner, kUniform, kBoundaries, kFractions, kIndex };
const std::vector<std::string> kSources = {"corner", "uniform", "boundaries", "fractions", "index"};
constexpr int kN = dp::kSrqLanes;
constexpr int kWords = kN + 5;
// The grid points and midpoints of both element grids (E2M1 magnitudes, S1P2 4|y| integers).
const float kGrid[] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f, 1.25f, 1.5f, 1.75f, 2.0f, 2.5f, 3.0f, 3.5f, 4.0f,
                       4.5f, 5.0f, 5.5f, 6.0f, 6.5f, 7.0f, 7.5f, 8.0f, 10.0f, 12.0f};

struct Variant {
  int bits, fmt;
  dp::SrElem elem() const { return static_cast<dp::SrElem>(fmt); }
  bool e2m1() const { return elem() != dp::SrElem::hif4_s1p2; }
  std::string name() const { return std::string(dp::sr_elem_name(elem())) + "_b" + std::to_string(bits); }
  unsigned lanes() const { return fmt::sr_lanes(static_cast<unsigned>(bits)); }
};

struct Op {
  float a[kN] = {};
  uint64_t seed = 0, index = 0;
  uint32_t stream = 0;
};

Vector make_vec(const Op& op, int source) {
  Vector v;
  v.w.assign(kWords, 0);
  for (int k = 0; k < kN; ++k) v.w[static_cast<size_t>(k)] = fmt::f32_bits(op.a[k]);
  v.w[16] = static_cast<uint32_t>(op.seed);
  v.w[17] = static_cast<uint32_t>(op.seed >> 32);
  v.w[18] = op.stream;
  v.w[19] = static_cast<uint32_t>(op.index);
  v.w[20] = static_cast<uint32_t>(op.index >> 32);
  v.source = source;
  return v;
}
Op unpack(const Vector& v) {
  Op op;
  for (int k = 0; k < kN; ++k) op.a[k] = fmt::bits_f32(v.w[static_cast<size_t>(k)]);
  op.seed = v.w[16] | static_cast<uint64_t>(v.w[17]) << 32;
  op.stream = v.w[18];
  op.index = v.w[19] | static_cast<uint64_t>(v.w[20]) << 32;
  return op;
}

dp::SrqInput input_of(const Op& op, const Variant& va) {
  dp::SrqInput in;
  in.seed = op.seed;
  in.stream = op.stream;
  in.group = static_cast<uint32_t>(op.index / va.lanes());
  in.lane = static_cast<uint32_t>(op.index % va.lanes());
  for (int k = 0; k < kN; ++k) in.a[k] = op.a[k];
  return in;
}

float signed_random(SplitMix64& r, float v) { return r.below(2) ? -v : v; }
// v moved by d FP32 ulps (v >= 0; stays >= 0).
float ulps(float v, int d) {
  const int64_t b = static_cast<int64_t>(fmt::f32_bits(v)) + d;
  return fmt::bits_f32(static_cast<uint32_t>(b < 0 ? 0 : b));
}

class SrqBench : public BenchBase {
 public:
  SrqBench(const BenchContext& ctx, std::vector<Variant> vars) : BenchBase(ctx, kSources), vars_(std::move(vars)) {
    set_active(0, vars_.size());
    Coverage& c = cov();
    // Code bins of the formats present only (a sweep group runs one parameter set).
    bool fmt_on[3] = {false, false, false};
    for (const Variant& va : vars_) fmt_on[va.fmt] = true;
    static const char* const code_bins[3] = {"e2m1", "s1p2", "mxfp4"};
    for (int f = 0; f < 3; ++f)
      cov_code_[f] =
          !fmt_on[f] ? -1 : c.declare_each(8, [f](int i) { return std::string(code_bins[f]) + ".m" + std::to_string(i); });
    // MXFP4's own rule: Inf and NaN give code 0 whatever their sign.
    cov_mx_ = !fmt_on[2] ? -1 : c.declare_group("mxfp4.", {"inf_to_0", "nan_to_0", "negative_special_to_+0"});
    cov_elem_ = c.declare_group("elem.", {"zero", "neg_zero_result", "fp32_subnormal", "saturates", "inf", "nan",
                                          "exact_on_grid", "tie_half", "rounds_up", "rounds_down", "fraction_below_2^-B"});
    cov_carry_ = c.declare_group("carry.", {"T+r_eq_2^B_up", "T+r_eq_2^B-1_down"});
    cov_r_ = c.declare_group("r.", {"zero_with_fraction_down", "max_with_fraction_up", "max_on_grid_down"});
    cov_idx_ = c.declare_group("index.", {"lane_nonzero", "op_crosses_a_word", "group_wraps_2^32"});
    cov_src_ = c.declare_group("source.", kSources, false);
  }

  void golden(const Vector& v, uint32_t* out) override {
    const Op op = unpack(v);
    for (size_t i = 0; i < n_; ++i) {
      const Variant& va = vars_[first_ + i];
      dp::SrqStages s;
      dp::SrQuantizer(va.elem(), static_cast<unsigned>(va.bits)).compute(input_of(op, va), s);
      out[2 * i] = out[2 * i + 1] = 0;
      for (int k = 0; k < kN; ++k) out[2 * i + k / 8] |= static_cast<uint32_t>(s.code[k]) << (4 * (k % 8));
      count(op, va, s);
    }
    cov().hit(cov_src_ + v.source);
  }

  void count(const Op& op, const Variant& va, const dp::SrqStages& s) {
    Coverage& c = cov();
    const uint32_t L = va.lanes(), top = (va.bits == 32) ? ~0u : (1u << va.bits) - 1;
    const uint64_t lane = op.index % L, group = op.index / L;
    const uint64_t span = (lane + kN - 1) / L + 1;
    if (lane) c.hit(cov_idx_);
    if (span >= 2) c.hit(cov_idx_ + 1);
    if (static_cast<uint32_t>(static_cast<uint32_t>(group) + static_cast<uint32_t>(span - 1)) < static_cast<uint32_t>(group))
      c.hit(cov_idx_ + 2);
    const float sat = va.e2m1() ? 8.0f : 7.0f;
    for (int k = 0; k < kN; ++k) {
      const uint32_t b = fmt::f32_bits(op.a[k]);
      const float m = fmt::bits_f32(b & 0x7FFFFFFFu);
      c.hit(cov_code_[va.fmt] + (s.code[k] & 7));
      if (va.elem() == dp::SrElem::mxfp4_e2m1 && !std::isfinite(m) && s.code[k] == 0) {
        c.hit(cov_mx_ + (std::isnan(m) ? 1 : 0));
        if (b >> 31) c.hit(cov_mx_ + 2);
      }
      if (std::isnan(m)) { c.hit(cov_elem_ + 5); continue; }
      if (std::isinf(m)) { c.hit(cov_elem_ + 4); continue; }
      if (m >= sat) { c.hit(cov_elem_ + 3); continue; }
      if (m == 0.0f) { c.hit(cov_elem_); continue; }
      if ((b >> 31) && (s.code[k] & 7) == 0) c.hit(cov_elem_ + 1);
      if ((b & 0x7F800000u) == 0) c.hit(cov_elem_ + 2);
      // The exact fraction over the quantum (double: exact for an FP32).
      const int e = va.e2m1() ? std::max(std::ilogb(m), 0) - 1 : 0;
      const double y = std::ldexp(static_cast<double>(m), -e), frac = y - std::floor(y);
      const uint64_t T = s.t[k], r = s.r[k];
      const bool up = T + r > top;
      if (frac == 0.0) c.hit(cov_elem_ + 6);
      else {
        if (frac == 0.5) c.hit(cov_elem_ + 7);
        c.hit(cov_elem_ + (up ? 8 : 9));
        if (T == 0) c.hit(cov_elem_ + 10);
        if (T + r == uint64_t{top} + 1) c.hit(cov_carry_);
        if (T + r == top) c.hit(cov_carry_ + 1);
        if (r == 0) c.hit(cov_r_);
        if (r == top && T > 0) c.hit(cov_r_ + 1);
      }
      if (frac == 0.0 && r == top) c.hit(cov_r_ + 2);
    }
  }

  std::vector<Vector> corners() override {
    std::vector<Vector> c;
    SplitMix64 r(0x5A0C);
    Op z;
    c.push_back(make_vec(z, kCorner));
    for (float& x : z.a) x = -0.0f;
    c.push_back(make_vec(z, kCorner));
    // Every grid point and midpoint, exactly and one ulp either side, both signs, two seeds.
    for (int d = -1; d <= 1; ++d)
      for (int sg = 0; sg < 2; ++sg)
        for (int rep = 0; rep < 2; ++rep) {
          Op op = random_key(r);
          for (int k = 0; k < kN; ++k) {
            const float g = kGrid[(k + 16 * rep) % (sizeof kGrid / sizeof kGrid[0])];
            op.a[k] = (sg ? -1.0f : 1.0f) * ulps(g, d);
          }
          c.push_back(make_vec(op, kCorner));
        }
    {  // saturation, Inf, NaN, FP32 subnormals, FLT_MAX
      Op op = random_key(r);
      const uint32_t special[] = {0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00001u, 0x7F800001u, 0x00000001u, 0x807FFFFFu,
                                  0x00400000u, 0x7F7FFFFFu, 0x41000000u, 0x40FFFFFFu, 0x40E00000u, 0x40DFFFFFu, 0x41400000u,
                                  0x4B000000u, 0x00800000u};
      for (int k = 0; k < kN; ++k) op.a[k] = fmt::bits_f32(special[k]);
      c.push_back(make_vec(op, kCorner));
    }
    // r = 0 and r = 2^B - 1 (B <= 16, found by a scan of the stream) under an element just above
    // a grid point (T > 0), just below the next (T = 2^B - 1) and exactly on it.
    for (const Variant& va : vars_) {
      if (va.bits > 16) continue;
      const uint32_t top = (1u << va.bits) - 1;
      for (uint32_t want : {0u, top}) {
        const fmt::SrStream st{0x0123456789ABCDEFull, 7, static_cast<unsigned>(va.bits)};
        uint64_t i = 0;
        while (fmt::sr_draw(st, i) != want) ++i;
        for (int kind = 0; kind < 4; ++kind) {
          Op op;
          op.seed = st.seed;
          op.stream = st.stream;
          const int k0 = static_cast<int>(r.below(kN));
          op.index = i >= static_cast<uint64_t>(k0) ? i - static_cast<uint64_t>(k0) : i;
          const int kk = static_cast<int>(i - op.index);
          for (int k = 0; k < kN; ++k) op.a[k] = signed_random(r, kGrid[r.below(20)]);
          const float g = kGrid[1 + r.below(15)];
          // kind 3: T = 1 exactly (1.5 x 2^-B quanta above a grid point of the set's format)
          const float g3 = va.e2m1() ? kGrid[2 * r.below(7)] : static_cast<float>(r.below(7));
          const float q3 = !va.e2m1() ? 1.0f : (g3 < 2.0f ? 0.5f : g3 < 4.0f ? 1.0f : 2.0f);
          op.a[kk] = kind == 0   ? ulps(g, 1 + static_cast<int>(r.below(3)))
                     : kind == 1 ? ulps(g, -1)
                     : kind == 2 ? g
                                 : g3 + std::ldexp(1.5f * q3, -va.bits);
          c.push_back(make_vec(op, kCorner));
        }
      }
    }
    // Index corners: group 2^32 - 1 (the counter wraps inside the operation), lane L - 1.
    for (const Variant& va : vars_) {
      Op op = random_key(r);
      for (int k = 0; k < kN; ++k) op.a[k] = signed_random(r, kGrid[r.below(20)] + 0.1f);
      op.index = (uint64_t{0xFFFFFFFFu}) * va.lanes() + va.lanes() - 1;
      c.push_back(make_vec(op, kCorner));
      op.index = ~uint64_t{0} - 3;
      c.push_back(make_vec(op, kCorner));
    }
    return c;
  }

  Op random_key(SplitMix64& r) {
    Op op;
    op.seed = r.next();
    op.stream = r.below(4) ? static_cast<uint32_t>(r.below(8)) : r.next32();
    op.index = r.below(2) ? r.below(1u << 20) : r.next() >> r.below(64);
    return op;
  }

  Vector random(SplitMix64& r) override {
    const int src = pick_source(r, ctx_, kSources, {0, 3, 3, 2, 1}, kUniform);
    Op op = random_key(r);
    for (int k = 0; k < kN; ++k) {
      float m = 0.0f;
      switch (src) {
        case kBoundaries:
          m = ulps(kGrid[r.below(sizeof kGrid / sizeof kGrid[0])], static_cast<int>(r.below(9)) - 4);
          break;
        case kFractions: {  // T = 2^B - 1 or T = 1 for some B: the grid point plus (1 - 2^-j) or 2^-j quanta
          const int gi = static_cast<int>(r.below(19));
          const float g = kGrid[gi], q = kGrid[gi + 1] - g;
          const float f = std::ldexp(1.0f, -1 - static_cast<int>(r.below(22)));
          m = g + (r.below(2) ? q * f : q * (1.0f - f));
          break;
        }
        default:
          if (r.below(16) == 0) m = fmt::bits_f32(static_cast<uint32_t>(r.next32() & 0x7FFFFFFFu));
          else m = fmt::bits_f32(static_cast<uint32_t>(0x30800000u + r.below(0x11000000u)));  // 2^-30 .. 2^4
          break;
      }
      op.a[k] = signed_random(r, m);
    }
    if (src == kIndex) {
      const Variant& va = vars_[first_ + r.below(n_)];
      op.index = (uint64_t{0xFFFFFFFFu} - r.below(2)) * va.lanes() + r.below(va.lanes()) + (r.below(2) ? r.next() << 38 : 0);
    }
    return make_vec(op, src);
  }

  std::string describe(const Vector& v) const override {
    const Op op = unpack(v);
    char buf[160];
    std::snprintf(buf, sizeof buf, "seed 0x%016llx stream 0x%08x index %llu\na:", static_cast<unsigned long long>(op.seed),
                  op.stream, static_cast<unsigned long long>(op.index));
    std::string s = buf;
    for (int k = 0; k < kN; ++k) {
      std::snprintf(buf, sizeof buf, " %a", static_cast<double>(op.a[k]));
      s += buf;
    }
    s += "\n";
    for (size_t i = first_; i < first_ + n_; ++i) {
      const Variant& va = vars_[i];
      dp::SrqStages st;
      dp::SrQuantizer(va.elem(), static_cast<unsigned>(va.bits)).compute(input_of(op, va), st);
      s += "model " + va.name() + ": r:";
      for (int k = 0; k < kN; ++k) {
        std::snprintf(buf, sizeof buf, " %x", st.r[k]);
        s += buf;
      }
      s += "  T:";
      for (int k = 0; k < kN; ++k) {
        std::snprintf(buf, sizeof buf, " %x", st.t[k]);
        s += buf;
      }
      s += "  codes:" + hex_nibbles(st.code, kN) + "\n";
    }
    return s;
  }

  std::string active_names() const override { return active_variant_names(vars_, first_, n_); }
  std::vector<PortField> inputs() const override {
    return {{"a", 0, 32 * kN, "16 FP32 scaled elements, element k at [32k+31:32k]"},
            {"seed", 32 * kN, 64, "Threefry key (k0 = low word)"},
            {"stream", 32 * kN + 64, 32, "stream id (counter word c1)"},
            {"index", 32 * kN + 96, 64, "element index of element 0 (group = index div L, lane = index mod L)"}};
  }
  std::vector<PortField> outputs() const override {
    std::vector<PortField> f;
    for (size_t i = first_; i < first_ + n_; ++i) {
      const std::string p = n_ == 1 ? "" : "v" + std::to_string(i - first_) + "(" + vars_[i].name() + ").";
      for (int k = 0; k < kN; ++k)
        f.push_back({p + "code" + std::to_string(k), 64 * static_cast<int>(i - first_) + 4 * k, 4, k ? "" : "element codes"});
    }
    return f;
  }
  std::string protocol() const override { return kDotProtocol; }

 private:
  std::vector<Variant> vars_;
  int cov_code_[3], cov_mx_, cov_elem_, cov_carry_, cov_r_, cov_idx_, cov_src_;
};

}  // namespace

std::unique_ptr<Bench> make_sr_quantizer_bench(const std::vector<Params>& sets, const BenchContext& ctx, const std::string&) {
  std::vector<Variant> vars;
  for (const Params& p : sets) {
    check_params(p, {"SR_BITS", "FMT", "STAGES"}, "sr_quantizer");
    param(p, "STAGES", 4, 0, 6);
    vars.push_back({param(p, "SR_BITS", 8, 1, 32), param(p, "FMT", 0, 0, 2)});
  }
  return std::unique_ptr<Bench>(new SrqBench(ctx, vars));
}

}  // namespace hifsim::verif
