// The HiF4 quantizer's bench (rtl/hif4_quantizer.sv, hifsim::fmt::hif4_quantize_bf16 with the option
// sets {ELEM_RNE, CMP_BF16, INF_TO_NAN, ASCEND_A6}): generator, checker and coverage of
// model/verif/bench.hpp. ASCEND_A6 = the convention's options (hif4_convention_options), which fix
// the element rounding and the compare; INF_TO_NAN still applies.
//
// Vector: 32 words: 64 BF16 inputs, element k at bit 16k. Output: one HiF4 unit in layout (A)
// (9 words) per option set.
// Sources: corner (all-zero, NaN / Inf blocks, -0, tiny and huge blocks, every E6M2 code, ties at
// every element threshold and at the level-2/3 thresholds), uniform (BF16 codes with a class mix),
// shaped and tensor (value-shaped / real-tensor blocks rounded to BF16), ties (a power-of-two scale
// with elements at exact quarter-step midpoints), thresholds (group peaks at and next to the
// level-2/3 thresholds for a random scale: exact ties and the BF16-rounded compare's flips).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>

#include "formats/bits.hpp"
#include "formats/hif4.hpp"
#include "verif/bench.hpp"
#include "verif/bins.hpp"
#include "verif/stimulus.hpp"
#include "verif/units.hpp"

