// The BF16 dot unit's bench (rtl/bf16_dot64.sv, hifsim::dp::Bf16Dot64): generator, checker and
// coverage of model/verif/bench.hpp, for one or more parameter sets {W, STICKY} at once.
//
// Vector: 64 words: A's 64 BF16 values (words 0..31, element k at bit 16k), B's (32..63).
// Output: one FP32 result per parameter set.
// Sources: corner (zeros, specials, every alignment gap, ties, subnormal / overflowing results),
// uniform (a class mix: NaN, Inf, zero, subnormal, any normal), near (one exponent band: small
// gaps, cancellation, ties), range (results near the FP32 subnormal range and the overflow
// threshold), shaped and tensor (value-shaped / real-tensor blocks rounded to BF16).
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <string>

#include "datapath/aligned_dot.hpp"
#include "datapath/element.hpp"
#include "formats/bits.hpp"
#include "verif/bench.hpp"
#include "verif/bins.hpp"
#include "verif/stimulus.hpp"
#include "verif/units.hpp"

namespace hifsim::verif {
namespace {


enum Source { kCorner, kUniform, kNear, kRange, kShaped, kTensor };
const std::vector<std::string> kSources = {"corner", "uniform", "near", "range", "shaped", "tensor"};
constexpr int kWords = 64;

struct Variant {
  int w;
  bool sticky;
  dp::AlignSpec spec() const {
    dp::AlignSpec s;
    s.width = w;
    s.policy = sticky ? dp::AlignPolicy::sticky : dp::AlignPolicy::trunc;
    return s;
  }
  int window() const { return w + (sticky ? 1 : 0); }
  std::string name() const { return "w" + std::to_string(w) + (sticky ? "-sticky" : "-trunc"); }
};

struct Operands {
  uint16_t a[64] = {}, b[64] = {};
};

Vector make_vec(const Operands& o, int source) {
  Vector v;
  v.w.assign(kWords, 0);
  stim::pack_codes(o.a, 64, 16, v.w.data());
  stim::pack_codes(o.b, 64, 16, v.w.data() + 32);
  v.source = source;
  return v;
}

Operands unpack(const Vector& v) {
  Operands o;
  stim::unpack_codes(v.w.data(), 64, 16, o.a);
  stim::unpack_codes(v.w.data() + 32, 64, 16, o.b);
  return o;
}

// A BF16 with element exponent e (value sig * 2^e, normal: e = field - 134, so field = e + 134
// in 1..254) and a random mantissa.
uint16_t bf16_with_exp(SplitMix64& r, int e) {
  const int field = std::clamp(e + 134, 1, 254);
  return static_cast<uint16_t>((field << 7) | static_cast<int>(r.below(128)));
}
// sig * 2^e, a normal BF16 (sig 128..255, e -133..120).
uint16_t bf16_code(int sig, int e) { return static_cast<uint16_t>(((e + 134) << 7) | (sig - 128)); }
// 2^e exactly (-133 <= e <= 127, subnormals included).
uint16_t bf16_pow2(int e) {
  if (e >= -126) return static_cast<uint16_t>((e + 127) << 7);
  return static_cast<uint16_t>(1u << (e + 133));
}

class Bf16Bench : public BenchBase {
 public:
  Bf16Bench(const BenchContext& ctx, std::vector<Variant> vars, const std::string& npy)
      : BenchBase(ctx, kSources), vars_(std::move(vars)), blocks_(ctx, npy) {
    set_active(0, vars_.size());
    Coverage& c = cov();
    special_.declare(c);
    cov_sub_elem_ = c.declare("elem.subnormal");
    for (size_t v = 0; v < vars_.size(); ++v) {
      const Variant& va = vars_[v];
      const std::string p = va.name() + ".";
      AlignedDotBins b;
      b.gaps.declare(c, p, va.window(), va.window(), true, true, va.sticky);
      b.edge.declare(c, p, va.sticky, true);  // BF16 products span 2^-266 .. 2^256: every window can lose bits
      b.result.declare(c, p);
      bins_.push_back(b);
    }
    cov_src_ = c.declare_group("source.", kSources, false);
  }


