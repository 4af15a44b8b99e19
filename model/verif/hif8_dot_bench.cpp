// The HiF8 dot unit's bench (rtl/hif8_dot.sv, hifsim::dp::Hif8DotN): generator, checker and
// coverage of model/verif/bench.hpp, for one or more parameter sets {N, W, STICKY} at once.
//
// Vector: 32 words: A's 64 HiF8 codes (words 0..15, element k at bit 8k), B's (16..31); a variant
// with N lanes uses the first N codes. Output: one FP32 result per variant (fields v<i>(name).*).
// The parameter sets are the bench's list (in the cosim, read from the model's cfg port).
// Sources: corner (zeros, specials, every alignment gap of every variant, ties), uniform (codes
// with a class mix: NaN, Inf, zero, denormal), near (codes of a narrow exponent band: small gaps,
// cancellation, ties), shaped and tensor (value-shaped / real-tensor blocks through the real HiF8
// encoder).
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <string>

#include "datapath/aligned_dot.hpp"
#include "datapath/element.hpp"
#include "formats/bits.hpp"
#include "formats/hif8.hpp"
#include "util/error.hpp"
#include "verif/bench.hpp"
#include "verif/bins.hpp"
#include "verif/stimulus.hpp"
#include "verif/units.hpp"

namespace hifsim::verif {
namespace {


enum Source { kCorner, kUniform, kNear, kShaped, kTensor };
const std::vector<std::string> kSources = {"corner", "uniform", "near", "shaped", "tensor"};
constexpr int kWords = 32;
constexpr int kMaxLanes = 64;

struct Variant {
  int n, w;
  bool sticky;
  dp::AlignSpec spec() const {
    dp::AlignSpec s;
    s.width = w;
    s.policy = sticky ? dp::AlignPolicy::sticky : dp::AlignPolicy::trunc;
    return s;
  }
  int window() const { return w == 0 ? dp::kHif8ExactWidth : w + (sticky ? 1 : 0); }  // WW of the RTL
  std::string name() const {
    return "n" + std::to_string(n) + (w == 0 ? std::string("-exact") : "-w" + std::to_string(w) + (sticky ? "-sticky" : "-trunc"));
  }
};

struct Operands {
  uint8_t a[kMaxLanes] = {}, b[kMaxLanes] = {};
};

Vector make_vec(const Operands& o, int source) {
  Vector v;
  v.w.assign(kWords, 0);
  stim::pack_codes(o.a, kMaxLanes, 8, v.w.data());
  stim::pack_codes(o.b, kMaxLanes, 8, v.w.data() + 16);
  v.source = source;
  return v;
}

Operands unpack(const Vector& v) {
  Operands o;
  stim::unpack_codes(v.w.data(), kMaxLanes, 8, o.a);
  stim::unpack_codes(v.w.data() + 16, kMaxLanes, 8, o.b);
  return o;
}

// Positive HiF8 codes by element exponent (-25..12), from the decoder: codes_by_exp[e + 25].
struct CodeTable {
  std::vector<uint8_t> by_exp[38];
  CodeTable() {
    for (int c = 1; c < 0x80; ++c) {
      const dp::Elem e = dp::decode_hif8(static_cast<uint8_t>(c));
      if (e.kind == dp::Elem::num && e.sig) by_exp[e.exp + 25].push_back(static_cast<uint8_t>(c));
    }
  }
  uint8_t pick(SplitMix64& r, int exp) const {
    const auto& v = by_exp[std::clamp(exp, -25, 12) + 25];
    return v[static_cast<size_t>(r.below(v.size()))];
  }
  // A code with an odd significand at that exponent (3 mantissa bits: exponents -6..0), else pick.
  uint8_t pick_odd(SplitMix64& r, int exp) const {
    for (int t = 0; t < 16; ++t) {
      const uint8_t c = pick(r, exp);
      if (dp::decode_hif8(c).sig & 1) return c;
    }
    return pick(r, exp);
  }
};
const CodeTable& codes() {
  static const CodeTable t;
  return t;
}
// The positive HiF8 code of an exactly representable value v > 0.
uint8_t code_of(float v) {
  for (int c = 1; c < 0x80; ++c)
    if (fmt::hif8_decode(static_cast<uint8_t>(c)) == v) return static_cast<uint8_t>(c);
  return 0;
}
// The positive HiF8 code of the value 2^e (-22 <= e <= 15).
uint8_t pow2_code(int e) { return code_of(std::ldexp(1.0f, e)); }

// Corner vectors (Hif8Bench::corners, in this order): the IEEE specials and the extreme products.
void special_corners(std::vector<Vector>& c, SplitMix64& r) {
  // Specials in lane 3: NaN, Inf x 0, +Inf + -Inf, +Inf, -Inf; and the largest products.
  const uint8_t sp[][4] = {{0x80, 0x38, 0, 0}, {0x6F, 0x00, 0, 0}, {0x6F, 0x38, 0xEF, 0x38},
                           {0x6F, 0x38, 0, 0}, {0xEF, 0x38, 0x6E, 0x6E}, {0x6E, 0x6E, 0xEE, 0x6F}};
  for (const auto& s4 : sp) {
    Operands o;
    for (int k = 0; k < 64; ++k) o.a[k] = o.b[k] = codes().pick(r, static_cast<int>(r.below(10)) - 5);
    o.a[3] = s4[0];
    o.b[3] = s4[1];
    if (s4[2]) {
      o.a[9] = s4[2];
      o.b[9] = s4[3];
    }
    c.push_back(make_vec(o, kCorner));
  }
  // All 64 products at the extremes (2^12 x 2^12 and denormal x denormal), every sign mix.
  for (int t = 0; t < 4; ++t) {
    Operands o;
    for (int k = 0; k < 64; ++k) {
      o.a[k] = static_cast<uint8_t>((t < 2 ? 0x6E : 0x01) | ((k + t) % 3 == 0 ? 0x80 : 0));
      o.b[k] = static_cast<uint8_t>(t < 2 ? 0x6D : 0x01);
    }
    c.push_back(make_vec(o, kCorner));
  }
}

// Corner vectors: every alignment gap, and ties and carries at the rounding point.
void alignment_and_rounding_corners(std::vector<Vector>& c, SplitMix64& r) {
  // Every alignment gap 0..74: a product at Emax (pexp) and one g binades below, in the first
  // 16 lanes (so every variant sees them).
  for (int g = 0; g <= 74; ++g)
    for (int rep = 0; rep < 2; ++rep) {
      Operands o;
      const int pt = 24 - static_cast<int>(r.below(static_cast<uint64_t>(75 - g)));  // pexp of the top product
      const int ea = std::clamp(pt - 12, -25, 12);
      o.a[0] = codes().pick(r, ea);
      o.b[0] = codes().pick(r, pt - ea);
      const int pl = pt - g, la = std::clamp(pl / 2, -25, 12);
      o.a[1 + rep] = codes().pick(r, la);
      o.b[1 + rep] = static_cast<uint8_t>(codes().pick(r, pl - la) | (r.below(2) ? 0x80 : 0));
      c.push_back(make_vec(o, kCorner));
    }
  // Ties and carries from sums of exact powers of two (each 2^e = 2^(e/2) x 2^(e - e/2)):
  // 1 + 2^-24 (tie, even: down), 1 + 2^-23 + 2^-24 (tie, odd: up), 2^0 + .. + 2^-24 (all ones
  // plus a tie: carries to 2), 1 + 2^-24 + 2^-40 (above half), each also negated.
  const std::vector<std::vector<int>> sums = {
      {0, -24}, {0, -23, -24}, {0, -1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, -12, -13, -14, -15, -16, -17, -18, -19, -20, -21, -22, -23, -24},
      {0, -24, -40}, {6, -18}, {-10, -34}};
  for (const auto& es : sums)
    for (int neg = 0; neg < 2; ++neg) {
      Operands o;
      for (size_t i = 0; i < es.size(); ++i) {
        const int e = es[i], ea = e / 2, eb = e - ea;
        o.a[i] = static_cast<uint8_t>(pow2_code(ea) | (neg ? 0x80 : 0));
        o.b[i] = pow2_code(eb);
      }
      c.push_back(make_vec(o, kCorner));
    }
  // A carry inside a 24-bit window: 2 x 15 x 15 + 32 + 16 + 8 + 4 + 1 + 2^-1 + .. + 2^-16 =
  // 2^9 - 2^-16, 25 ones at the window LSB 2^-16 (Emax = 8 for the top product 225 * 2^0): a
  // tie with an odd kept part, rounding up to 2^9; exact in the wider windows too.
  {
    std::vector<std::pair<float, float>> pairs = {{15, 15}, {15, 15}, {32, 1}, {16, 1}, {8, 1}, {4, 1}, {1, 1}};
    for (int k = 1; k <= 16; ++k) pairs.push_back({std::ldexp(1.0f, -k), 1.0f});
    for (int neg = 0; neg < 2; ++neg) {
      Operands o;
      for (size_t i = 0; i < pairs.size(); ++i) {
        o.a[i] = static_cast<uint8_t>(code_of(pairs[i].first) | (neg ? 0x80 : 0));
        o.b[i] = code_of(pairs[i].second);
      }
      c.push_back(make_vec(o, kCorner));
    }
  }
  // A round-up carry in a 24-bit truncating window with only 16 lanes: 15 products (found by a
  // search over the HiF8 code pairs) whose sum in the window [2^-16, 2^8) is 2^26 - 2, i.e. 24
  // ones, then a tie with an odd kept part: RNE rounds up and carries to 2^10.
  {
    const uint8_t pairs[][2] = {{0x0f, 0x4a}, {0x3d, 0x5f}, {0x1d, 0x5f}, {0x3d, 0x3d}, {0x33, 0x3f},
                                {0x1b, 0x3f}, {0x0d, 0x0d}, {0x0d, 0x27}, {0x0d, 0x2d}, {0x17, 0x2f},
                                {0x25, 0x2d}, {0x2b, 0x2f}, {0x0f, 0x4b}, {0x0f, 0x4a}, {0x08, 0x4b}};
    Operands o;
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; ++i) {
      o.a[i] = pairs[i][0];
      o.b[i] = pairs[i][1];
    }
    c.push_back(make_vec(o, kCorner));
  }
}

// Corner vectors: the edges of the window (WindowEdgeBins).
void window_edge_corners(std::vector<Vector>& c, SplitMix64& r) {
  // The window's edges (WindowEdgeBins), in the first 16 lanes (every parameter set): +X and -X
  // cancel exactly (X at 2^24 or 2^6), leaving a third product g binades below X whose kept bits
  // and sticky bit are then the whole result, so every bit a window lost shows (odd significands
  // where the format has them, exponents -6..0).
  for (const int xp : {24, 6})
    for (int g = 0; g <= 74 && xp - g >= -50; ++g) {
      Operands o;
      const int xa = std::clamp(xp / 2, -25, 12);
      o.a[0] = codes().pick(r, xa);
      o.b[0] = codes().pick(r, xp - xa);
      o.a[1] = static_cast<uint8_t>(o.a[0] | 0x80);
      o.b[1] = o.b[0];
      const int pl = xp - g, la = std::clamp(pl / 2, -25, 12);
      o.a[2] = static_cast<uint8_t>(codes().pick_odd(r, la) | (r.below(2) ? 0x80 : 0));
      o.b[2] = codes().pick_odd(r, pl - la);
      c.push_back(make_vec(o, kCorner));
    }
  // Zero products above the window: 0 times 2^12 (exponent sum -14) next to tiny products t
  // binades below it.
  for (int t = 1; t <= 36; ++t)
    for (int side = 0; side < 2; ++side) {
      Operands o;
      (side ? o.b : o.a)[0] = 0x00;
      (side ? o.a : o.b)[0] = codes().pick(r, 12);
      const int pl = -14 - t, la = std::clamp(pl / 2, -25, 12);
      o.a[1] = codes().pick_odd(r, la);
      o.b[1] = codes().pick_odd(r, pl - la);
      if (pl - 1 >= -50) {
        o.a[2] = static_cast<uint8_t>(codes().pick(r, la) | 0x80);
        o.b[2] = codes().pick(r, pl - 1 - la);
      }
      c.push_back(make_vec(o, kCorner));
    }
}

class Hif8Bench : public BenchBase {
 public:
  Hif8Bench(const BenchContext& ctx, std::vector<Variant> vars, const std::string& npy)
      : BenchBase(ctx, kSources), vars_(std::move(vars)), blocks_(ctx, npy) {
    set_active(0, vars_.size());
    Coverage& c = cov();
    special_.declare(c);
    cov_denorm_ = c.declare("elem.denormal");
    cov_emax_hi_ = c.declare("emax.max_32");
    cov_emax_lo_ = c.declare("emax.min_-42");
    for (size_t v = 0; v < vars_.size(); ++v) {
      const Variant& va = vars_[v];
      const std::string p = va.name() + ".";
      AlignedDotBins b;
      const int ww = va.window();
      const int top = std::min(ww - 1, 74);  // gaps 0..74 exist (products span 2^-50 .. 2^32)
      // A window can drop product bits only if it is narrower than the span of the products
      // (gaps up to 74 plus the 8 product bits): not W = 82 trunc, not 120.
      const bool drops = va.w && ww - dp::kHif8ProductBits < 74;
      b.gaps.declare(c, p, top + 1, ww, ww <= 74, drops, va.sticky && drops);
      // Products span 2^-50 .. 2^32 (gaps up to 74), zero products reach 2^-14 (0 x 2^12, the zero
      // code's exponent is -26): the window edge bins only where the window can reach them.
      const int drop_from = ww - dp::kHif8ProductBits;
      b.edge.declare(c, p, va.sticky && va.w && drop_from < 74, va.w && drop_from < 36);
      // Products span 2^-50 .. 2^32: no subnormal / overflowing results (no range bins). A window
      // whose sum always fits 24 bits (WW + log2 N <= 24) never rounds: no rounding bins there.
      const bool rounds = ww + static_cast<int>(std::log2(va.n)) > 24;
      b.result.declare(c, p, false, rounds);
      bins_.push_back(b);
    }
    cov_src_ = c.declare_group("source.", kSources, false);
  }

