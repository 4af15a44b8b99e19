// The NVFP4 dot unit's bench (rtl/nvfp4_dot64.sv, hifsim::dp::Nvfp4Dot64): generator, checker and
// coverage of model/verif/bench.hpp.
//
// Vector: 18 words: A's 64 E2M1 codes (words 0..7, element k at bit 4k), B's codes (8..15),
// A's 4 E4M3 scales (word 16, sub-block j at bit 8j), B's scales (word 17) -- the unit's ports
// a, b, sa, sb in that order. Output: the FP32 result.
// Sources: corner (directed), uniform (every code uniform, scales with a class mix including
// NaN and negative codes), shaped (value-shaped blocks with outliers through the real NVFP4
// quantizer, TE or torchao recipe), tensor (blocks of a real .npy tensor, quantized), sparse
// (a few nonzero elements with random scales: alignment shifts, cancellation, ties).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "datapath/element.hpp"
#include "datapath/nvfp4_dot.hpp"
#include "formats/bits.hpp"
#include "verif/bench.hpp"
#include "verif/bins.hpp"
#include "verif/stimulus.hpp"
#include "verif/units.hpp"

namespace hifsim::verif {
namespace {


enum Source { kCorner, kUniform, kShaped, kTensor, kSparse };
const std::vector<std::string> kSources = {"corner", "uniform", "shaped", "tensor", "sparse"};
constexpr int kWords = 18;

struct Operands {
  uint8_t ca[64] = {}, cb[64] = {}, sa[4] = {}, sb[4] = {};
};

Vector make_vec(const Operands& o, int source) {
  Vector v;
  v.w.assign(kWords, 0);
  stim::pack_codes(o.ca, 64, 4, v.w.data());
  stim::pack_codes(o.cb, 64, 4, v.w.data() + 8);
  for (int j = 0; j < 4; ++j) {
    v.w[16] |= static_cast<uint32_t>(o.sa[j]) << (8 * j);
    v.w[17] |= static_cast<uint32_t>(o.sb[j]) << (8 * j);
  }
  v.source = source;
  return v;
}

Operands unpack(const Vector& v) {
  Operands o;
  stim::unpack_codes(v.w.data(), 64, 4, o.ca);
  stim::unpack_codes(v.w.data() + 8, 64, 4, o.cb);
  for (int j = 0; j < 4; ++j) {
    o.sa[j] = static_cast<uint8_t>(v.w[16] >> (8 * j));
    o.sb[j] = static_cast<uint8_t>(v.w[17] >> (8 * j));
  }
  return o;
}

// An E4M3 code with exponent t (-9..5) and significand sig (normal 8..15 at t >= -9; at t = -9
// a sig < 8 gives the subnormal code).
uint8_t e4m3_code(int t, int sig) {
  if (sig < 8) return static_cast<uint8_t>(sig);  // subnormal, t = -9
  return static_cast<uint8_t>(((t + 10) << 3) | (sig - 8));
}

class Nvfp4Bench : public BenchBase {
 public:
  Nvfp4Bench(const BenchContext& ctx, const std::string& npy) : BenchBase(ctx, kSources), blocks_(ctx, npy) {
    Coverage& c = cov();
    cov_nan_ = c.declare_group("nan.", {"scale_a_only", "scale_b_only", "both"});
    cov_negscale_ = c.declare("scale.negative_code");
    cov_subscale_ = c.declare("scale.subnormal_code");
    cov_zeroscale_ = c.declare("scale.zero_code");
    cov_shift_ = c.declare_each(29, [](int sh) { return "shift." + std::to_string(sh); });
    cov_ssmax_ = c.declare("ss.max_225");
    cov_ttmin_ = c.declare("tt.min_-18");
    cov_ttmax_ = c.declare("tt.max_10");
    cov_submax_ = c.declare("sub.max_magnitude_2304");
    cov_partmax_ = c.declare("partial.max_magnitude_518400");
    cov_zero_ = c.declare("result.zero");
    cov_cancel_ = c.declare("result.zero_with_nonzero_partials");
    cov_pos_ = c.declare("result.positive");
    cov_neg_ = c.declare("result.negative");
    cov_exact_ = c.declare("round.exact");
    cov_inexact_ = c.declare("round.inexact");
    cov_tie_down_ = c.declare("round.tie_to_even_down");
    cov_tie_up_ = c.declare("round.tie_to_even_up");
    cov_carry_ = c.declare("round.carry_into_exponent");
    elem_.declare(c);
    cov_src_ = c.declare_group("source.", kSources, false);
  }