  void golden(const Vector& v, uint32_t* out) override {
    const Operands o = unpack(v);
    Coverage& c = cov();
    c.hit(cov_src_ + v.source);
    ElemSpecials sp;
    int zero_exp[64];  // exponent of each zero product of two numbers, as the RTL's tree sees it
    for (int k = 0; k < 64; ++k) {
      const uint16_t ca = o.a[k], cb = o.b[k];
      if ((ca & 0x7F80) == 0x7F80 || (cb & 0x7F80) == 0x7F80) {  // an Inf or NaN: decoded in full
        const dp::Elem x = dp::decode_bf16(ca), y = dp::decode_bf16(cb);
        sp.add(x, y);
        zero_exp[k] = INT_MIN;
      } else if ((ca & 0x7FFF) == 0 || (cb & 0x7FFF) == 0) {  // two numbers, a zero product
        zero_exp[k] = dp::decode_bf16(ca).exp + dp::decode_bf16(cb).exp;
      } else {  // two nonzero numbers: sp.add would do nothing, no zero product
        zero_exp[k] = INT_MIN;
      }
      for (const uint16_t e : {ca, cb})
        if ((e & 0x7F80) == 0 && (e & 0x7F)) c.hit(cov_sub_elem_);
    }
    special_.count(c, sp);
    for (size_t i = first_; i < first_ + n_; ++i) {
      const Variant& va = vars_[i];
      const AlignedDotBins& b = bins_[i];
      dp::AlignedDotStages st;
      const dp::DotResult r = dp::Bf16Dot64::compute(o.a, o.b, va.spec(), &st);
      out[i - first_] = st.out_bits;
      if (st.special) continue;
      const bool any_p = b.gaps.count(c, st, 64, va.window(), dp::kBf16ProductBits);
      b.edge.count(c, st, zero_exp, 64, va.window(), dp::kBf16ProductBits);
      b.result.count(c, r.exact, any_p);
    }
  }

