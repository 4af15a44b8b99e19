// The MXFP8 dot unit's bench (rtl/mxfp8_dot32.sv, hifsim::dp::Mxfp8Dot32): generator, checker and
// coverage of model/verif/bench.hpp. Its parameter sets are element formats (E5M2 = 0: E4M3,
// 1: E5M2); a vector carries operands for both, the active sets take their own.
//
// Vector: 33 words: the E4M3 operands A (words 0..7, element k at bit 8k) and B (8..15), the E5M2
// operands A (16..23) and B (24..31), and the scales in word 32: E4M3 A | E4M3 B << 8 |
// E5M2 A << 16 | E5M2 B << 24.
// Output: two FP32 results (fields e4m3.* and e5m2.*).
// Sources: corner, uniform (element codes with a class mix: NaN, Inf, zero, subnormal; uniform
// scales), shaped and tensor (value-shaped / real-tensor blocks through the real MX quantizer),
// range (elements of one binade band, scales placed at the FP32 subnormal range and at the
// overflow threshold).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "datapath/element.hpp"
#include "datapath/mxfp8_dot.hpp"
#include "formats/bits.hpp"
#include "verif/bench.hpp"
#include "verif/bins.hpp"
#include "verif/stimulus.hpp"
#include "verif/units.hpp"

namespace hifsim::verif {
namespace {


enum Source { kCorner, kUniform, kShaped, kTensor, kRange };
const std::vector<std::string> kSources = {"corner", "uniform", "shaped", "tensor", "range"};
constexpr int kWords = 33;

struct Side {  // one element format's operands
  uint8_t ca[32] = {}, cb[32] = {};
  uint8_t sa = 127, sb = 127;
};
struct Operands {
  Side f[2];  // 0: E4M3, 1: E5M2
};
const fmt::MiniFloatSpec& spec(int f) { return f ? fmt::kE5M2 : fmt::kE4M3; }

Vector make_vec(const Operands& o, int source) {
  Vector v;
  v.w.assign(kWords, 0);
  for (int f = 0; f < 2; ++f) {
    stim::pack_codes(o.f[f].ca, 32, 8, v.w.data() + 16 * f);
    stim::pack_codes(o.f[f].cb, 32, 8, v.w.data() + 16 * f + 8);
    v.w[32] |= (static_cast<uint32_t>(o.f[f].sa) | static_cast<uint32_t>(o.f[f].sb) << 8) << (16 * f);
  }
  v.source = source;
  return v;
}

Operands unpack(const Vector& v) {
  Operands o;
  for (int f = 0; f < 2; ++f) {
    stim::unpack_codes(v.w.data() + 16 * f, 32, 8, o.f[f].ca);
    stim::unpack_codes(v.w.data() + 16 * f + 8, 32, 8, o.f[f].cb);
    o.f[f].sa = static_cast<uint8_t>(v.w[32] >> (16 * f));
    o.f[f].sb = static_cast<uint8_t>(v.w[32] >> (16 * f + 8));
  }
  return o;
}

dp::Elem decode(int f, uint8_t c) { return f ? dp::decode_e5m2(c) : dp::decode_e4m3(c); }

class Mxfp8Bench : public BenchBase {
 public:
  Mxfp8Bench(const BenchContext& ctx, std::vector<int> fmts, const std::string& npy)
      : BenchBase(ctx, kSources), fmts_(std::move(fmts)), blocks_(ctx, npy) {
    n_ = fmts_.size();
    Coverage& c = cov();
    for (int f = 0; f < 2; ++f) {
      if (std::find(fmts_.begin(), fmts_.end(), f) == fmts_.end()) continue;  // bins of the formats checked
      const std::string p = f ? "e5m2." : "e4m3.";
      Bins& b = bins_[f];
      b.nan_scale = c.declare(p + "nan.scale");
      b.special.nan = c.declare(p + "nan.element");
      if (f) {  // E4M3 has no Inf
        b.special.inf_zero = c.declare(p + "nan.inf_times_zero");
        b.special.inf_inf = c.declare(p + "nan.pinf_plus_ninf");
        b.special.pos_inf = c.declare(p + "inf.positive");
        b.special.neg_inf = c.declare(p + "inf.negative");
      }
      b.elem_sub = c.declare(p + "elem.subnormal");
      b.xmin = c.declare(p + "X.min_-254");
      b.xmax = c.declare(p + "X.max_254");
      const int maxsh = f ? 58 : 28;
      b.shift = c.declare_each(maxsh + 1, [&](int sh) { return p + "shift." + std::to_string(sh); });
      b.result.declare(c, p);
    }
    cov_src_ = c.declare_group("source.", kSources, false);
    // Every code decoded once (the bins look at every element of every vector).
    for (int f = 0; f < 2; ++f)
      for (int code = 0; code < 256; ++code) {
        const dp::Elem e = decode(f, static_cast<uint8_t>(code));
        dec_[f][code] = e;
        sub_[f][code] = e.kind == dp::Elem::num && e.sig && e.exp == (f ? -16 : -9) && e.sig < (f ? 4u : 8u);
      }
  }


