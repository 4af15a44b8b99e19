// The HiF4 dot unit's bench (rtl/hif4_dot64.sv, hifsim::dp::Hif4Dot64): generator, checker and
// coverage of model/verif/bench.hpp.
//
// Vector: 18 words, A then B, each a HiF4 unit in layout (A) as 9 little-endian words
// (word 0 = meta E6M2 | E1_8 << 8 | E1_16 << 16; words 1..8 = elements, element k at bit 4k).
// Output: the FP32 result (fields sign / exponent / mantissa).
// Sources: corner (directed), uniform (every code field uniform), shaped (value-shaped blocks
// with outliers through the real quantizer), tensor (blocks of a real .npy tensor, quantized).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "datapath/hif4_dot.hpp"
#include "formats/bits.hpp"
#include "verif/bench.hpp"
#include "verif/bins.hpp"
#include "verif/stimulus.hpp"
#include "verif/units.hpp"

namespace hifsim::verif {
namespace {

using fmt::Hif4Unit;
using stim::hif4_pair_vector;

enum Source { kCorner, kUniform, kShaped, kTensor };
const std::vector<std::string> kSources = {"corner", "uniform", "shaped", "tensor"};

void unpack(const Vector& v, Hif4Unit& a, Hif4Unit& b) {
  a = stim::hif4_from_words(v.w.data());
  b = stim::hif4_from_words(v.w.data() + stim::kHif4Words);
}

Hif4Unit unit(uint8_t e6m2, uint8_t e1_8, uint16_t e1_16, uint8_t nib_all = 0) {
  Hif4Unit u;
  u.e6m2 = e6m2;
  u.e1_8 = e1_8;
  u.e1_16 = e1_16;
  for (auto& n : u.nib) n = nib_all;
  return u;
}

// Elements (A and B, magnitudes <= 7, positive) whose products sum to T (no micro-exponents),
// T <= 64 * 49. Used to place I (and so the leading one of |big|) exactly.
void fill_sum(Hif4Unit& a, Hif4Unit& b, int T) {
  int k = 0;
  while (T > 0 && k < 64) {
    int ma, mb;
    if (T >= 49) ma = 7, mb = 7;
    else if (T >= 7) ma = 7, mb = T / 7;
    else ma = T, mb = 1;
    a.nib[k] = static_cast<uint8_t>(ma);
    b.nib[k] = static_cast<uint8_t>(mb);
    T -= ma * mb;
    ++k;
  }
}

class Hif4Bench : public BenchBase {
 public:
  Hif4Bench(const BenchContext& ctx, const std::string& npy) : BenchBase(ctx, kSources), blocks_(ctx, npy) {
    Coverage& c = cov();
    cov_nan_a_ = c.declare("nan.scale_a_only");
    c.declare("nan.scale_b_only");
    c.declare("nan.both");
    cov_zero_ = c.declare("result.zero");
    cov_zero_cancel_ = c.declare("result.zero_with_nonzero_products");
    cov_pos_ = c.declare("result.positive");
    cov_neg_ = c.declare("result.negative");
    tree_.declare(c, "ab");
    cov_imax_ = c.declare("I.max_pos");
    c.declare("I.max_neg");
    cov_bigmax_ = c.declare("big.max_magnitude");
    cov_xmin_ = c.declare("X.min_-104");
    cov_xmax_ = c.declare("X.max_22");
    cov_ss_ = c.declare_each(16, [](int k) { return "SS.MA" + std::to_string(k / 4) + "_MB" + std::to_string(k % 4); });
    // |big| >= 16 (SS >= 16, |I| >= 1), so the leading one is at bit 4..21.
    cov_lead_ = c.declare_each(18, [](int k) { return "lead.bit" + std::to_string(4 + k); });
    cov_negzero_ = c.declare("elem.neg_zero_code");
    cov_psign_ = c.declare_group("prod.sign.", {"pp", "pn", "np", "nn"});
    cov_expmin_ = c.declare("out.exp_field_min_27");
    cov_expmax_ = c.declare("out.exp_field_max_169");
    cov_src_ = c.declare_group("source.", kSources, false);
  }