  std::vector<Vector> corners() override {
    std::vector<Vector> c;
    SplitMix64 r(0xBF16);
    c.push_back(make_vec(Operands(), kCorner));
    // Specials in lane 5 (NaN, Inf x 0, +Inf + -Inf, +Inf, -Inf), the rest random normals.
    const uint16_t sp[][4] = {{0x7FC1, 0x3F80, 0, 0}, {0x7F80, 0x0000, 0, 0}, {0x7F80, 0x3F80, 0xFF80, 0x3F80},
                              {0x7F80, 0x0001, 0, 0}, {0xFF80, 0x3F80, 0x7F7F, 0x7F7F}, {0x0000, 0x8000, 0, 0}};
    for (const auto& s4 : sp) {
      Operands o;
      for (int k = 0; k < 64; ++k) {
        o.a[k] = bf16_with_exp(r, static_cast<int>(r.below(20)) - 137);
        o.b[k] = bf16_with_exp(r, static_cast<int>(r.below(20)) - 137);
      }
      o.a[5] = s4[0];
      o.b[5] = s4[1];
      if (s4[2]) {
        o.a[40] = s4[2];
        o.b[40] = s4[3];
      }
      c.push_back(make_vec(o, kCorner));
    }
    // Largest values (overflow to +-Inf), smallest subnormals (underflow to +-0), and every sign mix.
    for (int t = 0; t < 6; ++t) {
      Operands o;
      for (int k = 0; k < 64; ++k) {
        const uint16_t m = t < 3 ? 0x7F7F : 0x0001;
        o.a[k] = static_cast<uint16_t>(m | (((k + t) % 3 == 0) && (t % 3) ? 0x8000 : 0));
        o.b[k] = static_cast<uint16_t>(m | (t % 3 == 2 ? 0x8000 : 0));
      }
      c.push_back(make_vec(o, kCorner));
    }
    // Every alignment gap 0..80 (beyond both windows): a product at pexp pt and one g below.
    for (int g = 0; g <= 80; ++g)
      for (int rep = 0; rep < 2; ++rep) {
        Operands o;
        const int pt = -40 + static_cast<int>(r.below(60));
        const int ea = pt / 2;
        o.a[0] = bf16_with_exp(r, ea);
        o.b[0] = bf16_with_exp(r, pt - ea);
        const int pl = pt - g, la = pl / 2;
        o.a[1 + rep] = static_cast<uint16_t>(bf16_with_exp(r, la) | (r.below(2) ? 0x8000 : 0));
        o.b[1 + rep] = bf16_with_exp(r, pl - la);
        c.push_back(make_vec(o, kCorner));
      }
    // Ties and carries from sums of powers of two (2^e = 2^(e/2) x 2^(e - e/2)), each negated too;
    // and at the subnormal boundary.
    const std::vector<std::vector<int>> sums = {
        {0, -24}, {0, -23, -24}, {0, -1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, -12, -13, -14, -15, -16, -17, -18, -19, -20, -21, -22, -23, -24},
        {0, -24, -50}, {20, -4}, {-150}, {-149, -150}, {-127, -150}, {-126, -127, -128, -129, -130, -131, -132, -133, -134, -135, -136,
        -137, -138, -139, -140, -141, -142, -143, -144, -145, -146, -147, -148, -149, -150}, {127, 126}};
    for (const auto& es : sums)
      for (int neg = 0; neg < 2; ++neg) {
        Operands o;
        for (size_t i = 0; i < es.size(); ++i) {
          const int e = es[i], ea = e / 2, eb = e - ea;
          o.a[i] = static_cast<uint16_t>(bf16_pow2(ea) | (neg ? 0x8000 : 0));
          o.b[i] = bf16_pow2(eb);
        }
        c.push_back(make_vec(o, kCorner));
      }
    // The window's edges (WindowEdgeBins), for every window width of the parameter sets (16..120):
    // +X and -X cancel exactly, leaving a third product g binades below them (g = 0..130) whose
    // kept bits and sticky bit are then the whole result, so every bit the window lost shows; its
    // significand is odd, a power of two, or two set bits.
    {  // +X and -X alone: an exact zero from nonzero products in every window
      Operands o;
      o.a[0] = bf16_with_exp(r, 30);
      o.b[0] = bf16_with_exp(r, 30);
      o.a[1] = static_cast<uint16_t>(o.a[0] ^ 0x8000);
      o.b[1] = o.b[0];
      c.push_back(make_vec(o, kCorner));
    }
    const int sigs[][2] = {{129, 131}, {128, 128}, {129, 128}};
    for (int g = 0; g <= 130; ++g)
      for (const auto& sg : sigs) {
        Operands o;
        o.a[0] = bf16_with_exp(r, 30);
        o.b[0] = bf16_with_exp(r, 30);
        o.a[1] = static_cast<uint16_t>(o.a[0] ^ 0x8000);
        o.b[1] = o.b[0];
        const int pl = 60 - g, ea = pl / 2;
        o.a[2] = static_cast<uint16_t>(bf16_code(sg[0] + 2 * static_cast<int>(r.below(sg[0] == 128 ? 1 : 60)), ea) |
                                       (r.below(2) ? 0x8000 : 0));
        o.b[2] = bf16_code(sg[1], pl - ea);
        c.push_back(make_vec(o, kCorner));
      }
    // Zero products above the window: 0 (or -0) times the largest value, whose exponent sum is
    // -13, next to tiny nonzero products t binades below it, t just above each window's edge.
    for (const int t : {17, 18, 33, 34, 49, 50, 51, 65, 66, 105, 106, 107, 121, 122, 130})
      for (int side = 0; side < 2; ++side) {
        Operands o;
        uint16_t* zs = side ? o.b : o.a;
        uint16_t* bigs = side ? o.a : o.b;
        zs[0] = side ? 0x8000 : 0x0000;
        bigs[0] = 0x7F7F;
        for (int k = 1; k <= 3; ++k) {
          const int pl = -13 - t - 8 * (k - 1), ea = pl / 2;
          o.a[k] = static_cast<uint16_t>(bf16_code(129 + 2 * static_cast<int>(r.below(63)), ea) | (k == 2 ? 0x8000 : 0));
          o.b[k] = bf16_code(128 + static_cast<int>(r.below(128)), pl - ea);
        }
        c.push_back(make_vec(o, kCorner));
      }
    // An infinite product of each sign pair, the Inf from A and from B (lane 5, the rest zero).
    for (const auto& ab : stim::inf_product_sign_pairs(0x7F80, 0x3F80, 0x8000)) {
      Operands o;
      o.a[5] = ab.first;
      o.b[5] = ab.second;
      c.push_back(make_vec(o, kCorner));
    }
    return c;
  }

