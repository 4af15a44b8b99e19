// The MXFP4 dot unit's bench (rtl/mxfp4_dot64.sv, hifsim::dp::Mxfp4Dot64): generator, checker and
// coverage of model/verif/bench.hpp.
//
// Vector: 17 words: A's 64 E2M1 codes (words 0..7, element k at bit 4k), B's codes (8..15), and
// the four E8M0 scales in word 16: A block 0 | A block 1 << 8 | B block 0 << 16 | B block 1 << 24.
// Output: the FP32 result (fields sign / exponent / mantissa).
// Sources: corner, uniform (codes uniform, scales uniform over 0..254 with some 0xFF), shaped and
// tensor (value-shaped / real-tensor blocks through the real MX quantizer), near (scales whose
// exponent sums lie within 48 of each other, so the two block sums overlap: alignment, cancellation,
// ties), tiny (exponent sums near the FP32 subnormal range and the overflow threshold).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "datapath/mxfp4_dot.hpp"
#include "formats/bits.hpp"
#include "verif/bench.hpp"
#include "verif/bins.hpp"
#include "verif/stimulus.hpp"
#include "verif/units.hpp"

namespace hifsim::verif {
namespace {


enum Source { kCorner, kUniform, kShaped, kTensor, kNear, kTiny };
const std::vector<std::string> kSources = {"corner", "uniform", "shaped", "tensor", "near", "tiny"};
constexpr int kWords = 17;
constexpr int kJam = 40;  // hifsim_pkg::MX4_JAM_DIST

struct Operands {
  uint8_t ca[64] = {}, cb[64] = {}, sa[2] = {127, 127}, sb[2] = {127, 127};
};

Vector make_vec(const Operands& o, int source) {
  Vector v;
  v.w.assign(kWords, 0);
  stim::pack_codes(o.ca, 64, 4, v.w.data());
  stim::pack_codes(o.cb, 64, 4, v.w.data() + 8);
  v.w[16] = static_cast<uint32_t>(o.sa[0]) | static_cast<uint32_t>(o.sa[1]) << 8 | static_cast<uint32_t>(o.sb[0]) << 16 |
            static_cast<uint32_t>(o.sb[1]) << 24;
  v.source = source;
  return v;
}

Operands unpack(const Vector& v) {
  Operands o;
  stim::unpack_codes(v.w.data(), 64, 4, o.ca);
  stim::unpack_codes(v.w.data() + 8, 64, 4, o.cb);
  o.sa[0] = static_cast<uint8_t>(v.w[16]);
  o.sa[1] = static_cast<uint8_t>(v.w[16] >> 8);
  o.sb[0] = static_cast<uint8_t>(v.w[16] >> 16);
  o.sb[1] = static_cast<uint8_t>(v.w[16] >> 24);
  return o;
}

// Block b's elements: products summing to T (quarter units, |T| <= 4608) with A codes <= 7.
void fill_block(Operands& o, int b, int T) {
  static const int kHalf[8] = {0, 1, 2, 3, 4, 6, 8, 12};
  const bool neg = T < 0;
  int t = neg ? -T : T;
  for (int k = 32 * b; k < 32 * b + 32 && t > 0; ++k) {
    // the largest product <= t with b's element 1 (half unit 1: code 1) or 12 (code 7)
    int best_a = 0, best_b = 0, best = 0;
    for (int ia = 1; ia < 8; ++ia)
      for (int ib = 1; ib < 8; ++ib) {
        const int p = kHalf[ia] * kHalf[ib];
        if (p <= t && p > best) best = p, best_a = ia, best_b = ib;
      }
    o.ca[k] = static_cast<uint8_t>(best_a | (neg ? 8 : 0));
    o.cb[k] = static_cast<uint8_t>(best_b);
    t -= best;
  }
}

class Mxfp4Bench : public BenchBase {
 public:
  Mxfp4Bench(const BenchContext& ctx, const std::string& npy) : BenchBase(ctx, kSources), blocks_(ctx, npy) {
    Coverage& c = cov();
    cov_nan_ = c.declare_group("nan.", {"scale_a_only", "scale_b_only", "both"});
    cov_xmin_ = c.declare("X.min_-256");
    cov_xmax_ = c.declare("X.max_252");
    cov_summax_ = c.declare("sum.max_magnitude_4608");
    cov_one_ = c.declare("align.one_block_zero");
    cov_d_ = c.declare_each(
        kJam + 2, [](int d) { return d <= kJam ? "align.d" + std::to_string(d) : std::string("align.d41+_jam"); });
    cov_jam_inexact_ = c.declare("jam.low_term_only_sticky");
    // The jam bit decides the result: the high term alone is a rounding tie (only possible in the
    // subnormal range, where 13-bit sums are not always representable).
    cov_jam_tie_ = c.declare("jam.decides_a_subnormal_tie");
    result_.declare(c, "");
    elem_.declare(c);
    cov_src_ = c.declare_group("source.", kSources, false);
  }


