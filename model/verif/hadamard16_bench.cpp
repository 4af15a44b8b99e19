// The 16 x 16 Hadamard unit's bench (rtl/hadamard16.sv, hifsim::dp::Hadamard16: the RHT of
// formats/hadamard.hpp with N = 16, NaN canonical): generator, checker and coverage of
// model/verif/bench.hpp.
//
// Vector: 17 words: the 16 FP32 inputs x[j] (words 0..15), the sign bits (word 16, bits 15..0) --
// the unit's ports x, signs in that order. Output: the 16 FP32 results.
// Sources: corner (directed), mixed (every FP32 class), near (one binade band with short
// mantissas: ties, carries and cancellation in every stage), range (values at the subnormal
// boundary and near the largest finite value: the scaling's rounding, overflow to Inf), shaped and
// tensor (value-shaped blocks and rows of a real activation tensor: what the RHT transforms).
// The signs: the model's own rht_sign_bits of a random seed, all +1 (--rht-signs none), or a
// random pattern.
#include <cstdio>
#include <string>

#include "datapath/hadamard16.hpp"
#include "formats/bits.hpp"
#include "formats/hadamard.hpp"
#include "verif/bench.hpp"
#include "verif/stimulus.hpp"
#include "verif/units.hpp"

namespace hifsim::verif {
namespace {

using dp::kHad16;
using dp::kHad16Levels;

enum Source { kCorner, kMixed, kNear, kRange, kShaped, kTensor };
const std::vector<std::string> kSources = {"corner", "mixed", "near", "range", "shaped", "tensor"};
constexpr int kWords = kHad16 + 1;

Vector make_vec(const uint32_t* x, uint16_t signs, int source) {
  Vector v;
  v.w.assign(x, x + kHad16);
  v.w.push_back(signs);
  v.source = source;
  return v;
}

uint32_t f32(int sign, int exp, uint32_t mant) {
  return (static_cast<uint32_t>(sign) << 31) | (static_cast<uint32_t>(exp) << 23) | (mant & 0x7FFFFFu);
}

// The signs of a vector: the GEMM's Threefry sign vector of a random seed (most), none, or random.
uint16_t random_signs(SplitMix64& r) {
  switch (r.below(8)) {
    case 0: return 0;
    case 1: return static_cast<uint16_t>(r.next());
    default: return static_cast<uint16_t>(fmt::rht_sign_bits(fmt::RhtSpec{16, r.next(), fmt::RhtSigns::random}));
  }
}

// a + b as an exact value, or false when the exponent gap is too wide for 128 bits (the bins
// then skip the add; the co-simulation still compares it).
bool exact_sum(uint32_t a, uint32_t b, dp::ExactValue& s) {
  const dp::ExactValue x = dp::ExactValue::from_float(fmt::bits_f32(a)), y = dp::ExactValue::from_float(fmt::bits_f32(b));
  if (x.kind != dp::ExactValue::finite || y.kind != dp::ExactValue::finite) return false;
  if (x.is_zero() || y.is_zero()) {
    s = x.is_zero() ? y : x;
    return true;
  }
  const int e = std::min(x.exp, y.exp);
  if (std::max(x.exp, y.exp) - e > 100) return false;
  const dp::u128 mx = x.mag << (x.exp - e), my = y.mag << (y.exp - e);
  s.kind = dp::ExactValue::finite;
  s.exp = e;
  if (x.neg == y.neg) {
    s.mag = mx + my;
    s.neg = x.neg;
  } else {
    s.mag = mx >= my ? mx - my : my - mx;
    s.neg = mx >= my ? x.neg : y.neg;
  }
  return true;
}

class Hadamard16Bench : public BenchBase {
 public:
  Hadamard16Bench(const BenchContext& ctx, const std::string& npy) : BenchBase(ctx, kSources), blocks_(ctx, npy) {
    Coverage& c = cov();
    static const std::vector<std::string> add_bins = {"exact",        "inexact",        "tie_to_even_down", "tie_to_even_up",
                                                      "carry",        "cancel_to_zero", "neg_zero",         "subnormal",
                                                      "overflow_inf", "inf_minus_inf",  "inf_operand",      "nan_operand"};
    for (int l = 0; l < kHad16Levels; ++l)
      cov_add_[l] = c.declare_group("b" + std::to_string(l + 1) + ".", add_bins);
    cov_sc_ = c.declare_group("sc.", {"exact_normal", "rounds_subnormal", "tie_to_even_down", "tie_to_even_up", "carry",
                                      "to_zero", "pos_zero", "neg_zero", "inf", "nan", "normal_to_subnormal"});
    cov_in_ = c.declare_group("in.", {"nan", "inf", "subnormal", "neg_zero", "max_finite"});
    cov_signs_ = c.declare_group("signs.", {"none", "all_negated", "threefry"});
    cov_src_ = c.declare_group("source.", kSources, false);
  }