namespace hifsim::verif {
namespace {


enum Source { kCorner, kUniform, kShaped, kTensor, kTies, kThresholds };
const std::vector<std::string> kSources = {"corner", "uniform", "shaped", "tensor", "ties", "thresholds"};
constexpr int kWords = 32;
constexpr int kUnitWords = stim::kHif4Words;

struct Variant {
  int opt;  // bit 0 ELEM_RNE, bit 1 CMP_BF16, bit 2 INF_TO_NAN, bit 3 ASCEND_A6 (the cosim top's cfg word)
  fmt::Hif4Options options() const {
    fmt::Hif4Options o;
    if (opt & 8) {
      o = fmt::hif4_convention_options(fmt::Hif4Convention::ascend_a6);
    } else {
      o.element_rounding = (opt & 1) ? fmt::Rounding::nearest_even : fmt::Rounding::nearest_away;
      o.compare = (opt & 2) ? fmt::Hif4Compare::bf16_rounded : fmt::Hif4Compare::exact;
    }
    o.inf_to_nan = (opt & 4) != 0;
    return o;
  }
  std::string name() const {
    if (opt == 0) return "default";
    if (opt & 8) return (opt & 4) ? "ascend-a6+inf2nan" : "ascend-a6";
    std::string s;
    if (opt & 1) s += "rne";
    if (opt & 2) s += std::string(s.empty() ? "" : "+") + "bf16cmp";
    if (opt & 4) s += std::string(s.empty() ? "" : "+") + "inf2nan";
    return s;
  }
};

struct Block {
  uint16_t x[64] = {};
};

Vector make_vec(const Block& b, int source) {
  Vector v;
  v.w.assign(kWords, 0);
  stim::pack_codes(b.x, 64, 16, v.w.data());
  v.source = source;
  return v;
}
Block unpack(const Vector& v) {
  Block b;
  stim::unpack_codes(v.w.data(), 64, 16, b.x);
  return b;
}

double bf16_mag(uint16_t h) { return static_cast<double>(fmt::bf16_to_float(static_cast<uint16_t>(h & 0x7FFF))); }
bool bf16_nan(uint16_t h) { return (h & 0x7FFF) > 0x7F80; }
bool bf16_inf(uint16_t h) { return (h & 0x7FFF) == 0x7F80; }

class QuantBench : public BenchBase {
 public:
  QuantBench(const BenchContext& ctx, std::vector<Variant> vars, const std::string& npy)
      : BenchBase(ctx, kSources), vars_(std::move(vars)), blocks_(ctx, npy) {
    set_active(0, vars_.size());
    // One Vmax per E6M2 code (scan of the positive BF16 values), for the every-code corners; and
    // up to 8 Vmax values per rounding class of the scale (BF16 tie even / odd, BF16 carry, E6M2
    // tie even / odd, E6M2 carry), spread over the exponents.
    for (uint32_t h = 1; h < 0x7F80; ++h) {
      Block b;
      b.x[0] = static_cast<uint16_t>(h);
      const uint8_t code = fmt::hif4_quantize_bf16(b.x).e6m2;
      if (!vmax_of_code_.count(code)) vmax_of_code_[code] = static_cast<uint16_t>(h);
      if (h < 0x80) continue;
      const uint32_t pm = (0x80u | (h & 0x7F)) * 146u;
      const int sh = (pm >> 15) ? 8 : 7;
      const uint32_t rem = pm & ((1u << sh) - 1), half = 1u << (sh - 1), kept = pm >> sh;
      const float sf = fmt::bf16_round(static_cast<float>(fmt::bf16_to_float(static_cast<uint16_t>(h)) * 0.142578125));
      const uint32_t sig = (fmt::f32_bits(sf) >> 16) & 0x7F;
      const bool in_range = sf >= 0x1p-48f && sf <= 49152.0f;
      int cls = -1;
      if (rem == half) cls = static_cast<int>(kept & 1);                                   // 0, 1
      else if (kept == 255 && rem > half) cls = 2;
      else if (in_range && (sig & 0x1F) == 0x10) cls = 3 + static_cast<int>((sig >> 5) & 1);  // 3, 4
      else if (in_range && (sig >> 5) == 3 && (sig & 0x1F) > 0x10) cls = 5;
      if (cls >= 0 && round_vmax_[cls].size() < 8 && (h >> 7) % 16 == round_vmax_[cls].size() % 16)
        round_vmax_[cls].push_back(static_cast<uint16_t>(h));
    }
    Coverage& c = cov();
    cov_zero_ = c.declare("block.all_zero");
    cov_nan_ = c.declare("block.nan");
    cov_inf_sat_ = c.declare("block.inf_saturates");
    cov_inf_nan_ = c.declare("block.inf_to_nan");
    cov_negzero_in_ = c.declare("block.neg_zero_input");
    cov_clamp_min_ = c.declare("scale.clamp_min_nonzero_block");
    cov_clamp_max_ = c.declare("scale.clamp_max_finite_block");
    cov_sf_tie_ = c.declare_group("sf.bf16_rounding_tie_", {"even_down", "odd_up"});
    cov_sf_carry_ = c.declare("sf.bf16_rounding_carry");
    cov_e6m2_tie_ = c.declare_group("e6m2.mantissa_rounding_tie_", {"even_down", "odd_up"});
    cov_e6m2_carry_ = c.declare("e6m2.mantissa_rounding_carry");
    cov_code_ = c.declare_each(255, [](int code) {
      char nm[32];
      std::snprintf(nm, sizeof nm, "e6m2.code_%02x", code);
      return std::string(nm);
    });
    cov_l2_tie_ = c.declare("l2.exact_tie_at_4");
    cov_l2_flip_ = c.declare("l2.bf16_compare_flip");
    cov_l3_tie_ = c.declare("l3.exact_tie_at_2");
    cov_l3_flip_ = c.declare("l3.bf16_compare_flip");
    cov_m_ = c.declare_each(8, [](int m) { return "elem.m" + std::to_string(m); });
    cov_tie_ = c.declare_each(7, [](int m) { return "elem.tie_" + std::to_string(m) + ".5"; });
    cov_sat_ = c.declare("elem.saturates_from_7.5_up");
    cov_neg0_ = c.declare("elem.negative_rounds_to_neg_zero");
    cov_sub_in_ = c.declare("elem.subnormal_input");
    cov_shift_ = c.declare_each(
        4, [](int p) { return "elem.shift_e8_" + std::to_string(p >> 1) + "_e16_" + std::to_string(p & 1); });
    cov_src_ = c.declare_group("source.", kSources, false);
    cov_a6_ = c.declare_group("a6.", {"bf16_product_changes_element", "product_underflow_drops_sign",
                                      "code_00_zeroes_nonzero_block"});
  }


  void golden(const Vector& v, uint32_t* out) override {
    const Block b = unpack(v);
    for (size_t i = 0; i < n_; ++i)
      stim::hif4_to_words(fmt::hif4_quantize_bf16(b.x, vars_[first_ + i].options()), out + kUnitWords * i);
    count(b);
    cov().hit(cov_src_ + v.source);
  }