  void golden(const Vector& v, uint32_t* out) override {
    const Operands o = unpack(v);
    dp::Mxfp4DotStages st;
    const dp::DotResult r = dp::Mxfp4Dot64::compute(o.ca, o.sa, o.cb, o.sb, &st);
    out[0] = st.out_bits;
    Coverage& c = cov();
    c.hit(cov_src_ + v.source);
    const bool nan_a = o.sa[0] == 0xFF || o.sa[1] == 0xFF, nan_b = o.sb[0] == 0xFF || o.sb[1] == 0xFF;
    if (nan_a || nan_b) c.hit(cov_nan_ + (nan_a && nan_b ? 2 : nan_a ? 0 : 1));
    if (st.nan) return;
    for (int b = 0; b < 2; ++b) {
      if (!st.block_sum[b]) continue;
      if (st.exp[b] == -256) c.hit(cov_xmin_);
      if (st.exp[b] == 252) c.hit(cov_xmax_);
      if (std::abs(st.block_sum[b]) == 4608) c.hit(cov_summax_);
    }
    const bool nz0 = st.block_sum[0] != 0, nz1 = st.block_sum[1] != 0;
    if (nz0 != nz1) c.hit(cov_one_);
    if (nz0 && nz1) {
      const int d = std::abs(st.exp[0] - st.exp[1]);
      c.hit(cov_d_ + std::min(d, kJam + 1));
      // The low term is far below the high one: the RTL keeps only its sticky bit.
      if (d > kJam) {
        c.hit(cov_jam_inexact_);
        const int h = st.exp[0] > st.exp[1] ? 0 : 1;
        if (stim::classify_fp32_round(dp::ExactValue::from_int(st.block_sum[h], st.exp[h])).tie) c.hit(cov_jam_tie_);
      }
    }
    elem_.count(c, o.ca, o.cb, st.p, 64);
    result_.count(c, r.exact, nz0 && nz1);
  }