  void golden(const Vector& v, uint32_t* out) override {
    const Operands o = unpack(v);
    cov().hit(cov_src_ + v.source);
    for (size_t i = first_; i < first_ + n_; ++i) out[i - first_] = golden_one(fmts_[i], o.f[fmts_[i]]);
  }

  uint32_t golden_one(int f, const Side& o) {
    dp::Mxfp8DotStages st;
    const dp::DotResult r = dp::Mxfp8Dot32::compute(spec(f), o.ca, o.sa, o.cb, o.sb, &st);
    Coverage& c = cov();
    const Bins& b = bins_[f];
    const bool scale_nan = o.sa == 0xFF || o.sb == 0xFF;
    if (scale_nan) c.hit(b.nan_scale);
    ElemSpecials sp;
    bool any_p = false;
    for (int k = 0; k < 32; ++k) {
      sp.add(dec_[f][o.ca[k]], dec_[f][o.cb[k]]);
      if (sub_[f][o.ca[k]]) c.hit(b.elem_sub);
      if (sub_[f][o.cb[k]]) c.hit(b.elem_sub);
      if (st.prod_sig[k]) {
        any_p = true;
        c.hit(b.shift + st.prod_exp[k] - st.min_exp);
      }
    }
    if (scale_nan) return st.out_bits;
    b.special.count(c, sp);
    if (r.exact.kind != dp::ExactValue::finite) return st.out_bits;
    if (any_p && st.scale_exp == -254) c.hit(b.xmin);
    if (any_p && st.scale_exp == 254) c.hit(b.xmax);
    b.result.count(c, r.exact, any_p);
    return st.out_bits;
  }