  // The parameter sets [first, first + n) run now (their outputs, in this order); the input-class
  // bins are counted on the one with the most lanes.
  void set_active(size_t first, size_t n) override {
    first_ = first;
    n_ = n;
    widest_ = first;
    for (size_t i = first; i < first + n; ++i)
      if (vars_[i].n > vars_[widest_].n) widest_ = i;
  }


  void golden(const Vector& v, uint32_t* out) override {
    const Operands o = unpack(v);
    Coverage& c = cov();
    c.hit(cov_src_ + v.source);
    for (size_t i = first_; i < first_ + n_; ++i) {
      const Variant& va = vars_[i];
      const AlignedDotBins& b = bins_[i];
      dp::AlignedDotStages st;
      const dp::DotResult r = dp::Hif8DotN::compute(o.a, o.b, va.n, va.spec(), &st);
      out[i - first_] = st.out_bits;
      if (i == widest_) {  // the input classes, on the set with the most lanes
        ElemSpecials sp;
        for (int k = 0; k < va.n; ++k) {
          sp.add(dp::decode_hif8(o.a[k]), dp::decode_hif8(o.b[k]));
          for (const uint8_t cc : {o.a[k], o.b[k]})
            if ((cc & 0x7F) && (cc & 0x7F) < 8 && cc != fmt::kHif8NaN) c.hit(cov_denorm_);
        }
        special_.count(c, sp);
        if (!st.special && !st.term.empty()) {
          bool any = false;
          for (int k = 0; k < va.n; ++k) any = any || st.psig[static_cast<size_t>(k)];
          if (any && st.emax == 32) c.hit(cov_emax_hi_);
          if (any && st.emax == -42) c.hit(cov_emax_lo_);
        }
      }
      if (st.special) continue;
      // Exact (W = 0) drops nothing: its drop and jam bins are not declared.
      const bool any_p = b.gaps.count(c, st, va.n, va.window(), dp::kHif8ProductBits);
      int zero_exp[kMaxLanes];  // exponent of each zero product of two numbers, as the RTL's tree sees it
      for (int k = 0; k < va.n; ++k) {
        const dp::Elem x = dp::decode_hif8(o.a[k]), y = dp::decode_hif8(o.b[k]);
        const bool num = x.kind == dp::Elem::num && y.kind == dp::Elem::num;
        zero_exp[k] = num && (!x.sig || !y.sig) ? x.exp + y.exp : INT_MIN;
      }
      b.edge.count(c, st, zero_exp, va.n, va.window(), dp::kHif8ProductBits);
      b.result.count(c, r.exact, any_p);
    }
  }