  void golden(const Vector& v, uint32_t* out) override {
    const Operands o = unpack(v);
    dp::Nvfp4DotStages st;
    const dp::DotResult r = dp::Nvfp4Dot64::compute(o.ca, o.sa, o.cb, o.sb, &st);
    out[0] = st.out_bits;
    Coverage& c = cov();
    c.hit(cov_src_ + v.source);
    bool nan_a = false, nan_b = false;
    for (int j = 0; j < 4; ++j) {
      nan_a |= (o.sa[j] & 0x7F) == 0x7F;
      nan_b |= (o.sb[j] & 0x7F) == 0x7F;
    }
    if (nan_a || nan_b) c.hit(cov_nan_ + (nan_a && nan_b ? 2 : nan_a ? 0 : 1));
    if (st.nan) return;
    bool any_part = false;
    for (int j = 0; j < 4; ++j) {
      for (const uint8_t sc : {o.sa[j], o.sb[j]}) {
        if ((sc & 0x78) == 0 && (sc & 7)) c.hit(cov_subscale_);
        if ((sc & 0x7F) == 0) c.hit(cov_zeroscale_);
      }
      if (st.sub[j] && ((o.sa[j] | o.sb[j]) & 0x80)) c.hit(cov_negscale_);
      if (st.partial[j]) {
        any_part = true;
        c.hit(cov_shift_ + st.tt[j] + 18);
      }
      if (st.ss[j] == dp::Nvfp4DotBounds::ss) c.hit(cov_ssmax_);
      if (st.ss[j] && st.tt[j] == dp::Nvfp4DotBounds::tt_min) c.hit(cov_ttmin_);
      if (st.ss[j] && st.tt[j] == dp::Nvfp4DotBounds::tt_max) c.hit(cov_ttmax_);
      if (std::abs(st.sub[j]) == dp::Nvfp4DotBounds::sub) c.hit(cov_submax_);
      if (std::abs(st.partial[j]) == dp::Nvfp4DotBounds::partial) c.hit(cov_partmax_);
    }
    elem_.count(c, o.ca, o.cb, st.p, 64);
    if (st.total == 0) {
      c.hit(cov_zero_);
      if (any_part) c.hit(cov_cancel_);
      return;
    }
    c.hit(st.total > 0 ? cov_pos_ : cov_neg_);
    const stim::RoundClass rc = stim::classify_fp32_round(r.exact);
    c.hit(rc.exact ? cov_exact_ : cov_inexact_);
    if (rc.tie) c.hit(rc.up ? cov_tie_up_ : cov_tie_down_);
    if (rc.carry) c.hit(cov_carry_);
  }