  std::vector<Vector> corners() override {
    std::vector<Vector> c;
    SplitMix64 r(0x8F8);
    c.push_back(make_vec(Operands(), kCorner));
    // Maxima (every sign combination) at the scale extremes: 254/254 (overflow), 0/0
    // (X = -254: underflow), 127/127.
    const uint8_t maxc[2] = {0x7E, 0x7B};
    const uint8_t sc[][2] = {{254, 254}, {0, 0}, {127, 127}, {254, 120}};
    for (const auto& s2 : sc)
      for (int sgn = 0; sgn < 4; ++sgn) {
        Operands o;
        for (int f = 0; f < 2; ++f) {
          for (int k = 0; k < 32; ++k) {
            o.f[f].ca[k] = static_cast<uint8_t>(maxc[f] | ((sgn & 1) << 7));
            o.f[f].cb[k] = static_cast<uint8_t>(maxc[f] | ((sgn >> 1) << 7));
          }
          o.f[f].sa = s2[0];
          o.f[f].sb = s2[1];
        }
        c.push_back(make_vec(o, kCorner));
      }
    // Specials: NaN scale; NaN element; Inf x 0; +Inf + -Inf; +Inf; -Inf (E5M2), each alone.
    for (int t = 0; t < 6; ++t) {
      Operands o;
      for (int f = 0; f < 2; ++f)
        for (int k = 0; k < 32; ++k) {
          o.f[f].ca[k] = static_cast<uint8_t>(r.below(0x78));
          o.f[f].cb[k] = static_cast<uint8_t>(r.below(0x78));
        }
      Side& e4 = o.f[0];
      Side& e5 = o.f[1];
      switch (t) {
        case 0: e4.sa = 0xFF; e5.sb = 0xFF; break;
        case 1: e4.ca[3] = 0xFF; e5.cb[7] = 0x7E; break;
        case 2: e5.ca[1] = 0x7C; e5.cb[1] = 0x80; e4.ca[0] = 0x7F; break;
        case 3: e5.ca[1] = 0x7C; e5.cb[1] = 0x3C; e5.ca[2] = 0xFC; e5.cb[2] = 0x3C; break;
        case 4: e5.ca[1] = 0x7C; e5.cb[1] = 0x3C; e5.ca[2] = 0xFC; e5.cb[2] = 0xBC; break;
        default: e5.ca[1] = 0xFC; e5.cb[1] = 0x3C; break;
      }
      c.push_back(make_vec(o, kCorner));
    }
    // Every product exponent (shift 0..28 / 0..58): one product at that exponent plus one at
    // the lowest, so the sum spans the whole alignment.
    for (int sh = 0; sh <= 58; ++sh) {
      Operands o;
      for (int f = 0; f < 2; ++f) {
        const int maxoff = f ? 29 : 14;  // t - tmin of one element
        const int s = std::min(sh, 2 * maxoff);
        const int oa = std::min(s, maxoff), ob = s - oa;
        auto code = [&](int off) {  // a normal code with exponent offset off (off = ex - 1)
          return static_cast<uint8_t>(f ? ((off + 1) << 2) | static_cast<int>(r.below(4))
                                        : ((off + 1) << 3) | static_cast<int>(r.below(off == 14 ? 7 : 8)));
        };
        o.f[f].ca[0] = code(oa);
        o.f[f].cb[0] = code(ob);
        o.f[f].ca[5] = static_cast<uint8_t>(0x81);  // the smallest subnormal (negative)
        o.f[f].cb[5] = 0x01;
        o.f[f].sa = static_cast<uint8_t>(100 + r.below(30));
        o.f[f].sb = static_cast<uint8_t>(100 + r.below(30));
      }
      c.push_back(make_vec(o, kCorner));
    }
    // Exact cancellation; subnormal results, ties there and underflow to +-0.
    for (int t = 0; t < 10; ++t) {
      Operands o;
      for (int f = 0; f < 2; ++f) {
        Side& s = o.f[f];
        s.ca[0] = static_cast<uint8_t>(0x30 + t);
        s.cb[0] = 0x38;
        if (t < 2) {
          s.ca[1] = static_cast<uint8_t>(s.ca[0] | 0x80);
          s.cb[1] = 0x38;
        } else {
          s.ca[0] = static_cast<uint8_t>(t & 1 ? 0x81 : 0x01);  // +-smallest subnormal
          s.cb[0] = static_cast<uint8_t>(1 + (t % 3));           // x 1, 2, 3 subnormal units
        }
        // The product's value is 2^(lsb) * k; place it around 2^-149 .. 2^-151.
        const int x = -149 - (f ? -32 : -18) - (t % 4);  // X with min_exp + X = -149 - (t % 4)
        s.sa = static_cast<uint8_t>(std::clamp((x + 254) / 2, 0, 254));
        s.sb = static_cast<uint8_t>(std::clamp(x + 254 - s.sa, 0, 254));
      }
      c.push_back(make_vec(o, kCorner));
    }
    return c;
  }

  Vector random(SplitMix64& r) override {
    const int src = pick_source(r, ctx_, kSources, {0, 3, 3, 2, 2}, kUniform);
    Operands o;
    float x[32];
    for (int f = 0; f < 2; ++f) {
      Side& s = o.f[f];
      switch (src) {
        case kUniform:
          for (int k = 0; k < 32; ++k) {
            s.ca[k] = f ? stim::e5m2_mixed(r) : stim::e4m3_mixed(r);
            s.cb[k] = f ? stim::e5m2_mixed(r) : stim::e4m3_mixed(r);
          }
          s.sa = r.below(64) == 0 ? 0xFF : static_cast<uint8_t>(r.below(255));
          s.sb = r.below(64) == 0 ? 0xFF : static_cast<uint8_t>(r.below(255));
          break;
        case kShaped:
        case kTensor:
          blocks_.fill(r, src == kShaped, x, 32);
          stim::mx_quantize(r, spec(f), x, 32, s.ca, &s.sa);
          blocks_.fill(r, src == kShaped, x, 32);
          stim::mx_quantize(r, spec(f), x, 32, s.cb, &s.sb);
          break;
        default: {  // range: normal codes of a band of exponents, X near the FP32 limits
          const int lo = 1 + static_cast<int>(r.below(f ? 26 : 12)), band = 1 + static_cast<int>(r.below(4));
          for (int k = 0; k < 32; ++k) {
            const int ea = std::min(lo + static_cast<int>(r.below(static_cast<uint64_t>(band))), f ? 30 : 15);
            const int eb = std::min(lo + static_cast<int>(r.below(static_cast<uint64_t>(band))), f ? 30 : 15);
            const int mb = f ? 2 : 3;
            s.ca[k] = static_cast<uint8_t>((r.next() & 0x80) | (ea << mb) | static_cast<int>(r.below(f ? 4 : (ea == 15 ? 7 : 8))));
            s.cb[k] = static_cast<uint8_t>((r.next() & 0x80) | (eb << mb) | static_cast<int>(r.below(f ? 4 : (eb == 15 ? 7 : 8))));
            if (r.below(3) == 0) s.ca[k] = 0;
          }
          const int target = r.below(2) ? -150 - static_cast<int>(r.below(20)) + 10 : 110 + static_cast<int>(r.below(20));
          const int xsum = std::clamp(target - 2 * (lo - (f ? 16 : 9)), -254, 254) + 254;
          s.sa = static_cast<uint8_t>(xsum / 2);
          s.sb = static_cast<uint8_t>(xsum - xsum / 2);
          break;
        }
      }
    }
    return make_vec(o, src);
  }