  std::vector<Vector> corners() override {
    std::vector<Vector> c;
    SplitMix64 r(0x41F8);
    c.push_back(make_vec(Operands(), kCorner));
    special_corners(c, r);
    alignment_and_rounding_corners(c, r);
    window_edge_corners(c, r);
    // An infinite product of each sign pair, the Inf from A and from B (lane 3, the rest zero).
    for (const auto& ab : stim::inf_product_sign_pairs(0x6F, 0x38, 0x80)) {
      Operands o;
      o.a[3] = static_cast<uint8_t>(ab.first);
      o.b[3] = static_cast<uint8_t>(ab.second);
      c.push_back(make_vec(o, kCorner));
    }
    return c;
  }

  Vector random(SplitMix64& r) override {
    const int src = pick_source(r, ctx_, kSources, {0, 3, 3, 2, 2}, kUniform);
    Operands o;
    float x[64];
    switch (src) {
      case kUniform:
        for (int k = 0; k < 64; ++k) {
          o.a[k] = r.below(40) == 0 ? stim::hif8_mixed(r) : static_cast<uint8_t>(r.below(256));
          o.b[k] = r.below(40) == 0 ? stim::hif8_mixed(r) : static_cast<uint8_t>(r.below(256));
          if (r.below(8) == 0) {  // keep most vectors free of specials
            if (o.a[k] == 0x80 || (o.a[k] & 0x7F) == 0x6F) o.a[k] = 0x38;
          }
        }
        if (r.below(4)) {
          for (int k = 0; k < 64; ++k) {
            if (o.a[k] == 0x80 || (o.a[k] & 0x7F) == 0x6F) o.a[k] = 0x11;
            if (o.b[k] == 0x80 || (o.b[k] & 0x7F) == 0x6F) o.b[k] = 0x11;
          }
        }
        break;
      case kNear: {
        const int e0 = static_cast<int>(r.below(38)) - 25, band = static_cast<int>(r.below(12));
        const int density = 1 + static_cast<int>(r.below(64));
        for (int k = 0; k < 64; ++k) {
          if (static_cast<int>(r.below(64)) >= density) continue;
          o.a[k] = static_cast<uint8_t>(codes().pick(r, e0 + static_cast<int>(r.below(static_cast<uint64_t>(band + 1)))) |
                                        (r.below(2) ? 0x80 : 0));
          o.b[k] = static_cast<uint8_t>(codes().pick(r, e0 + static_cast<int>(r.below(static_cast<uint64_t>(band + 1)))) |
                                        (r.below(2) ? 0x80 : 0));
        }
        break;
      }
      default:
        blocks_.fill(r, src == kShaped, x, 64);
        stim::hif8_quantize(r, x, 64, o.a);
        blocks_.fill(r, src == kShaped, x, 64);
        stim::hif8_quantize(r, x, 64, o.b);
        break;
    }
    return make_vec(o, src);
  }