  std::vector<Vector> corners() override {
    std::vector<Vector> c;
    SplitMix64 r(0x3A4F);
    c.push_back(make_vec(Operands(), kCorner));
    // Maxima with every sign combination at extreme scales: 254/254 (overflow to Inf),
    // 0/0 (X = -256, underflow), 127/127, and mixed.
    const uint8_t sc[][2] = {{254, 254}, {0, 0}, {127, 127}, {254, 0}, {200, 180}};
    for (const auto& s2 : sc)
      for (int sgn = 0; sgn < 4; ++sgn) {
        Operands o;
        for (int k = 0; k < 64; ++k) {
          o.ca[k] = static_cast<uint8_t>(7 | ((sgn & 1) << 3));
          o.cb[k] = static_cast<uint8_t>(7 | ((sgn >> 1) << 3));
        }
        o.sa[0] = o.sa[1] = s2[0];
        o.sb[0] = o.sb[1] = s2[1];
        c.push_back(make_vec(o, kCorner));
      }
    // NaN scales at every position.
    for (int pos = 0; pos < 4; ++pos)
      for (int both = 0; both < 2; ++both) {
        Operands o;
        for (int k = 0; k < 64; ++k) o.ca[k] = o.cb[k] = static_cast<uint8_t>(r.below(16));
        (pos < 2 ? o.sa : o.sb)[pos & 1] = 0xFF;
        if (both) (pos < 2 ? o.sb : o.sa)[pos & 1] = 0xFF;
        c.push_back(make_vec(o, kCorner));
      }
    // Every exponent difference 0..48 between the block sums, both orders, random sums.
    for (int d = 0; d <= 48; ++d)
      for (int ord = 0; ord < 2; ++ord) {
        Operands o;
        fill_block(o, 0, static_cast<int>(r.below(4609)) * (r.below(2) ? 1 : -1) | 1);
        fill_block(o, 1, static_cast<int>(r.below(4609)) * (r.below(2) ? 1 : -1) | 1);
        const int base = 100 + static_cast<int>(r.below(20));
        o.sa[ord] = static_cast<uint8_t>(base + d);
        o.sa[1 - ord] = static_cast<uint8_t>(base);
        o.sb[0] = o.sb[1] = 127;
        c.push_back(make_vec(o, kCorner));
      }
    // Exact cancellation: block 1 = -block 0 at the same exponent; and at different exponents.
    for (int t = 0; t < 3; ++t) {
      Operands o;
      const int T = 1 + static_cast<int>(r.below(2000));
      fill_block(o, 0, T << t);
      fill_block(o, 1, -T);
      o.sa[0] = static_cast<uint8_t>(120);
      o.sa[1] = static_cast<uint8_t>(120 + t);
      c.push_back(make_vec(o, kCorner));
    }
    // Subnormal results, ties in the subnormal range, underflow to +0 / -0, and a round-up into
    // the smallest normal: S * 2^X with X = xa + xb - 256 around -150.
    const int tiny[][2] = {{1, -150}, {-1, -150}, {3, -150}, {-3, -150}, {1, -151}, {5, -149},
                           {4095, -138}, {4607, -160}, {-4607, -161}, {2047, -136}, {4095, -137}, {1, -149}};
    for (const auto& tv : tiny) {
      Operands o;
      fill_block(o, 0, tv[0]);
      const int x = tv[1] + 256;  // xa + xb
      o.sa[0] = static_cast<uint8_t>(x / 2);
      o.sb[0] = static_cast<uint8_t>(x - x / 2);
      c.push_back(make_vec(o, kCorner));
    }
    // The jam bit deciding a subnormal tie: S0 = 3 or 5 at X0 = -150 (1.5 / 2.5 units of 2^-149)
    // and S1 = +-1 far below (d > 40): round up / down depends only on the low term's sign.
    for (int t = 0; t < 4; ++t) {
      Operands o;
      fill_block(o, 0, t < 2 ? 3 : 5);
      fill_block(o, 1, (t & 1) ? -1 : 1);
      o.sa[0] = 53;
      o.sb[0] = 53;  // X0 = 106 - 256 = -150
      o.sa[1] = 0;
      o.sb[1] = static_cast<uint8_t>(10 + t);  // X1 = -246 .. -243: d > 90
      c.push_back(make_vec(o, kCorner));
    }
    // Ties at normal results: S0 * 2^X0 + S1 * 2^X1 with the low term exactly half an ulp.
    for (int t = 0; t < 4; ++t) {
      Operands o;
      // S0 has 13 bits at X0 = 11: the result's ulp is 2^(X0 - 11), half of it 2^(X0 - 12).
      fill_block(o, 0, 4097 + 2 * t);
      fill_block(o, 1, (t & 1) ? 1 : -1);
      o.sa[0] = 140;  // X0 = 140 + 127 - 256 = 11
      o.sa[1] = 128;  // X1 = 128 + 127 - 256 = -1 = X0 - 12: a tie
      c.push_back(make_vec(o, kCorner));
    }
    return c;
  }