  void golden(const Vector& v, uint32_t* out) override {
    const uint16_t signs = static_cast<uint16_t>(v.w[kHad16]);
    dp::Hadamard16Stages st;
    dp::Hadamard16::compute(v.w.data(), signs, out, &st);
    Coverage& c = cov();
    c.hit(cov_src_ + v.source);
    if (signs == 0) c.hit(cov_signs_ + 0);
    if (signs == 0xFFFF) c.hit(cov_signs_ + 1);
    if (v.source != kCorner && signs != 0 && signs != 0xFFFF) c.hit(cov_signs_ + 2);
    for (int j = 0; j < kHad16; ++j) {
      const uint32_t x = v.w[j], m = x & 0x7FFFFFFFu;
      if (m > 0x7F800000u) c.hit(cov_in_ + 0);
      if (m == 0x7F800000u) c.hit(cov_in_ + 1);
      if (m && m < 0x00800000u) c.hit(cov_in_ + 2);
      if (x == 0x80000000u) c.hit(cov_in_ + 3);
      if (m == 0x7F7FFFFFu) c.hit(cov_in_ + 4);
    }
    const uint32_t* src = st.v0;
    for (int l = 0; l < kHad16Levels; ++l) {
      const int h = 1 << l;
      for (int k = 0; k < kHad16; ++k) {
        const int lo = k & ~h;
        add_bins(cov_add_[l], src[lo], src[lo + h] ^ ((k & h) ? 0x80000000u : 0u), st.b[l][k]);
      }
      src = st.b[l];
    }
    for (int j = 0; j < kHad16; ++j) scale_bins(src[j], st.out[j]);
  }