  std::string describe(const Vector& v) const override {
    const Operands o = unpack(v);
    std::string s = "A:" + hex_codes(o.a, 64, 2) + "\nB:" + hex_codes(o.b, 64, 2) + "\n";
    for (size_t i = first_; i < first_ + n_; ++i) {
      const Variant& va = vars_[i];
      dp::AlignedDotStages st;
      const dp::DotResult r = dp::Hif8DotN::compute(o.a, o.b, va.n, va.spec(), &st);
      s += aligned_model_line(va.name(), st, r.exact);
    }
    return s;
  }

  std::string active_names() const override { return active_variant_names(vars_, first_, n_); }
  // One parameter set: its N codes of a and b; several: all 64 of each.
  std::vector<uint32_t> transaction(const Vector& v, int) const override {
    if (n_ != 1) return v.w;
    const size_t words = static_cast<size_t>(vars_[first_].n) / 4;
    std::vector<uint32_t> t(v.w.begin(), v.w.begin() + static_cast<long>(words));
    t.insert(t.end(), v.w.begin() + 16, v.w.begin() + 16 + static_cast<long>(words));
    return t;
  }
  std::vector<PortField> inputs() const override {
    const int n = n_ == 1 ? vars_[first_].n : kMaxLanes;
    return {{"a", 0, 8 * n, std::to_string(n) + " HiF8 codes, element k at [8k+7:8k]"},
            {"b", 8 * n, 8 * n, std::to_string(n) + " HiF8 codes"}};
  }
  std::vector<PortField> outputs() const override { return variant_fp32_outputs(vars_, first_, n_, "out"); }
  std::string protocol() const override { return kDotProtocol; }