  // Coverage, from the input and the units of the default options, of BF16-rounded compares and of
  // Inf -> NaN (exact doubles; independent of the RTL and of the option sets the model has).
  void count(const Block& b) {
    Coverage& c = cov();
    bool nan = false, inf = false, zero = true;
    for (int k = 0; k < 64; ++k) {
      nan |= bf16_nan(b.x[k]);
      inf |= bf16_inf(b.x[k]);
      zero &= (b.x[k] & 0x7FFF) == 0;
      if (b.x[k] == 0x8000) c.hit(cov_negzero_in_);
    }
    if (nan) {
      c.hit(cov_nan_);
      return;
    }
    const fmt::Hif4Unit u = fmt::hif4_quantize_bf16(b.x, Variant{0}.options());
    const fmt::Hif4Unit bf16cmp = fmt::hif4_quantize_bf16(b.x, Variant{2}.options());
    const fmt::Hif4Unit* uf = &bf16cmp;
    if (inf) {
      c.hit(cov_inf_sat_);
      if (fmt::hif4_quantize_bf16(b.x, Variant{4}.options()).e6m2 == 0xFF) c.hit(cov_inf_nan_);
      return;
    }
    if (zero) c.hit(cov_zero_);
    c.hit(cov_code_ + u.e6m2);
    count_a6(b);
    // Peaks and the scale.
    double mag[64], v16[16], v8[8], vmax = 0;
    uint16_t hmax = 0;
    for (int k = 0; k < 64; ++k) {
      mag[k] = bf16_mag(b.x[k]);
      if ((b.x[k] & 0x7FFF) > hmax) hmax = static_cast<uint16_t>(b.x[k] & 0x7FFF);
    }
    for (int j = 0; j < 16; ++j) v16[j] = std::max(std::max(mag[4 * j], mag[4 * j + 1]), std::max(mag[4 * j + 2], mag[4 * j + 3]));
    for (int i = 0; i < 8; ++i) {
      v8[i] = std::max(v16[2 * i], v16[2 * i + 1]);
      vmax = std::max(vmax, v8[i]);
    }
    const double p = vmax * 0.142578125;  // exact
    if (hmax >= 0x80) {
      // RNE of the 16-bit significand product to 8 bits: tie / carry.
      const uint32_t pm = (0x80u | (hmax & 0x7F)) * 146u;
      const int sh = (pm >> 15) ? 8 : 7;
      const uint32_t rem = pm & ((1u << sh) - 1), half = 1u << (sh - 1), kept = pm >> sh;
      if (rem == half) c.hit(cov_sf_tie_ + static_cast<int>(kept & 1));
      if (kept == 255 && (rem > half || (rem == half && (kept & 1)))) c.hit(cov_sf_carry_);
    }
    const float sf = fmt::bf16_round(static_cast<float>(p));
    if (!zero && sf < 0x1p-48f) c.hit(cov_clamp_min_);
    if (sf > 49152.0f) c.hit(cov_clamp_max_);
    if (sf >= 0x1p-48f && sf <= 49152.0f) {
      const uint32_t sig = fmt::f32_bits(sf) >> 16 & 0x7F;  // BF16 fraction: 1.fffffff
      const uint32_t low = sig & 0x1F;
      if (low == 0x10) c.hit(cov_e6m2_tie_ + static_cast<int>((sig >> 5) & 1));
      if ((sig >> 5) == 3 && (low > 0x10 || (low == 0x10 && ((sig >> 5) & 1)))) c.hit(cov_e6m2_carry_);
    }
    // Level bits: exact ties and the BF16-rounded compare's flips.
    const double rec = static_cast<double>(fmt::hif4_reciprocal(u.e6m2));
    for (int i = 0; i < 8; ++i) {
      if (v8[i] * rec == 4.0) c.hit(cov_l2_tie_);
      if (((uf->e1_8 >> i) & 1) && !((u.e1_8 >> i) & 1)) c.hit(cov_l2_flip_);
    }
    for (int j = 0; j < 16; ++j) {
      const int e8 = (u.e1_8 >> (j >> 1)) & 1;
      if (std::ldexp(v16[j] * rec, -e8) == 2.0) c.hit(cov_l3_tie_);
      if (uf->e1_8 == u.e1_8 && ((uf->e1_16 >> j) & 1) && !((u.e1_16 >> j) & 1)) c.hit(cov_l3_flip_);
    }
    // Elements.
    for (int k = 0; k < 64; ++k) {
      const int m = u.nib[k] & 7;
      c.hit(cov_m_ + m);
      if ((b.x[k] & 0x7F80) == 0 && (b.x[k] & 0x7F)) c.hit(cov_sub_in_);
      if ((b.x[k] & 0x8000) && (b.x[k] & 0x7FFF) && m == 0) c.hit(cov_neg0_);
      if (!mag[k]) continue;
      const int e8 = (u.e1_8 >> (k >> 3)) & 1, e16 = (u.e1_16 >> (k >> 2)) & 1;
      c.hit(cov_shift_ + 2 * e8 + e16);
      const double y4 = std::ldexp(mag[k] * rec, 2 - e8 - e16);
      const double fl = std::floor(y4);
      if (y4 - fl == 0.5 && fl <= 6) c.hit(cov_tie_ + static_cast<int>(fl));
      if (y4 >= 7.5) c.hit(cov_sat_);
    }
  }