  Vector random(SplitMix64& r) override {
    const int src = pick_source(r, ctx_, kSources, {0, 2, 4, 2, 1, 1}, kUniform);
    Operands o;
    float x[64];
    switch (src) {
      case kUniform:
        for (int k = 0; k < 64; ++k) {
          o.a[k] = r.below(50) == 0 ? stim::bf16_mixed(r) : stim::bf16_near(r, 1, 254);
          o.b[k] = r.below(50) == 0 ? stim::bf16_mixed(r) : stim::bf16_near(r, 1, 254);
        }
        if (r.below(4)) {  // most vectors without specials
          for (int k = 0; k < 64; ++k) {
            if ((o.a[k] & 0x7F80) == 0x7F80) o.a[k] = 0x3F80;
            if ((o.b[k] & 0x7F80) == 0x7F80) o.b[k] = 0x3F80;
          }
        }
        break;
      case kNear: {  // A from one band of exponents, B near 1: products within ~band + 16 binades
        const int lo = 1 + static_cast<int>(r.below(230)), band = static_cast<int>(r.below(40));
        const int bb = static_cast<int>(r.below(9));
        const int density = 1 + static_cast<int>(r.below(64));
        for (int k = 0; k < 64; ++k) {
          if (static_cast<int>(r.below(64)) >= density) continue;
          o.a[k] = stim::bf16_near(r, lo, std::min(254, lo + band));
          o.b[k] = stim::bf16_near(r, 127 - bb, 127 + bb);
        }
        break;
      }
      case kRange: {  // exponent-field sums T placing the result near 2^-126 .. 2^-150 or 2^128
        const bool high = r.below(2) == 0;
        const int T = high ? 368 + static_cast<int>(r.below(14)) : 96 + static_cast<int>(r.below(30));
        const int density = 1 + static_cast<int>(r.below(64));
        for (int k = 0; k < 64; ++k) {
          if (static_cast<int>(r.below(64)) >= density) continue;
          const int fa = std::max(1, T - 254) + static_cast<int>(r.below(static_cast<uint64_t>(std::min(254, T - 1) - std::max(1, T - 254) + 1)));
          const int fb = std::clamp(T - fa + static_cast<int>(r.below(4)) - 2, 0, 254);
          o.a[k] = static_cast<uint16_t>((r.next() & 0x8000) | (fa << 7) | static_cast<int>(r.below(128)));
          o.b[k] = static_cast<uint16_t>((r.next() & 0x8000) | (fb << 7) | static_cast<int>(r.below(128)));
        }
        break;
      }
      default:
        blocks_.fill(r, src == kShaped, x, 64);
        stim::bf16_quantize(x, 64, o.a);
        blocks_.fill(r, src == kShaped, x, 64);
        stim::bf16_quantize(x, 64, o.b);
        break;
    }
    return make_vec(o, src);
  }

  std::string describe(const Vector& v) const override {
    const Operands o = unpack(v);
    std::string s = "A:" + hex_codes(o.a, 64, 4) + "\nB:" + hex_codes(o.b, 64, 4) + "\n";
    for (size_t i = first_; i < first_ + n_; ++i) {
      const Variant& va = vars_[i];
      dp::AlignedDotStages st;
      const dp::DotResult r = dp::Bf16Dot64::compute(o.a, o.b, va.spec(), &st);
      s += aligned_model_line(va.name(), st, r.exact);
    }
    return s;
  }

  std::string active_names() const override { return active_variant_names(vars_, first_, n_); }
  std::vector<PortField> inputs() const override {
    return {{"a", 0, 1024, "64 BF16 values, element k at [16k+15:16k]"}, {"b", 1024, 1024, "64 BF16 values"}};
  }
  std::vector<PortField> outputs() const override { return variant_fp32_outputs(vars_, first_, n_, "out"); }
  std::string protocol() const override { return kDotProtocol; }

 private:
  std::vector<Variant> vars_;
  std::vector<AlignedDotBins> bins_;
  ValueBlocks blocks_;
  SpecialBins special_;
  int cov_sub_elem_, cov_src_;
};

}  // namespace

std::unique_ptr<Bench> make_bf16_dot64_bench(const std::vector<Params>& sets, const BenchContext& ctx, const std::string& npy) {
  std::vector<Variant> vars;
  for (const Params& p : sets) {
    check_params(p, {"W", "STICKY", "STAGES"}, "bf16_dot64");
    param(p, "STAGES", 3, 0, 4);
    vars.push_back({param(p, "W", 64, 16, 120), param(p, "STICKY", 1, 0, 1) != 0});
  }
  return std::unique_ptr<Bench>(new Bf16Bench(ctx, vars, npy));
}

}  // namespace hifsim::verif