  Vector random(SplitMix64& r) override {
    const int src = pick_source(r, ctx_, kSources, {0, 2, 3, 2, 2, 1}, kUniform);
    Operands o;
    float x[64];
    switch (src) {
      case kUniform:
        random_e2m1_codes(r, o.ca, o.cb, 64);
        for (int b = 0; b < 2; ++b) {
          o.sa[b] = r.below(64) == 0 ? 0xFF : static_cast<uint8_t>(r.below(255));
          o.sb[b] = r.below(64) == 0 ? 0xFF : static_cast<uint8_t>(r.below(255));
        }
        break;
      case kShaped:
      case kTensor:
        blocks_.fill(r, src == kShaped, x, 64);
        stim::mx_quantize(r, fmt::kE2M1, x, 64, o.ca, o.sa);
        blocks_.fill(r, src == kShaped, x, 64);
        stim::mx_quantize(r, fmt::kE2M1, x, 64, o.cb, o.sb);
        break;
      default: {  // near / tiny: random sparse-ish codes, exponent sums placed on purpose
        const int density = 1 + static_cast<int>(r.below(32));
        for (int k = 0; k < 64; ++k) {
          if (static_cast<int>(r.below(32)) < density) o.ca[k] = static_cast<uint8_t>(r.below(16));
          o.cb[k] = static_cast<uint8_t>(r.below(16));
        }
        const int x0 = src == kTiny ? (r.below(2) ? -175 + static_cast<int>(r.below(50)) : 110 + static_cast<int>(r.below(20)))
                                    : -60 + static_cast<int>(r.below(120));
        const int x1 = x0 + static_cast<int>(r.below(97)) - 48;
        for (int b = 0; b < 2; ++b) {
          const int s = std::clamp((b ? x1 : x0) + 256, 0, 508);
          o.sa[b] = static_cast<uint8_t>(s / 2);
          o.sb[b] = static_cast<uint8_t>(s - s / 2);
        }
        break;
      }
    }
    return make_vec(o, src);
  }

  std::string describe(const Vector& v) const override {
    const Operands o = unpack(v);
    auto one = [](const char* name, const uint8_t* codes, const uint8_t* sc) {
      return e2m1_operand_line(name, "E8M0 scales " + std::to_string(sc[0]) + " " + std::to_string(sc[1]), codes);
    };
    dp::Mxfp4DotStages st;
    const dp::DotResult r = dp::Mxfp4Dot64::compute(o.ca, o.sa, o.cb, o.sb, &st);
    char buf[256];
    std::snprintf(buf, sizeof buf, "model: S = %d %d, X = %d %d, nan=%d, exact %s -> 0x%08x (%a)", st.block_sum[0],
                  st.block_sum[1], st.exp[0], st.exp[1], st.nan ? 1 : 0, r.exact.str().c_str(), st.out_bits,
                  static_cast<double>(fmt::bits_f32(st.out_bits)));
    return one("A", o.ca, o.sa) + one("B", o.cb, o.sb) + buf;
  }

  std::vector<PortField> inputs() const override {
    std::vector<PortField> f = e2m1_code_ports();
    f.push_back({"sa", 512, 16, "2 E8M0 scales of A, block i (elements 32i..32i+31) at [8i+7:8i]"});
    f.push_back({"sb", 528, 16, "2 E8M0 scales of B"});
    return f;
  }
  std::vector<PortField> outputs() const override { return fp32_fields({"out"}); }
  std::string protocol() const override { return kDotProtocol; }

 private:
  ValueBlocks blocks_;
  Fp32ResultBins result_;
  E2m1ElemBins elem_;
  int cov_nan_, cov_xmin_, cov_xmax_, cov_summax_, cov_one_, cov_d_, cov_jam_inexact_, cov_jam_tie_, cov_src_;
};

}  // namespace

std::unique_ptr<Bench> make_mxfp4_dot64_bench(const std::vector<Params>& sets, const BenchContext& ctx,
                                              const std::string& npy) {
  check_stages_only(sets, "mxfp4_dot64", 2, 4);
  return std::unique_ptr<Bench>(new Mxfp4Bench(ctx, npy));
}

}  // namespace hifsim::verif