  // The A6 rules against the same options without them (RNE elements, BF16-rounded compares).
  void count_a6(const Block& b) {
    Coverage& c = cov();
    const fmt::Hif4Unit rne = fmt::hif4_quantize_bf16(b.x, Variant{3}.options());
    const fmt::Hif4Unit a6 = fmt::hif4_quantize_bf16(b.x, Variant{8}.options());
    if (a6.e6m2 == 0 && rne.e6m2 == 0 && !(rne == a6)) c.hit(cov_a6_ + 2);
    if (a6.e6m2 == 0) return;
    for (int k = 0; k < 64; ++k) {
      if ((a6.nib[k] & 7) != (rne.nib[k] & 7)) c.hit(cov_a6_);
      if ((b.x[k] & 0x8000) && (b.x[k] & 0x7FFF) && !(a6.nib[k] & 8)) c.hit(cov_a6_ + 1);
    }
  }

  std::vector<Vector> corners() override {
    std::vector<Vector> c;
    SplitMix64 r(0x0A4F);
    c.push_back(make_vec(Block(), kCorner));
    {  // -0 everywhere, and -0 with one value
      Block b;
      for (auto& x : b.x) x = 0x8000;
      c.push_back(make_vec(b, kCorner));
      b.x[7] = 0x3F80;
      c.push_back(make_vec(b, kCorner));
    }
    // NaN at a few positions (and NaN with Inf); Inf alone (+ and -), with normal values.
    for (int t = 0; t < 6; ++t) {
      Block b;
      for (auto& x : b.x) x = static_cast<uint16_t>(0x3000 + r.below(0x1800) + (r.below(2) << 15));
      if (t < 3) b.x[t * 31] = static_cast<uint16_t>(0x7F81 + r.below(0x7E) + (t == 1 ? 0x8000 : 0));
      if (t == 2 || t >= 3) b.x[(t * 17) % 64] = t == 4 ? 0xFF80 : 0x7F80;
      if (t == 5) b.x[60] = 0xFF80;
      c.push_back(make_vec(b, kCorner));
    }
    // Tiny blocks (the scale clamps to 2^-48; subnormal inputs), huge blocks (0xFE, saturation).
    for (int t = 0; t < 6; ++t) {
      Block b;
      for (int k = 0; k < 64; ++k) {
        if (t < 3) b.x[k] = static_cast<uint16_t>(r.below(t == 0 ? 0x80 : 0x1000 + 0x800 * t) | (r.below(2) << 15));
        else b.x[k] = static_cast<uint16_t>((0x4700 + 0x300 * (t - 3) + r.below(0x300)) | (r.below(2) << 15));
      }
      c.push_back(make_vec(b, kCorner));
    }
    // Huge blocks (scale 0xFE) with tiny negative elements: the scaled product falls around the
    // smallest BF16 subnormal, where A6 drops the sign of an underflowed product.
    for (int t = 0; t < 4; ++t) {
      Block b;
      b.x[static_cast<int>(r.below(64))] = static_cast<uint16_t>(0x4880 + 0x80 * t);
      for (int k = 0; k < 64; ++k)
        if (!b.x[k]) b.x[k] = static_cast<uint16_t>(0x8000 | (t == 3 ? r.below(0x80) : 0x80 + r.below(0x600)));
      c.push_back(make_vec(b, kCorner));
    }
    // Every E6M2 code: Vmax from the scan, random smaller elements (and a ramp for the E1 bits).
    for (const auto& kv : vmax_of_code_) {
      Block b;
      b.x[static_cast<int>(r.below(64))] = static_cast<uint16_t>(kv.second | (r.below(2) << 15));
      for (int k = 0; k < 64; ++k)
        if (!b.x[k] && r.below(2)) b.x[k] = static_cast<uint16_t>(r.below(kv.second) | (r.below(2) << 15));
      c.push_back(make_vec(b, kCorner));
    }
    // The rounding classes of the scale (BF16 ties even / odd and carry, E6M2 ties even / odd and
    // carry) as Vmax of random blocks.
    for (const auto& cls : round_vmax_)
      for (uint16_t vm : cls) {
        Block b;
        for (int k = 0; k < 64; ++k) b.x[k] = static_cast<uint16_t>(r.below(vm) | (r.below(2) << 15));
        b.x[static_cast<int>(r.below(64))] = static_cast<uint16_t>(vm | (r.below(2) << 15));
        c.push_back(make_vec(b, kCorner));
      }
    // Element ties k + 0.5 for k = 0..6 under every (E1_8, E1_16) shift, signs both ways: scale
    // 2^0 (Vmax = 7 -> SF = 1.0, REC = 1); group 0 keeps E1_8 = E1_16 = 0 (peak < 2), group 1
    // gets E1_16 = 1 only, group 2 (the second level-2 group) E1_8 = 1.
    for (int rep = 0; rep < 4; ++rep) {
      Block b;
      b.x[63] = 0x40E0;  // 7.0 in the last group
      for (int k = 0; k < 7; ++k) {
        const float t = (k + 0.5f) / 4.0f;
        b.x[k % 4] = fmt::bf16_from_float(rep & 1 ? -t : t);                      // group 0: peak <= 1.625 (< 2)
        b.x[4 + (k % 4)] = fmt::bf16_from_float((rep & 2 ? -2.0f : 2.0f) * t);    // group 1: shift 1 (peak >= 2)
        b.x[8 + (k % 8)] = fmt::bf16_from_float(4.0f * t);                         // level-2 group 1: shift >= 1
        b.x[16 + (k % 8)] = fmt::bf16_from_float(2.0f * t);
        c.push_back(make_vec(b, kCorner));
      }
    }
    // Level-2 / level-3 thresholds exactly (REC = 1: V8 = 4, V16 = 2 and 4) and just below.
    const uint16_t th[] = {0x4080, 0x407F, 0x4000, 0x3FFF, 0x4060, 0x3FC0};
    for (uint16_t t : th) {
      Block b;
      b.x[63] = 0x40E0;  // Vmax = 7: REC = 1
      for (int i = 0; i < 7; ++i) b.x[8 * i + static_cast<int>(r.below(8))] = t;
      c.push_back(make_vec(b, kCorner));
    }
    // The BF16-rounded compare's flips: M = 3 (REC sig 146) with peaks of significand 224 at the
    // threshold exponent (224 * 146 = 511 * 64: exactly the BF16 midpoint below 4 or 2).
    for (int t = 0; t < 4; ++t) c.push_back(make_vec(threshold_block(r, 0xC3 + 4 * t), kThresholds));
    return c;
  }