  std::vector<Vector> corners() override {
    std::vector<Vector> c;
    SplitMix64 r(0x4EF4);
    Operands z;
    c.push_back(make_vec(z, kCorner));
    // Maxima: every element 6.0 (code 7) with all sign combinations; ss = 225 (0x77); tt = 10
    // (both scales 2^5 * 1.75 = 0x7E); tt = -18 (subnormal scales); negative scale codes.
    const uint8_t scale_pairs[][2] = {{0x77, 0x77}, {0x7E, 0x7E}, {0x01, 0x01}, {0x07, 0x07}, {0xF7, 0x77}, {0x77, 0xFE}};
    for (const auto& sp : scale_pairs)
      for (int sgn = 0; sgn < 4; ++sgn) {
        Operands o;
        for (int k = 0; k < 64; ++k) {
          o.ca[k] = static_cast<uint8_t>(7 | ((sgn & 1) << 3));
          o.cb[k] = static_cast<uint8_t>(7 | ((sgn >> 1) << 3));
        }
        for (int j = 0; j < 4; ++j) {
          o.sa[j] = sp[0];
          o.sb[j] = sp[1];
        }
        c.push_back(make_vec(o, kCorner));
      }
    // NaN scales at each sub-block, on A, B or both, with zero and nonzero elements.
    for (int j = 0; j < 4; ++j)
      for (int which = 0; which < 3; ++which) {
        Operands o;
        random_e2m1_codes(r, o.ca, o.cb, 64);
        for (int i = 0; i < 4; ++i) {
          o.sa[i] = static_cast<uint8_t>(0x38 + r.below(8));
          o.sb[i] = static_cast<uint8_t>(0x38 + r.below(8));
        }
        if (which != 1) o.sa[j] = (j & 1) ? 0xFF : 0x7F;
        if (which != 0) o.sb[j] = (j & 1) ? 0x7F : 0xFF;
        c.push_back(make_vec(o, kCorner));
      }
    // Every alignment shift tt + 18 = 0..28 on each sub-block: one product 1 (0.5 x 0.5) with
    // scales sig 1 / 8 placed at exponents tA + tB = sh - 18.
    for (int sh = 0; sh <= 28; ++sh) {
      Operands o;
      const int j = sh % 4;
      const int ta = std::min(5, sh - 9), tb = sh - 18 - ta;
      o.sa[j] = e4m3_code(ta, ta == -9 ? 1 : 8 + static_cast<int>(r.below(8)));
      o.sb[j] = e4m3_code(tb, tb == -9 ? 1 : 8 + static_cast<int>(r.below(8)));
      o.ca[16 * j + static_cast<int>(r.below(16))] = static_cast<uint8_t>(1 + r.below(7));
      o.cb[16 * j] = 1;
      o.ca[16 * j] = static_cast<uint8_t>(1 + r.below(7));
      c.push_back(make_vec(o, kCorner));
    }
    // Ties and a carry at the rounding point. Sub-block 1: one product (0.5 or 1.0) x 0.5 with
    // both scales 2^5 * 1.0 (ss = 64, shift 28): 2^34 or 2^35. Sub-block 0: 16 products with both
    // scales 2^-9 * 1.0 (ss = 64, shift 0): 16 x 64 = 2^10. T = 2^34 + 2^10 is a tie (kept LSB
    // 2^11, even: down), 2^34 + 3 * 2^10 a tie rounding up (odd), 2^34 + 17 * 64 above half,
    // 2^35 - 2^10 a tie whose round-up carries into 2^35.
    for (int t = 0; t < 4; ++t) {
      Operands o;
      o.sa[1] = o.sb[1] = e4m3_code(5, 8);
      o.sa[0] = o.sb[0] = e4m3_code(-9, 8);
      o.ca[16] = t == 3 ? 2 : 1;
      o.cb[16] = 1;
      for (int k = 0; k < 16; ++k) {
        o.ca[k] = t == 1 ? 3 : 1;
        o.cb[k] = t == 3 ? 9 : 1;
      }
      if (t == 2) o.ca[0] = 2;
      c.push_back(make_vec(o, kCorner));
    }
    // Exact cancellation across sub-blocks: +x in sub-block 0, -x in sub-block 3.
    for (int t = 0; t < 4; ++t) {
      Operands o;
      o.sa[0] = o.sa[3] = static_cast<uint8_t>(0x30 + r.below(0x40));
      o.sb[0] = o.sb[3] = static_cast<uint8_t>(0x30 + r.below(0x40));
      for (int k = 0; k < 16; ++k) {
        o.ca[k] = static_cast<uint8_t>(r.below(8));
        o.cb[k] = static_cast<uint8_t>(r.below(16));
        o.ca[48 + k] = static_cast<uint8_t>(o.ca[k] | 8);
        o.cb[48 + k] = o.cb[k];
      }
      c.push_back(make_vec(o, kCorner));
    }
    // -0 element codes and every E4M3 scale code on each side.
    for (int side = 0; side < 2; ++side)
      for (int code = 0; code < 256; ++code) {
        Operands o;
        random_e2m1_codes(r, o.ca, o.cb, 64);
        for (int j = 0; j < 4; ++j) {
          (side ? o.sb : o.sa)[j] = static_cast<uint8_t>(code);
          (side ? o.sa : o.sb)[j] = static_cast<uint8_t>(r.below(0x7F));
        }
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
        random_e2m1_codes(r, o.ca, o.cb, 64);
        for (int j = 0; j < 4; ++j) {
          o.sa[j] = r.below(20) == 0 ? stim::e4m3_mixed(r) : static_cast<uint8_t>(r.below(0x7F));
          o.sb[j] = r.below(20) == 0 ? stim::e4m3_mixed(r) : static_cast<uint8_t>(r.below(0x7F));
        }
        break;
      case kShaped:
      case kTensor:
        blocks_.fill(r, src == kShaped, x, 64);
        stim::nvfp4_quantize64(r, x, o.ca, o.sa);
        blocks_.fill(r, src == kShaped, x, 64);
        stim::nvfp4_quantize64(r, x, o.cb, o.sb);
        break;
      default: {  // sparse: 1..6 nonzero products, random scales over the whole range
        const int n = 1 + static_cast<int>(r.below(6));
        for (int i = 0; i < n; ++i) {
          const int k = static_cast<int>(r.below(64));
          o.ca[k] = static_cast<uint8_t>(1 + r.below(15));
          o.cb[k] = static_cast<uint8_t>(1 + r.below(15));
          if ((o.ca[k] & 7) == 0) o.ca[k] |= 1;
          if ((o.cb[k] & 7) == 0) o.cb[k] |= 1;
        }
        for (int j = 0; j < 4; ++j) {
          o.sa[j] = static_cast<uint8_t>(1 + r.below(0x7E));
          o.sb[j] = static_cast<uint8_t>(1 + r.below(0x7E));
        }
        break;
      }
    }
    return make_vec(o, src);
  }