  std::vector<Vector> corners() override {
    std::vector<Vector> c;
    SplitMix64 r(0x4AD16);
    uint32_t x[kHad16] = {};
    c.push_back(make_vec(x, 0, kCorner));                          // all +0
    for (uint32_t& e : x) e = 0x80000000u;
    c.push_back(make_vec(x, 0, kCorner));                          // all -0: only (-0) + (-0) stays -0
    c.push_back(make_vec(x, 0xFFFF, kCorner));                     // -0 negated: all +0
    for (uint32_t& e : x) e = 0x3F800000u;
    c.push_back(make_vec(x, 0, kCorner));                          // all 1: 4, then 0 (cancellation)
    c.push_back(make_vec(x, 0xFFFF, kCorner));                     // all -1 after the flips
    c.push_back(make_vec(x, 0x00FF, kCorner));
    // Overflow: 16 x the largest finite value, and pairs of it (Inf in b1, Inf - Inf later).
    for (uint32_t& e : x) e = 0x7F7FFFFFu;
    c.push_back(make_vec(x, 0, kCorner));
    c.push_back(make_vec(x, 0x5555, kCorner));
    // Specials alone and in pairs: NaN (quiet and signalling payloads), +-Inf, Inf - Inf.
    const uint32_t specials[] = {0x7FC00000u, 0x7F800001u, 0xFFFFFFFFu, 0x7F800000u, 0xFF800000u};
    for (const uint32_t s : specials)
      for (int pos : {0, 5, 15}) {
        for (uint32_t& e : x) e = f32(static_cast<int>(r.below(2)), 100 + static_cast<int>(r.below(50)), static_cast<uint32_t>(r.next()));
        x[pos] = s;
        c.push_back(make_vec(x, static_cast<uint16_t>(r.next()), kCorner));
      }
    for (uint32_t& e : x) e = 0;
    x[3] = 0x7F800000u;
    x[7] = 0x7F800000u;
    c.push_back(make_vec(x, 1u << 7, kCorner));                    // +Inf and -Inf meet
    // Ties in every stage: 1 + 2^-24 is half an ulp of 1 above it (ties to even: down), and
    // (1 + 2^-23) + 2^-24 ties up; the earlier stages pair both with zeros, so the two values
    // placed h apart meet unchanged in the stage of pair distance h.
    for (int l = 0; l < kHad16Levels; ++l)
      for (int odd = 0; odd < 2; ++odd) {
        for (uint32_t& e : x) e = 0;
        const int h = 1 << l;
        x[0] = odd ? 0x3F800001u : 0x3F800000u;  // 1 or 1 + 2^-23
        x[h] = 0x33800000u;                      // 2^-24
        c.push_back(make_vec(x, 0, kCorner));
      }
    // The scaling: subnormal and near-subnormal values with every low-bit pattern (ties, carries
    // into the normal range, tiny values to zero), after an identity-like transform: one nonzero
    // input of the 16 reaches every output unchanged in magnitude.
    for (uint32_t mant : {1u, 2u, 3u, 5u, 6u, 7u, 0x7FFFFEu, 0x7FFFFFu, 0x400002u, 0x400006u})
      for (int sign = 0; sign < 2; ++sign) {
        for (uint32_t& e : x) e = 0;
        x[static_cast<int>(r.below(16))] = f32(sign, 0, mant);
        c.push_back(make_vec(x, static_cast<uint16_t>(r.next()), kCorner));
      }
    for (int exp = 1; exp <= 3; ++exp)
      for (uint32_t mant : {0u, 1u, 3u, 0x7FFFFFu}) {
        for (uint32_t& e : x) e = 0;
        x[0] = f32(0, exp, mant);
        c.push_back(make_vec(x, 0, kCorner));
      }
    // Exact cancellation in the last stage: x and -x eight apart.
    for (int t = 0; t < 4; ++t) {
      for (int j = 0; j < 8; ++j) {
        x[j] = f32(static_cast<int>(r.below(2)), 120 + static_cast<int>(r.below(16)), static_cast<uint32_t>(r.next()));
        x[j + 8] = x[j];
      }
      c.push_back(make_vec(x, 0, kCorner));
    }
    return c;
  }

  Vector random(SplitMix64& r) override {
    const int src = pick_source(r, ctx_, kSources, {0, 3, 3, 1, 2, 1}, kMixed);
    uint32_t x[kHad16];
    switch (src) {
      case kMixed:
        for (uint32_t& e : x) e = stim::random_f32_mixed(r);
        break;
      case kNear: {
        const int base = 2 + static_cast<int>(r.below(251));
        const int bits = 1 + static_cast<int>(r.below(6));
        for (uint32_t& e : x) {
          const int exp = std::max(1, std::min(254, base + static_cast<int>(r.below(4)) - 1));
          const uint32_t mant = (static_cast<uint32_t>(r.below(1u << bits)) << (23 - bits)) | (r.below(4) == 0 ? 1u : 0u);
          e = f32(static_cast<int>(r.below(2)), exp, mant);
        }
        break;
      }
      case kRange: {
        const bool low = r.below(2) == 0;
        for (uint32_t& e : x)
          e = low ? f32(static_cast<int>(r.below(2)), static_cast<int>(r.below(4)), static_cast<uint32_t>(r.next()))
                  : f32(static_cast<int>(r.below(2)), 250 + static_cast<int>(r.below(5)), static_cast<uint32_t>(r.next()));
        break;
      }
      default: {
        float f[kHad16];
        blocks_.fill(r, src == kShaped, f, kHad16);
        for (int j = 0; j < kHad16; ++j) x[j] = fmt::f32_bits(f[j]);
        break;
      }
    }
    return make_vec(x, random_signs(r), src);
  }

