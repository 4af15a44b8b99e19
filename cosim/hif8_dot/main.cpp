// cosim_hif8_dot: rtl/hif8_dot.sv, several parameter sets side by side (hif8_dot_cosim_top.sv,
// STAGES=4: every cut point), against hifsim::dp::Hif8DotN with the same N and AlignSpec.
//
// Vector: 32 words: A's 64 HiF8 codes (words 0..15, element k at bit 8k), B's (16..31); a variant
// with N lanes uses the first N codes. Output: one FP32 result per variant (fields v<i>(name).*).
// The parameter sets are read from the model's cfg port (hif8_dot_cosim_top.sv).
// Sources: corner (zeros, specials, every alignment gap of every variant, ties), uniform (codes
// with a class mix: NaN, Inf, zero, denormal), near (codes of a narrow exponent band: small gaps,
// cancellation, ties), shaped and tensor (value-shaped / real-tensor blocks through the real HiF8
// encoder).
#include <algorithm>
#include <cmath>
#include <string>

#include "Vhif8_dot_cosim_top.h"
#include "common/cosim.hpp"
#include "common/dot_harness.hpp"
#include "common/stimulus.hpp"
#include "datapath/aligned_dot.hpp"
#include "datapath/element.hpp"
#include "formats/hif8.hpp"

using namespace hifsim;
using namespace hifsim::cosim;
using Model = Vhif8_dot_cosim_top;

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

class Hif8Harness {
 public:
  Hif8Harness(Session& s, std::vector<Variant> vars, const std::string& npy)
      : s_(s), vars_(std::move(vars)), blocks_(s, npy) {
    Coverage& c = s_.cov();
    special_.declare(c);
    cov_denorm_ = c.declare("elem.denormal");
    cov_emax_hi_ = c.declare("emax.max_32");
    cov_emax_lo_ = c.declare("emax.min_-42");
    for (size_t v = 0; v < vars_.size(); ++v) {
      const Variant& va = vars_[v];
      const std::string p = va.name() + ".";
      Bins b;
      const int ww = va.window();
      const int top = std::min(ww - 1, 74);  // gaps 0..74 exist (products span 2^-50 .. 2^32)
      for (int g = 0; g <= top; ++g) {
        const int id = c.declare(p + "gap." + std::to_string(g));
        if (g == 0) b.gap = id;
      }
      b.ngap = top + 1;
      b.gap_out = ww <= 74 ? c.declare(p + "gap." + std::to_string(ww) + "+_out_of_window") : -1;
      b.drop_part = va.w ? c.declare(p + "drop.partial") : -1;
      b.jam = va.sticky && va.w ? c.declare(p + "sticky.jam_bit_set") : -1;
      // Products span 2^-50 .. 2^32: no subnormal / overflowing results (no range bins). A window
      // whose sum always fits 24 bits (WW + log2 N <= 24) never rounds: no rounding bins there.
      const bool rounds = ww + static_cast<int>(std::log2(va.n)) > 24;
      b.result.declare(c, p, false, rounds);
      bins_.push_back(b);
    }
    cov_src_ = c.declare_group("source.", kSources, false);
  }

  void hooks(StreamDriver<Model>::Hooks& h) {
    const size_t nv = vars_.size();
    h.set_inputs = [](Model& m, const Vector& v) { set_ab_words(m, v, 16); };
    h.get_outputs = [nv](const Model& m, uint32_t* out) {
      for (size_t i = 0; i < nv; ++i) out[i] = m.out[static_cast<int>(i)];
    };
    h.set_idle_inputs = [](Model& m, SplitMix64& r) { set_ab_random(m, r, 16); };
  }

  void golden(const Vector& v, uint32_t* out) {
    const Operands o = unpack(v);
    Coverage& c = s_.cov();
    c.hit(cov_src_ + v.source);
    for (size_t i = 0; i < vars_.size(); ++i) {
      const Variant& va = vars_[i];
      const Bins& b = bins_[i];
      dp::AlignedDotStages st;
      const dp::DotResult r = dp::Hif8DotN::compute(o.a, o.b, va.n, va.spec(), &st);
      out[i] = st.out_bits;
      if (i == 0) {  // the input classes (the first variant has all 64 lanes)
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
      bool any_p = false;
      for (int k = 0; k < va.n; ++k) {
        const size_t kk = static_cast<size_t>(k);
        if (!st.psig[kk]) continue;
        any_p = true;
        const int gap = st.emax - (st.pexp[kk] + dp::kHif8ProductBits);
        if (gap < b.ngap) c.hit(b.gap + gap);
        else if (b.gap_out >= 0) c.hit(b.gap_out);
        if (va.w && st.dropped[kk]) {
          // partial: some of the product's bits are still in the window
          if (gap < va.window()) c.hit(b.drop_part);
          if (va.sticky && (st.term[kk] & 1)) c.hit(b.jam);
        }
      }
      b.result.count(c, r.exact, any_p);
    }
  }

  std::vector<Vector> corners() {
    std::vector<Vector> c;
    SplitMix64 r(0x41F8);
    c.push_back(make_vec(Operands(), kCorner));
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
    return c;
  }

  Vector random(SplitMix64& r) {
    const int src = pick_source(r, s_, {0, 3, 3, 2, 2}, kUniform);
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

  std::string describe(const Vector& v) const {
    const Operands o = unpack(v);
    std::string s = "A:" + hex_codes(o.a, 64, 2) + "\nB:" + hex_codes(o.b, 64, 2) + "\n";
    for (const Variant& va : vars_) {
      dp::AlignedDotStages st;
      const dp::DotResult r = dp::Hif8DotN::compute(o.a, o.b, va.n, va.spec(), &st);
      s += aligned_model_line(va.name(), st, r.exact);
    }
    return s;
  }

 private:
  struct Bins {
    int gap, ngap, gap_out, drop_part, jam;
    Fp32ResultBins result;
  };
  Session& s_;
  std::vector<Variant> vars_;
  std::vector<Bins> bins_;
  ValueBlocks blocks_;
  SpecialBins special_;
  int cov_denorm_, cov_emax_hi_, cov_emax_lo_, cov_src_;
};

}  // namespace

int main(int argc, char** argv) {
  std::vector<Variant> vars;  // the parameter sets, from the model's cfg port (read in the lambda)
  return harness_main<Model, Hif8Harness>(argc, argv, "hif8_dot", kSources, 40000, 1000000, [&] {
    for (const uint32_t c : read_cfg_codes<Model>(16, [](const Model& m) { return sizeof(m.out) / 4; }))
      vars.push_back({static_cast<int>((c >> 8) & 0x7F), static_cast<int>(c & 0xFF), (c >> 15) != 0});
    return fp32_variant_output("hif8_dot: Verilated hif8_dot_cosim_top (STAGES=4), parameter sets:", vars);
  }, vars);
}