  // Peaks at and next to the level-2 / level-3 thresholds for the scale `code` (picked from the
  // scan): V8 near 4 / REC, V16 near 2 / REC (in level-2 groups with E1_8 = 0) or 4 / REC.
  Block threshold_block(SplitMix64& r, int code) {
    Block b;
    auto it = vmax_of_code_.find(static_cast<uint8_t>(code));
    if (it == vmax_of_code_.end()) it = vmax_of_code_.begin();
    const uint16_t vmax = it->second;
    b.x[63] = vmax;
    const uint8_t real_code = fmt::hif4_quantize_bf16(b.x).e6m2;
    const double rec = static_cast<double>(fmt::hif4_reciprocal(real_code));
    for (int g = 0; g < 15; ++g) {
      const double target = (g % 3 == 0 ? 4.0 : 2.0) / rec;
      uint16_t h = fmt::bf16_from_float(static_cast<float>(target));
      h = static_cast<uint16_t>(h + static_cast<int>(r.below(5)) - 2);
      if (h > (vmax & 0x7FFF)) h = static_cast<uint16_t>(vmax & 0x7FFF);
      b.x[4 * g + static_cast<int>(r.below(4))] = static_cast<uint16_t>(h | (r.below(2) << 15));
    }
    return b;
  }

  Vector random(SplitMix64& r) override {
    const int src = pick_source(r, ctx_, kSources, {0, 2, 3, 2, 2, 1}, kUniform);
    Block b;
    float x[64];
    switch (src) {
      case kUniform: {
        const bool clean = r.below(8) != 0;
        const int lo = static_cast<int>(r.below(250)), band = 1 + static_cast<int>(r.below(30));
        for (int k = 0; k < 64; ++k) {
          if (r.below(3) == 0) b.x[k] = stim::bf16_mixed(r);
          else b.x[k] = stim::bf16_near(r, std::max(1, lo), std::min(254, lo + band));
          if (clean && (b.x[k] & 0x7F80) == 0x7F80) b.x[k] = 0;
        }
        break;
      }
      case kShaped:
      case kTensor:
        blocks_.fill(r, src == kShaped, x, 64);
        stim::bf16_quantize(x, 64, b.x);
        break;
      case kTies: {  // scale 2^s (Vmax = 7 * 2^s), elements (m + 0.5) / 4 * 2^(j + s)
        const int s = static_cast<int>(r.below(80)) - 40;
        b.x[static_cast<int>(r.below(64))] = fmt::bf16_from_float(std::ldexp(7.0f, s));
        for (int k = 0; k < 64; ++k) {
          if (b.x[k]) continue;
          const int m = static_cast<int>(r.below(8)), j = static_cast<int>(r.below(3));
          const float v = std::ldexp((m + (r.below(4) ? 0.5f : 0.0f)) / 4.0f, j + s);
          b.x[k] = fmt::bf16_from_float(r.below(2) ? -v : v);
        }
        break;
      }
      default:
        b = threshold_block(r, static_cast<int>(r.below(255)));
        break;
    }
    return make_vec(b, src);
  }