 private:
  std::vector<Variant> vars_;
  size_t widest_ = 0;  // the active set with the most lanes (set_active)
  std::vector<AlignedDotBins> bins_;
  ValueBlocks blocks_;
  SpecialBins special_;
  int cov_denorm_, cov_emax_hi_, cov_emax_lo_, cov_src_;
};

}  // namespace

std::unique_ptr<Bench> make_hif8_dot_bench(const std::vector<Params>& sets, const BenchContext& ctx, const std::string& npy) {
  std::vector<Variant> vars;
  for (const Params& p : sets) {
    check_params(p, {"N", "W", "STICKY", "STAGES"}, "hif8_dot");
    param(p, "STAGES", 3, 0, 4);
    const int n = param(p, "N", 64, 16, 64), w = param(p, "W", 0, 0, 120);
    if (n != 16 && n != 32 && n != 64) throw Error("--set", "N", std::to_string(n) + " is not 16, 32 or 64");
    if (w != 0 && w < 8) throw Error("--set", "W", std::to_string(w) + " is neither 0 (exact) nor in 8..120");
    vars.push_back({n, w, param(p, "STICKY", 0, 0, 1) != 0});
  }
  return std::unique_ptr<Bench>(new Hif8Bench(ctx, vars, npy));
}

}  // namespace hifsim::verif