  std::string describe(const Vector& v) const override {
    std::string s = "x:";
    char buf[48];
    for (int j = 0; j < kHad16; ++j) {
      std::snprintf(buf, sizeof buf, " %08x", v.w[j]);
      s += buf;
    }
    std::snprintf(buf, sizeof buf, "\nsigns: %04x\n", v.w[kHad16] & 0xFFFFu);
    s += buf;
    dp::Hadamard16Stages st;
    uint32_t out[kHad16];
    dp::Hadamard16::compute(v.w.data(), static_cast<uint16_t>(v.w[kHad16]), out, &st);
    auto row = [&](const char* name, const uint32_t* w) {
      s += std::string("model ") + name + ":";
      for (int j = 0; j < kHad16; ++j) {
        std::snprintf(buf, sizeof buf, " %08x", w[j]);
        s += buf;
      }
      s += "\n";
    };
    row("v0", st.v0);
    for (int l = 0; l < kHad16Levels; ++l) row(("b" + std::to_string(l + 1)).c_str(), st.b[l]);
    row("y ", st.out);
    return s;
  }

  std::vector<PortField> inputs() const override {
    return {{"x", 0, 32 * kHad16, "16 FP32 inputs, element j at [32j+31:32j]"},
            {"signs", 32 * kHad16, 16, "sign bits: bit j set negates element j (the GEMM's rht_sign_bits)"}};
  }
  std::vector<PortField> outputs() const override {
    std::vector<std::string> n;
    for (int j = 0; j < kHad16; ++j) n.push_back("y" + std::to_string(j));
    return fp32_fields(n);
  }
  std::string protocol() const override { return kDotProtocol; }

 private:
  // One butterfly add a + b (b already negated for a difference) and its result r.
  void add_bins(int base, uint32_t a, uint32_t b, uint32_t r) {
    Coverage& c = cov();
    const uint32_t ma = a & 0x7FFFFFFFu, mb = b & 0x7FFFFFFFu;
    if (ma > 0x7F800000u || mb > 0x7F800000u) return c.hit(base + 11);
    if (ma == 0x7F800000u && mb == 0x7F800000u && a != b) return c.hit(base + 9);
    if (ma == 0x7F800000u || mb == 0x7F800000u) return c.hit(base + 10);
    if (r == 0x80000000u) c.hit(base + 6);
    dp::ExactValue s;
    if (!exact_sum(a, b, s)) return;
    if (s.is_zero()) {
      if (ma || mb) c.hit(base + 5);
      return;
    }
    const stim::RoundClass rc = stim::classify_fp32_round(s);
    c.hit(base + (rc.exact ? 0 : 1));
    if (rc.tie) c.hit(base + (rc.up ? 3 : 2));
    if (rc.carry) c.hit(base + 4);
    if (rc.subnormal) c.hit(base + 7);
    if (rc.overflow) c.hit(base + 8);
  }
  void scale_bins(uint32_t v, uint32_t y) {
    Coverage& c = cov();
    const uint32_t m = v & 0x7FFFFFFFu;
    if (m > 0x7F800000u) return c.hit(cov_sc_ + 9);
    if (m == 0x7F800000u) return c.hit(cov_sc_ + 8);
    if (m == 0) return c.hit(cov_sc_ + (v ? 7 : 6));
    dp::ExactValue e = dp::ExactValue::from_float(fmt::bits_f32(v));
    e.exp -= 2;
    const stim::RoundClass rc = stim::classify_fp32_round(e);
    if (rc.exact && !rc.subnormal) c.hit(cov_sc_ + 0);
    if (!rc.exact) c.hit(cov_sc_ + 1);
    if (rc.tie) c.hit(cov_sc_ + (rc.up ? 3 : 2));
    if (rc.carry) c.hit(cov_sc_ + 4);
    if (rc.to_zero) c.hit(cov_sc_ + 5);
    if ((v & 0x7F800000u) && (y & 0x7F800000u) == 0) c.hit(cov_sc_ + 10);
  }

  ValueBlocks blocks_;
  int cov_add_[kHad16Levels] = {}, cov_sc_ = 0, cov_in_ = 0, cov_signs_ = 0, cov_src_ = 0;
};

}  // namespace

std::unique_ptr<Bench> make_hadamard16_bench(const std::vector<Params>& sets, const BenchContext& ctx,
                                             const std::string& npy) {
  check_stages_only(sets, "hadamard16", 2, 5);
  return std::unique_ptr<Bench>(new Hadamard16Bench(ctx, npy));
}

}  // namespace hifsim::verif