  std::string describe(const Vector& v) const override {
    const Operands o = unpack(v);
    std::string s;
    for (size_t i = first_; i < first_ + n_; ++i) {
      const int f = fmts_[i];
      const Side& d = o.f[f];
      char buf[160];
      for (int side = 0; side < 2; ++side) {
        std::snprintf(buf, sizeof buf, "%s %s: E8M0 scale %u, codes k=0..31:", f ? "E5M2" : "E4M3", side ? "B" : "A",
                      side ? d.sb : d.sa);
        s += buf + hex_codes(side ? d.cb : d.ca, 32, 2) + "\n";
      }
      dp::Mxfp8DotStages st;
      const dp::DotResult r = dp::Mxfp8Dot32::compute(spec(f), d.ca, d.sa, d.cb, d.sb, &st);
      std::snprintf(buf, sizeof buf, "  model: X = %d, exact %s -> 0x%08x (%a)\n", st.scale_exp, r.exact.str().c_str(),
                    st.out_bits, static_cast<double>(fmt::bits_f32(st.out_bits)));
      s += buf;
    }
    return s;
  }

  std::string active_names() const override {
    std::string s;
    for (size_t i = first_; i < first_ + n_; ++i) s += std::string(s.empty() ? "" : " ") + (fmts_[i] ? "e5m2" : "e4m3");
    return s;
  }
  // One active format: its a, b, sa, sb; both: every operand word of the vector.
  std::vector<uint32_t> transaction(const Vector& v, int) const override {
    if (n_ != 1) return v.w;
    const int f = fmts_[first_];
    std::vector<uint32_t> t(v.w.begin() + 16 * f, v.w.begin() + 16 * f + 16);
    t.push_back((v.w[32] >> (16 * f)) & 0xFFFF);
    return t;
  }
  std::vector<PortField> inputs() const override {
    if (n_ == 1)
      return {{"a", 0, 256, "32 FP8 codes, element k at [8k+7:8k]"},
              {"b", 256, 256, "32 FP8 codes"},
              {"sa", 512, 8, "E8M0 scale of A (0xFF NaN)"},
              {"sb", 520, 8, "E8M0 scale of B"}};
    return {{"a4", 0, 256, "E4M3 operand A"}, {"b4", 256, 256, "E4M3 operand B"},
            {"a5", 512, 256, "E5M2 operand A"}, {"b5", 768, 256, "E5M2 operand B"},
            {"sa4", 1024, 8, ""}, {"sb4", 1032, 8, ""}, {"sa5", 1040, 8, ""}, {"sb5", 1048, 8, ""}};
  }
  std::vector<PortField> outputs() const override {
    std::vector<std::string> names;
    for (size_t i = first_; i < first_ + n_; ++i) names.push_back(n_ == 1 ? "out" : fmts_[i] ? "e5m2.out" : "e4m3.out");
    return fp32_fields(names);
  }
  std::string protocol() const override { return kDotProtocol; }

 private:
  std::vector<int> fmts_;  // the element format of each parameter set (1: E5M2)
  struct Bins {
    int nan_scale, elem_sub, xmin, xmax, shift;
    SpecialBins special;
    Fp32ResultBins result;
  };
  ValueBlocks blocks_;
  Bins bins_[2];
  dp::Elem dec_[2][256];  // decode(f, code)
  bool sub_[2][256];      // the code is a subnormal element (bin elem.subnormal)
  int cov_src_;
};

}  // namespace

std::unique_ptr<Bench> make_mxfp8_dot32_bench(const std::vector<Params>& sets, const BenchContext& ctx,
                                              const std::string& npy) {
  std::vector<int> fmts;
  for (const Params& p : sets) {
    check_params(p, {"E5M2", "STAGES"}, "mxfp8_dot32");
    param(p, "STAGES", 2, 0, 3);
    fmts.push_back(param(p, "E5M2", 0, 0, 1));
  }
  return std::unique_ptr<Bench>(new Mxfp8Bench(ctx, fmts, npy));
}

}  // namespace hifsim::verif