  // The C++ model; counts coverage.
  void golden(const Vector& v, uint32_t* out) override {
    Hif4Unit a, b;
    unpack(v, a, b);
    dp::Hif4DotStages st;
    dp::Hif4Dot64::compute(a, b, &st);
    out[0] = st.out_bits;
    Coverage& c = cov();
    c.hit(cov_src_ + v.source);
    const bool nan_a = a.e6m2 == 0xFF, nan_b = b.e6m2 == 0xFF;
    if (nan_a || nan_b) c.hit(cov_nan_a_ + (nan_a && nan_b ? 2 : nan_a ? 0 : 1));
    if (st.nan) return;
    // The element bins from the packed words, eight elements a word (element k is nibble k % 8
    // of word 1 + k / 8): p[k] != 0 exactly when both magnitudes (bits 2..0) are nonzero, so
    // per word a bit at each nibble's bit 0 marks nonzero magnitudes, the signs (bit 3) and the
    // -0 codes (sign without magnitude), and the bins count those bits (golden() itself: 1,756 ->
    // 892 instructions a vector; docs/results/cosim-throughput-2026-12-07b.md).
    const uint32_t* wa = v.w.data() + 1;
    const uint32_t* wb = v.w.data() + 1 + stim::kHif4Words;
    constexpr uint32_t kLow = 0x11111111u;
    uint32_t pm[8];  // bit 4j of pm[i]: p[8i + j] != 0
    uint32_t any_p = 0;
    uint64_t sign_n[4] = {0, 0, 0, 0}, negzero_n = 0;
    // The number of marked nibbles of a word: the multiply sums the eight nibbles (each 0 or 1,
    // so no carry leaves a nibble) into the top one.
    const auto count = [](uint32_t m) { return static_cast<uint64_t>((m * kLow) >> 28); };
    for (int i = 0; i < 8; ++i) {
      const uint32_t x = wa[i], y = wb[i];
      const uint32_t nza = (x | x >> 1 | x >> 2) & kLow, nzb = (y | y >> 1 | y >> 2) & kLow;
      const uint32_t sa = (x >> 3) & kLow, sb = (y >> 3) & kLow;
      pm[i] = nza & nzb;
      any_p |= pm[i];
      sign_n[0] += count(pm[i] & ~sa & ~sb);
      sign_n[1] += count(pm[i] & ~sa & sb);
      sign_n[2] += count(pm[i] & sa & ~sb);
      sign_n[3] += count(pm[i] & sa & sb);
      negzero_n += count((sa & ~nza) | (sb & ~nzb));
    }
    for (int q = 0; q < 4; ++q)
      if (sign_n[q]) c.hit(cov_psign_ + q, sign_n[q]);
    if (negzero_n) c.hit(cov_negzero_, negzero_n);
    // Level-3 group j: elements 4j..4j+3, half j % 2 of word 1 + j / 2.
    tree_.count(c, st.group, a, b, [&](int j) { return ((pm[j >> 1] >> (16 * (j & 1))) & 0xFFFFu) != 0; });
    if (st.i_sum == dp::Hif4DotBounds::i_sum) c.hit(cov_imax_);
    if (st.i_sum == -dp::Hif4DotBounds::i_sum) c.hit(cov_imax_ + 1);
    if (st.big == dp::Hif4DotBounds::big || st.big == -dp::Hif4DotBounds::big) c.hit(cov_bigmax_);
    if (st.exp == dp::Hif4DotBounds::exp_min) c.hit(cov_xmin_);
    if (st.exp == dp::Hif4DotBounds::exp_max) c.hit(cov_xmax_);
    c.hit(cov_ss_ + 4 * (a.e6m2 & 3) + (b.e6m2 & 3));
    if (st.big == 0) {
      c.hit(cov_zero_);
      if (any_p) c.hit(cov_zero_cancel_);
      return;
    }
    c.hit(st.big > 0 ? cov_pos_ : cov_neg_);
    const uint32_t mag = static_cast<uint32_t>(st.big < 0 ? -st.big : st.big);
    const int lead = 31 - __builtin_clz(mag);
    if (lead >= 4 && lead <= 21) c.hit(cov_lead_ + lead - 4);
    const uint32_t ef = (st.out_bits >> 23) & 0xFF;
    if (ef == 27) c.hit(cov_expmin_);
    if (ef == 169) c.hit(cov_expmax_);
  }