  std::string describe(const Vector& v) const override {
    const Block b = unpack(v);
    std::string s = "x:" + hex_codes(b.x, 64, 4) + "\n";
    char buf[200];
    for (size_t i = first_; i < first_ + n_; ++i) {
      const Variant& va = vars_[i];
      const fmt::Hif4Unit u = fmt::hif4_quantize_bf16(b.x, va.options());
      std::snprintf(buf, sizeof buf, "model %s: E6M2 0x%02x E1_8 0x%02x E1_16 0x%04x elements: ", va.name().c_str(), u.e6m2,
                    u.e1_8, u.e1_16);
      s += buf + hex_nibbles(u.nib, 64) + "\n";
    }
    return s;
  }

  std::string active_names() const override { return active_variant_names(vars_, first_, n_); }
  std::vector<PortField> inputs() const override {
    return {{"x", 0, 1024, "64 BF16 values, element k at [16k+15:16k]"}};
  }
  std::vector<PortField> outputs() const override {
    std::vector<PortField> f;
    for (size_t i = first_; i < first_ + n_; ++i) {
      const std::string p = n_ == 1 ? "" : "v" + std::to_string(i - first_) + "(" + vars_[i].name() + ").";
      const int b = 32 * kUnitWords * static_cast<int>(i - first_);
      f.push_back({p + "e6m2", b, 8, "E6M2 scale (0xFF NaN)"});
      f.push_back({p + "e1_8", b + 8, 8, "level-2 bits"});
      f.push_back({p + "e1_16", b + 16, 16, "level-3 bits"});
      for (int e = 0; e < 64; ++e) f.push_back({p + "elem" + std::to_string(e), b + 32 + 4 * e, 4, e ? "" : "S1P2 elements"});
    }
    return f;
  }
  std::string protocol() const override { return kDotProtocol; }

 private:
  std::vector<Variant> vars_;
  ValueBlocks blocks_;
  std::map<uint8_t, uint16_t> vmax_of_code_;
  std::vector<uint16_t> round_vmax_[6];
  int cov_zero_, cov_nan_, cov_inf_sat_, cov_inf_nan_, cov_negzero_in_, cov_clamp_min_, cov_clamp_max_, cov_sf_tie_;
  int cov_sf_carry_, cov_e6m2_tie_, cov_e6m2_carry_, cov_code_, cov_l2_tie_, cov_l2_flip_, cov_l3_tie_, cov_l3_flip_;
  int cov_m_, cov_tie_, cov_sat_, cov_neg0_, cov_sub_in_, cov_shift_, cov_src_, cov_a6_;
};

}  // namespace

std::unique_ptr<Bench> make_hif4_quantizer_bench(const std::vector<Params>& sets, const BenchContext& ctx,
                                                 const std::string& npy) {
  std::vector<Variant> vars;
  for (const Params& p : sets) {
    check_params(p, {"ELEM_RNE", "CMP_BF16", "INF_TO_NAN", "ASCEND_A6", "STAGES"}, "hif4_quantizer");
    param(p, "STAGES", 3, 0, 4);
    vars.push_back({param(p, "ELEM_RNE", 0, 0, 1) | param(p, "CMP_BF16", 0, 0, 1) << 1 |
                    param(p, "INF_TO_NAN", 0, 0, 1) << 2 | param(p, "ASCEND_A6", 0, 0, 1) << 3});
  }
  return std::unique_ptr<Bench>(new QuantBench(ctx, vars, npy));
}

}  // namespace hifsim::verif
