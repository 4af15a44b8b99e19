// cosim_mxfp8_dot32: rtl/mxfp8_dot32.sv, E4M3 and E5M2 side by side (mxfp8_dot32_cosim_top.sv,
// STAGES=3: every cut point), against hifsim::dp::Mxfp8Dot32.
//
// Vector: 33 words: the E4M3 operands A (words 0..7, element k at bit 8k) and B (8..15), the E5M2
// operands A (16..23) and B (24..31), and the scales in word 32: E4M3 A | E4M3 B << 8 |
// E5M2 A << 16 | E5M2 B << 24.
// Output: two FP32 results (fields e4m3.* and e5m2.*).
// Sources: corner, uniform (element codes with a class mix: NaN, Inf, zero, subnormal; uniform
// scales), shaped and tensor (value-shaped / real-tensor blocks through the real MX quantizer),
// range (elements of one binade band, scales placed at the FP32 subnormal range and at the
// overflow threshold).
#include <cmath>
#include <cstdio>
#include <string>

#include "Vmxfp8_dot32_cosim_top.h"
#include "common/cosim.hpp"
#include "common/dot_harness.hpp"
#include "common/stimulus.hpp"
#include "datapath/element.hpp"
#include "datapath/mx_dot.hpp"
#include "formats/bits.hpp"

using namespace hifsim;
using namespace hifsim::cosim;
using Model = Vmxfp8_dot32_cosim_top;

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

class Mxfp8Harness {
 public:
  Mxfp8Harness(Session& s, const std::string& npy) : s_(s), blocks_(s, npy) {
    Coverage& c = s_.cov();
    for (int f = 0; f < 2; ++f) {
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
      for (int sh = 0; sh <= maxsh; ++sh) {
        const int id = c.declare(p + "shift." + std::to_string(sh));
        if (sh == 0) b.shift = id;
      }
      b.result.declare(c, p);
    }
    cov_src_ = c.declare_group("source.", kSources, false);
  }

  void hooks(StreamDriver<Model>::Hooks& h) {
    h.set_inputs = [](Model& m, const Vector& v) {
      for (int i = 0; i < 8; ++i) {
        m.a4[i] = v.w[static_cast<size_t>(i)];
        m.b4[i] = v.w[static_cast<size_t>(8 + i)];
        m.a5[i] = v.w[static_cast<size_t>(16 + i)];
        m.b5[i] = v.w[static_cast<size_t>(24 + i)];
      }
      m.sa4 = static_cast<uint8_t>(v.w[32]);
      m.sb4 = static_cast<uint8_t>(v.w[32] >> 8);
      m.sa5 = static_cast<uint8_t>(v.w[32] >> 16);
      m.sb5 = static_cast<uint8_t>(v.w[32] >> 24);
    };
    h.get_outputs = [](const Model& m, uint32_t* out) {
      out[0] = static_cast<uint32_t>(m.out);
      out[1] = static_cast<uint32_t>(m.out >> 32);
    };
    h.set_idle_inputs = [](Model& m, SplitMix64& r) {
      for (int i = 0; i < 8; ++i) {
        m.a4[i] = r.next32();
        m.b4[i] = r.next32();
        m.a5[i] = r.next32();
        m.b5[i] = r.next32();
      }
      m.sa4 = static_cast<uint8_t>(r.next());
      m.sb4 = static_cast<uint8_t>(r.next());
      m.sa5 = static_cast<uint8_t>(r.next());
      m.sb5 = static_cast<uint8_t>(r.next());
    };
  }

  void golden(const Vector& v, uint32_t* out) {
    const Operands o = unpack(v);
    s_.cov().hit(cov_src_ + v.source);
    for (int f = 0; f < 2; ++f) out[f] = golden_one(f, o.f[f]);
  }

  uint32_t golden_one(int f, const Side& o) {
    dp::Mxfp8DotStages st;
    const dp::DotResult r = dp::Mxfp8Dot32::compute(spec(f), o.ca, o.sa, o.cb, o.sb, &st);
    Coverage& c = s_.cov();
    const Bins& b = bins_[f];
    const bool scale_nan = o.sa == 0xFF || o.sb == 0xFF;
    if (scale_nan) c.hit(b.nan_scale);
    ElemSpecials sp;
    bool any_p = false;
    for (int k = 0; k < 32; ++k) {
      const dp::Elem x = decode(f, o.ca[k]), y = decode(f, o.cb[k]);
      sp.add(x, y);
      for (const dp::Elem& e : {x, y})
        if (e.kind == dp::Elem::num && e.sig && e.exp == (f ? -16 : -9) && e.sig < (f ? 4u : 8u)) c.hit(b.elem_sub);
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

  std::vector<Vector> corners() {
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

  Vector random(SplitMix64& r) {
    const int src = pick_source(r, s_, {0, 3, 3, 2, 2}, kUniform);
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

  std::string describe(const Vector& v) const {
    const Operands o = unpack(v);
    std::string s;
    for (int f = 0; f < 2; ++f) {
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

 private:
  struct Bins {
    int nan_scale, elem_sub, xmin, xmax, shift;
    SpecialBins special;
    Fp32ResultBins result;
  };
  Session& s_;
  ValueBlocks blocks_;
  Bins bins_[2];
  int cov_src_;
};

}  // namespace

int main(int argc, char** argv) {
  return harness_main<Model, Mxfp8Harness>(argc, argv, "mxfp8_dot32", kSources, 50000, 1000000, [] {
    return fp32_output("mxfp8_dot32: Verilated mxfp8_dot32_cosim_top (E4M3 and E5M2, STAGES=3)", {"e4m3.", "e5m2."});
  });
}