  std::vector<Vector> corners() override {
    std::vector<Vector> c;
    SplitMix64 r(0xC0FFEE);  // fixed: the corner list does not depend on --seed
    auto rnd_nibs = [&](Hif4Unit& u) {
      for (auto& n : u.nib) n = static_cast<uint8_t>(r.below(16));
    };
    // Zeros: all-zero units, all -0 elements, and -0 times nonzero.
    c.push_back(hif4_pair_vector(unit(0, 0, 0), unit(0, 0, 0), kCorner));
    c.push_back(hif4_pair_vector(unit(0xC0, 0xFF, 0xFFFF, 8), unit(0xC3, 0xFF, 0xFFFF, 8), kCorner));
    c.push_back(hif4_pair_vector(unit(0xC0, 0, 0, 8), unit(0xC0, 0, 0, 7), kCorner));
    // Maxima: every element 7, every micro-exponent set, all sign combinations, extreme scales.
    const uint8_t scales[][2] = {{0xFB, 0xFB}, {0xFE, 0xFE}, {0x00, 0x00}, {0xC0, 0xC0}, {0xFE, 0xFB}, {0xFE, 0x00}};
    for (const auto& sc : scales)
      for (int sa = 0; sa < 2; ++sa)
        for (int sb = 0; sb < 2; ++sb)
          c.push_back(hif4_pair_vector(unit(sc[0], 0xFF, 0xFFFF, static_cast<uint8_t>(7 | (sa << 3))),
                               unit(sc[1], 0xFF, 0xFFFF, static_cast<uint8_t>(7 | (sb << 3))), kCorner));
    // NaN scales, with zero and with maximal elements.
    for (int nib : {0, 7})
      for (int which = 0; which < 3; ++which)
        c.push_back(hif4_pair_vector(unit(which != 1 ? 0xFF : 0xC0, 0xFF, 0xFFFF, static_cast<uint8_t>(nib)),
                             unit(which != 0 ? 0xFF : 0xC0, 0xFF, 0xFFFF, static_cast<uint8_t>(nib)), kCorner));
    // One nonzero element at each position (|I| = 1; with scale 0x00 this is 2^-100, the smallest result).
    for (int k = 0; k < 64; ++k) {
      Hif4Unit a = unit(k % 2 ? 0x00 : static_cast<uint8_t>(r.below(255)), 0, 0), b = unit(k % 2 ? 0x00 : 0xC0, 0, 0);
      a.nib[k] = static_cast<uint8_t>(1 | (r.below(2) << 3));
      b.nib[k] = static_cast<uint8_t>(1 | (r.below(2) << 3));
      c.push_back(hif4_pair_vector(a, b, kCorner));
    }
    // Exact cancellation with nonzero products.
    for (int t = 0; t < 4; ++t) {
      Hif4Unit a = unit(static_cast<uint8_t>(r.below(255)), static_cast<uint8_t>(r.next()), 0), b = unit(0xC0, 0, 0);
      a.e1_8 = 0;  // same shift for both halves of group 0
      a.nib[2 * t] = 7;
      a.nib[2 * t + 1] = 0xF;
      b.nib[2 * t] = 5;
      b.nib[2 * t + 1] = 5;
      c.push_back(hif4_pair_vector(a, b, kCorner));
    }
    // Every level-2 shift in every group, every level-3 pattern in every group of 4.
    for (int i = 0; i < 8; ++i)
      for (int sh = 0; sh < 3; ++sh) {
        Hif4Unit a = unit(0xC0, static_cast<uint8_t>(sh >= 1 ? 1 << i : 0), static_cast<uint16_t>(r.next())),
                 b = unit(0xC1, static_cast<uint8_t>(sh == 2 ? 1 << i : 0), static_cast<uint16_t>(r.next()));
        rnd_nibs(a);
        rnd_nibs(b);
        a.nib[8 * i] = 5;
        b.nib[8 * i] = 3;
        c.push_back(hif4_pair_vector(a, b, kCorner));
      }
    for (int j = 0; j < 16; ++j)
      for (int p = 0; p < 4; ++p) {
        Hif4Unit a = unit(0xC0, static_cast<uint8_t>(r.next()), static_cast<uint16_t>((p >> 1) << j)),
                 b = unit(0xC2, static_cast<uint8_t>(r.next()), static_cast<uint16_t>((p & 1) << j));
        a.nib[4 * j + 1] = 6;
        b.nib[4 * j + 1] = 0xB;
        c.push_back(hif4_pair_vector(a, b, kCorner));
      }
    // Every E6M2 code on each side (0xFF included) against random scales and elements.
    for (int side = 0; side < 2; ++side)
      for (int code = 0; code < 256; ++code) {
        Hif4Unit a = stim::hif4_uniform(r), b = stim::hif4_uniform(r);
        (side ? b : a).e6m2 = static_cast<uint8_t>(code);
        (side ? a : b).e6m2 = static_cast<uint8_t>(r.below(255));
        c.push_back(hif4_pair_vector(a, b, kCorner));
      }
    // Every leading-one position of |big| (4..21): I = +-2^k with SS = 16, then SS = 49.
    for (int k = 0; k <= 15; ++k) {
      const bool shifts = k >= 12;  // all micro-exponents set: each product counts 16 times
      Hif4Unit a = unit(0xC0, shifts ? 0xFF : 0, shifts ? 0xFFFF : 0), b = unit(0xC0, shifts ? 0xFF : 0, shifts ? 0xFFFF : 0);
      fill_sum(a, b, shifts ? (1 << (k - 4)) : (1 << k));
      if (k & 1)
        for (auto& n : a.nib) n = static_cast<uint8_t>(n ? n | 8 : 0);
      c.push_back(hif4_pair_vector(a, b, kCorner));
      if (k == 15) {
        a.e6m2 = 0xFB;
        b.e6m2 = 0xFB;
        c.push_back(hif4_pair_vector(a, b, kCorner));
      }
    }
    return c;
  }