  std::string describe(const Vector& v) const override {
    const Operands o = unpack(v);
    auto one = [](const char* name, const uint8_t* codes, const uint8_t* sc) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "E4M3 scales 0x%02x 0x%02x 0x%02x 0x%02x", sc[0], sc[1], sc[2], sc[3]);
      return e2m1_operand_line(name, buf, codes);
    };
    dp::Nvfp4DotStages st;
    dp::Nvfp4Dot64::compute(o.ca, o.sa, o.cb, o.sb, &st);
    char buf[320];
    std::snprintf(buf, sizeof buf, "model: S = %d %d %d %d, ss = %u %u %u %u, tt = %d %d %d %d, T = %lld, nan=%d -> 0x%08x (%a)",
                  st.sub[0], st.sub[1], st.sub[2], st.sub[3], st.ss[0], st.ss[1], st.ss[2], st.ss[3], st.tt[0], st.tt[1],
                  st.tt[2], st.tt[3], static_cast<long long>(st.total), st.nan ? 1 : 0, st.out_bits,
                  static_cast<double>(fmt::bits_f32(st.out_bits)));
    return one("A", o.ca, o.sa) + one("B", o.cb, o.sb) + buf;
  }

  std::vector<PortField> inputs() const override {
    std::vector<PortField> f = e2m1_code_ports();
    f.push_back({"sa", 512, 32, "4 E4M3 scales of A, sub-block j (elements 16j..16j+15) at [8j+7:8j]"});
    f.push_back({"sb", 544, 32, "4 E4M3 scales of B"});
    return f;
  }
  std::vector<PortField> outputs() const override { return fp32_fields({"out"}); }
  std::string protocol() const override { return kDotProtocol; }

 private:
  ValueBlocks blocks_;
  E2m1ElemBins elem_;
  int cov_nan_, cov_negscale_, cov_subscale_, cov_zeroscale_, cov_shift_, cov_ssmax_, cov_ttmin_, cov_ttmax_;
  int cov_submax_, cov_partmax_, cov_zero_, cov_cancel_, cov_pos_, cov_neg_, cov_exact_, cov_inexact_;
  int cov_tie_down_, cov_tie_up_, cov_carry_, cov_src_;
};

}  // namespace

std::unique_ptr<Bench> make_nvfp4_dot64_bench(const std::vector<Params>& sets, const BenchContext& ctx,
                                              const std::string& npy) {
  check_stages_only(sets, "nvfp4_dot64", 3, 5);
  return std::unique_ptr<Bench>(new Nvfp4Bench(ctx, npy));
}

}  // namespace hifsim::verif