  Vector random(SplitMix64& r) override {
    Vector v;
    random_into(r, v);
    return v;
  }
  void random_into(SplitMix64& r, Vector& v) override {
    const int src = pick_source(r, ctx_, kSources, {0, 3, 4, 3}, kUniform);
    Hif4Unit a, b;
    float x[64];
    switch (src) {
      case kUniform:
        a = stim::hif4_uniform(r);
        b = stim::hif4_uniform(r);
        break;
      default:
        blocks_.fill(r, src == kShaped, x, 64);
        a = stim::hif4_quantize_random_opts(r, x);
        blocks_.fill(r, src == kShaped, x, 64);
        b = stim::hif4_quantize_random_opts(r, x);
        break;
    }
    stim::hif4_pair_into(a, b, src, v);
  }

  std::string describe(const Vector& v) const override {
    Hif4Unit a, b;
    unpack(v, a, b);
    auto one = [](const char* name, const Hif4Unit& u) {
      char buf[256];
      std::snprintf(buf, sizeof buf, "%s: E6M2 0x%02x  E1_8 0x%02x  E1_16 0x%04x  elements k=0..63: ", name, u.e6m2, u.e1_8, u.e1_16);
      std::string s = buf;
      for (int k = 0; k < 64; ++k) s += "0123456789abcdef"[u.nib[k] & 0xF];
      return s + "\n";
    };
    dp::Hif4DotStages st;
    dp::Hif4Dot64::compute(a, b, &st);
    char buf[256];
    std::snprintf(buf, sizeof buf, "model: I=%d SS=%u X=%d big=%d nan=%d -> 0x%08x (%a)", st.i_sum, st.scale_prod, st.exp,
                  st.big, st.nan ? 1 : 0, st.out_bits, static_cast<double>(fmt::bits_f32(st.out_bits)));
    return one("A", a) + one("B", b) + buf;
  }

  std::vector<PortField> inputs() const override {
    return {{"a", 0, 288, "HiF4 unit, layout (A): [7:0] E6M2, [15:8] E1_8, [31:16] E1_16, element k (S1P2) at [32+4k+3:32+4k]"},
            {"b", 288, 288, "HiF4 unit, layout (A)"}};
  }
  std::vector<PortField> outputs() const override { return fp32_fields({"out"}); }
  std::string protocol() const override { return kDotProtocol; }

 private:
  ValueBlocks blocks_;
  Hif4ScaleTreeBins tree_;
  int cov_nan_a_, cov_zero_, cov_zero_cancel_, cov_pos_, cov_neg_, cov_imax_, cov_bigmax_;
  int cov_xmin_, cov_xmax_, cov_ss_, cov_lead_, cov_negzero_, cov_psign_, cov_expmin_, cov_expmax_, cov_src_;
};

}  // namespace

std::unique_ptr<Bench> make_hif4_dot64_bench(const std::vector<Params>& sets, const BenchContext& ctx,
                                              const std::string& npy) {
  check_stages_only(sets, "hif4_dot64", 3, 5);
  return std::unique_ptr<Bench>(new Hif4Bench(ctx, npy));
}

}  // namespace hifsim::verif
