// rtl/hifsim_pkg.sv against the C++ model: every constant of the package is parsed from the
// source text and compared with the value the C++ code uses (test cosim.pkg_constants). Also
// checks that each stage width is the smallest that holds the stage's bound, and that the
// cosim word packing of a HiF4 unit is the byte layout (A) of fmt::hif4_pack.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <string>

#include "datapath/aligned_dot.hpp"
#include "datapath/element.hpp"
#include "datapath/fp_add.hpp"
#include "datapath/hif4_dot.hpp"
#include "datapath/mxfp4_dot.hpp"
#include "datapath/mxfp8_dot.hpp"
#include "datapath/nvfp4_dot.hpp"
#include "datapath/residual.hpp"
#include "datapath/sr_quantizer.hpp"
#include "datapath/transpose_buffer.hpp"
#include "formats/bits.hpp"
#include "formats/hif4.hpp"
#include "formats/hif8.hpp"
#include "formats/mx.hpp"
#include "formats/nvfp4.hpp"
#include "formats/stochastic.hpp"
#include "formats/scales.hpp"
#include "gemm/gemm.hpp"
#include "verif/stimulus.hpp"

using namespace hifsim;

namespace {

// NAME -> value of every `localparam <type> NAME = <number>;` in the package (types: int,
// logic [N:0]; numbers: decimal, or sized hex / binary / decimal like 32'h7FC0_0000).
std::map<std::string, long long> parse_package(const std::string& path) {
  std::ifstream f(path);
  EXPECT_TRUE(f.good()) << "cannot open " << path;
  std::map<std::string, long long> m;
  std::string line;
  while (std::getline(f, line)) {
    const size_t lp = line.find("localparam");
    const size_t cm = line.find("//");
    if (lp == std::string::npos || (cm != std::string::npos && cm < lp)) continue;
    const size_t eq = line.find('=', lp), semi = line.find(';', lp);
    EXPECT_TRUE(eq != std::string::npos && semi != std::string::npos && eq < semi) << "cannot parse: " << line;
    if (eq == std::string::npos || semi == std::string::npos || semi < eq) continue;
    std::stringstream lhs(line.substr(lp, eq - lp));
    std::string tok, name;
    while (lhs >> tok) name = tok;  // the last word before '=' is the name
    std::string rhs;
    for (char ch : line.substr(eq + 1, semi - eq - 1))
      if (ch != ' ' && ch != '_') rhs += ch;
    bool neg = false;
    if (!rhs.empty() && rhs[0] == '-') {
      neg = true;
      rhs.erase(0, 1);
    }
    int radix = 10;
    const size_t q = rhs.find('\'');
    if (q != std::string::npos) {
      const char b = static_cast<char>(std::tolower(rhs[q + 1]));
      radix = b == 'h' ? 16 : b == 'b' ? 2 : 10;
      rhs = rhs.substr(q + 2);
    }
    size_t used = 0;
    long long v = 0;
    try {
      v = std::stoll(rhs, &used, radix);
    } catch (const std::exception&) {
      used = 0;
    }
    EXPECT_EQ(used, rhs.size()) << "not a number: " << line;
    EXPECT_EQ(m.count(name), 0u) << "duplicate constant " << name;
    m[name] = neg ? -v : v;
  }
  return m;
}

int signed_width(long long bound) {  // two's complement bits for [-bound, bound]
  int w = 1;
  while ((1LL << (w - 1)) - 1 < bound) ++w;
  return w;
}
int unsigned_width(long long bound) {
  int w = 1;
  while ((1LL << w) - 1 < bound) ++w;
  return w;
}

class PkgConstants : public ::testing::Test {
 protected:
  // HIFSIM_RTL_PKG (environment) overrides the path: used to check that a wrong constant fails.
  static std::string path() {
    const char* e = std::getenv("HIFSIM_RTL_PKG");
    return e && *e ? e : HIFSIM_RTL_PKG;
  }
  static void SetUpTestSuite() { pkg_ = new std::map<std::string, long long>(parse_package(path())); }
  static void TearDownTestSuite() { delete pkg_; }
  static long long get(const std::string& name) {
    const auto it = pkg_->find(name);
    if (it == pkg_->end()) {
      ADD_FAILURE() << "constant " << name << " not found in " << path();
      return -999999;
    }
    return it->second;
  }
  static std::map<std::string, long long>* pkg_;
};
std::map<std::string, long long>* PkgConstants::pkg_ = nullptr;

}  // namespace

TEST_F(PkgConstants, EveryConstantIsChecked) {
  // A constant added to the package must get a check here (the list below).
  const char* checked[] = {"FP32_EXP_BITS", "FP32_MANT_BITS", "FP32_BIAS", "FP32_QNAN", "FP32_POS_INF", "FP32_NEG_ZERO",
                           "HIF4_ELEMS", "HIF4_L2_GROUPS", "HIF4_L3_GROUPS", "HIF4_META_BITS", "HIF4_DATA_BITS",
                           "HIF4_UNIT_BITS", "E6M2_BIAS", "E6M2_NAN", "E6M2_MAX", "HIF4_W_A", "HIF4_W_P", "HIF4_W_GROUP",
                           "HIF4_W_SHIFTED", "HIF4_W_I", "HIF4_W_SS", "HIF4_W_X", "HIF4_W_BIG", "HIF4_EXP_OFFSET",
                           "HIF4_MAX_A", "HIF4_MAX_P", "HIF4_MAX_GROUP", "HIF4_MAX_SHIFTED", "HIF4_MAX_I", "HIF4_MAX_BIG",
                           "HIF4_SS_MIN", "HIF4_SS_MAX", "HIF4_X_MIN", "HIF4_X_MAX",
                           // issue-4 units
                           "E4M3_NAN_MAG", "E8M0_NAN", "E8M0_BIAS", "HIF8_NAN", "HIF8_INF_MAG", "NV_SUBBLOCKS", "NV_W_P",
                           "NV_W_SUB", "NV_W_SS", "NV_W_TT", "NV_W_PARTIAL", "NV_W_ALIGNED", "NV_W_TOTAL", "NV_ALIGN_OFFSET",
                           "NV_LSB_EXP", "NV_MAX_A", "NV_MAX_P", "NV_MAX_SUB", "NV_MAX_SS", "NV_MAX_PARTIAL", "NV_TT_MIN",
                           "NV_TT_MAX", "MX4_W_SUM", "MX4_MAX_SUM", "MX4_W_X", "MX4_EXP_OFFSET", "MX4_X_MIN", "MX4_X_MAX",
                           "MX4_JAM_DIST", "MX8_E4M3_MIN_EXP", "MX8_E5M2_MIN_EXP", "MX8_E4M3_W_SUM", "MX8_E5M2_W_SUM",
                           "MX8_EXP_OFFSET", "HIF8_PROD_BITS", "HIF8_EXACT_W", "BF16_PROD_BITS", "BF16_EXACT_W",
                           "BF16_DEFAULT_W", "SP_SLOTS", "SP_UNIT_BITS", "SP_W_GROUP", "SP_W_SHIFTED", "SP_W_I", "SP_W_BIG",
                           "SP_MAX_GROUP", "SP_MAX_SHIFTED", "SP_MAX_I", "SP_MAX_BIG", "HIF4Q_C7", "HIF4Q_C7_SIG",
                           "HIF4Q_REC_SIG0", "HIF4Q_REC_SIG1", "HIF4Q_REC_SIG2", "HIF4Q_REC_SIG3", "HIF4Q_SF_MIN_EXP",
                           "HIF4Q_SF_MAX",
                           // sr_quantizer
                           "SRQ_LANES", "SRQ_TF_ROUNDS", "SRQ_TF_PARITY", "SRQ_E2M1_SAT", "SRQ_S1P2_SAT", "SRQ_TF_R0",
                           "SRQ_TF_R1", "SRQ_TF_R2", "SRQ_TF_R3", "SRQ_TF_R4", "SRQ_TF_R5", "SRQ_TF_R6", "SRQ_TF_R7",
                           // transpose_buffer
                           "TPB_TILE_MIN", "TPB_TILE_MAX", "TPB_WIDTH_MAX"};
  std::map<std::string, long long> rest = *pkg_;
  for (const char* c : checked) rest.erase(c);
  for (const auto& kv : rest) ADD_FAILURE() << "package constant " << kv.first << " has no C++ check in " << __FILE__;
  EXPECT_GE(pkg_->size(), sizeof(checked) / sizeof(checked[0]));
}

TEST_F(PkgConstants, Fp32) {
  EXPECT_EQ(get("FP32_QNAN"), fmt::kF32QuietNaN);
  EXPECT_EQ(get("FP32_QNAN"), fmt::f32_bits(dp::fp_add(HUGE_VALF, -HUGE_VALF)));
  EXPECT_EQ(get("FP32_POS_INF"), fmt::f32_bits(HUGE_VALF));
  EXPECT_EQ(get("FP32_NEG_ZERO"), fmt::f32_bits(-0.0f));
  EXPECT_EQ(get("FP32_EXP_BITS"), 8);
  EXPECT_EQ(get("FP32_MANT_BITS"), std::numeric_limits<float>::digits - 1);
  EXPECT_EQ(get("FP32_BIAS"), std::numeric_limits<float>::max_exponent - 1);
}

TEST_F(PkgConstants, Hif4Format) {
  EXPECT_EQ(get("HIF4_ELEMS"), fmt::kHif4Block);
  EXPECT_EQ(get("HIF4_UNIT_BITS"), 8 * fmt::kHif4PackedBytes);
  EXPECT_EQ(get("HIF4_META_BITS") + get("HIF4_DATA_BITS"), get("HIF4_UNIT_BITS"));
  EXPECT_EQ(get("HIF4_DATA_BITS"), 4 * fmt::kHif4Block);
  EXPECT_EQ(get("HIF4_L2_GROUPS"), 8 * static_cast<long long>(sizeof(fmt::Hif4Unit::e1_8)));
  EXPECT_EQ(get("HIF4_L3_GROUPS"), 8 * static_cast<long long>(sizeof(fmt::Hif4Unit::e1_16)));
  EXPECT_EQ(get("E6M2_NAN"), fmt::kE6M2NaN);
  EXPECT_EQ(get("E6M2_MAX"), fmt::kE6M2Max);
  // Bias: value(code) = 2^(E - bias) * (1 + M/4); the C++ decoder gives 2^(E-50) * (4+M).
  EXPECT_EQ(fmt::e6m2_decode(static_cast<uint8_t>(get("E6M2_BIAS") << 2)), 1.0f);
  EXPECT_EQ(fmt::e6m2_exp(0) + 2, -get("E6M2_BIAS"));
  EXPECT_EQ(get("HIF4_EXP_OFFSET"), 2 * get("E6M2_BIAS") + 4 + 4);
}

TEST_F(PkgConstants, Hif4StageBoundsAndWidths) {
  using B = dp::Hif4DotBounds;
  EXPECT_EQ(get("HIF4_MAX_A"), B::a);
  EXPECT_EQ(get("HIF4_MAX_P"), B::p);
  EXPECT_EQ(get("HIF4_MAX_GROUP"), B::group);
  EXPECT_EQ(get("HIF4_MAX_SHIFTED"), B::shifted);
  EXPECT_EQ(get("HIF4_MAX_I"), B::i_sum);
  EXPECT_EQ(get("HIF4_MAX_BIG"), B::big);
  EXPECT_EQ(get("HIF4_SS_MIN"), B::scale_prod_min);
  EXPECT_EQ(get("HIF4_SS_MAX"), B::scale_prod_max);
  EXPECT_EQ(get("HIF4_X_MIN"), B::exp_min);
  EXPECT_EQ(get("HIF4_X_MAX"), B::exp_max);
  // Each width is the smallest that holds its bound (docs/datapath.md section 1).
  EXPECT_EQ(get("HIF4_W_A"), 1 + unsigned_width(B::a));  // sign + magnitude
  EXPECT_EQ(get("HIF4_W_P"), signed_width(B::p));
  EXPECT_EQ(get("HIF4_W_GROUP"), signed_width(B::group));
  EXPECT_EQ(get("HIF4_W_SHIFTED"), signed_width(B::shifted));
  EXPECT_EQ(get("HIF4_W_I"), signed_width(B::i_sum));
  EXPECT_EQ(get("HIF4_W_SS"), unsigned_width(B::scale_prod_max));
  EXPECT_EQ(get("HIF4_W_X"), std::max(signed_width(-B::exp_min), signed_width(B::exp_max)));
  EXPECT_EQ(get("HIF4_W_BIG"), signed_width(B::big));
  // The bounds agree with the model's stage values at the documented extreme inputs.
  fmt::Hif4Unit u;
  u.e6m2 = 0xFB;
  u.e1_8 = 0xFF;
  u.e1_16 = 0xFFFF;
  for (auto& n : u.nib) n = 7;
  dp::Hif4DotStages st;
  dp::Hif4Dot64::compute(u, u, &st);
  EXPECT_EQ(st.i_sum, get("HIF4_MAX_I"));
  EXPECT_EQ(st.big, get("HIF4_MAX_BIG"));
  EXPECT_EQ(st.scale_prod, get("HIF4_SS_MAX"));
  u.e6m2 = 0xFE;
  dp::Hif4Dot64::compute(u, u, &st);
  EXPECT_EQ(st.exp, get("HIF4_X_MAX"));
  u.e6m2 = 0x00;
  dp::Hif4Dot64::compute(u, u, &st);
  EXPECT_EQ(st.exp, get("HIF4_X_MIN"));
  EXPECT_EQ(st.scale_prod, get("HIF4_SS_MIN"));
}

TEST_F(PkgConstants, ElementCodes) {
  EXPECT_EQ(dp::decode_e4m3(static_cast<uint8_t>(get("E4M3_NAN_MAG"))).kind, dp::Elem::nan);
  EXPECT_EQ(dp::decode_e4m3(static_cast<uint8_t>(get("E4M3_NAN_MAG") | 0x80)).kind, dp::Elem::nan);
  EXPECT_EQ(get("E4M3_NAN_MAG"), fmt::kE4M3.nan_code);
  EXPECT_EQ(get("E8M0_NAN"), fmt::kE8M0NaN);
  EXPECT_EQ(fmt::e8m0_decode(static_cast<uint8_t>(get("E8M0_BIAS"))), 1.0f);
  EXPECT_EQ(get("HIF8_NAN"), fmt::kHif8NaN);
  EXPECT_EQ(get("HIF8_INF_MAG"), fmt::kHif8PosInf);
}

TEST_F(PkgConstants, Nvfp4) {
  using B = dp::Nvfp4DotBounds;
  EXPECT_EQ(get("NV_SUBBLOCKS"), 64 / fmt::kNvfp4Block);
  EXPECT_EQ(get("NV_MAX_A"), B::a);
  EXPECT_EQ(get("NV_MAX_P"), B::p);
  EXPECT_EQ(get("NV_MAX_SUB"), B::sub);
  EXPECT_EQ(get("NV_MAX_SS"), B::ss);
  EXPECT_EQ(get("NV_MAX_PARTIAL"), B::partial);
  EXPECT_EQ(get("NV_TT_MIN"), B::tt_min);
  EXPECT_EQ(get("NV_TT_MAX"), B::tt_max);
  EXPECT_EQ(get("NV_ALIGN_OFFSET"), -B::tt_min);
  const long long aligned = static_cast<long long>(B::partial) << (B::tt_max - B::tt_min);
  EXPECT_EQ(get("NV_W_P"), signed_width(B::p));
  EXPECT_EQ(get("NV_W_SUB"), signed_width(B::sub));
  EXPECT_EQ(get("NV_W_SS"), unsigned_width(B::ss));
  EXPECT_EQ(get("NV_W_TT"), std::max(signed_width(-B::tt_min), signed_width(B::tt_max)));
  EXPECT_EQ(get("NV_W_PARTIAL"), signed_width(B::partial));
  EXPECT_EQ(get("NV_W_ALIGNED"), signed_width(aligned));
  EXPECT_EQ(get("NV_W_TOTAL"), signed_width(4 * aligned));
  // One quarter-unit product with both scales 2^-9 * 1 (subnormal code 0x01): T = 1 -> 2^LSB.
  uint8_t ca[64] = {}, cb[64] = {}, s1[4] = {1, 1, 1, 1};
  ca[0] = cb[0] = 1;
  EXPECT_EQ(dp::Nvfp4Dot64::compute(ca, s1, cb, s1).value, std::ldexp(1.0f, static_cast<int>(get("NV_LSB_EXP"))));
  // The bounds are reached (all 6.0 codes, scales 0x77 = 15 * 2^4: ss = 225).
  uint8_t cm[64], sm[4] = {0x77, 0x77, 0x77, 0x77};
  for (auto& x : cm) x = 7;
  dp::Nvfp4DotStages st;
  dp::Nvfp4Dot64::compute(cm, sm, cm, sm, &st);
  EXPECT_EQ(st.sub[0], get("NV_MAX_SUB"));
  EXPECT_EQ(st.partial[0], get("NV_MAX_PARTIAL"));
}

TEST_F(PkgConstants, Mx) {
  uint8_t c[64], s[2];
  for (auto& x : c) x = 7;
  dp::Mxfp4DotStages st;
  s[0] = s[1] = 0;
  dp::Mxfp4Dot64::compute(c, s, c, s, &st);
  EXPECT_EQ(st.block_sum[0], get("MX4_MAX_SUM"));
  EXPECT_EQ(st.exp[0], get("MX4_X_MIN"));
  EXPECT_EQ(st.exp[0], 0 + 0 - get("MX4_EXP_OFFSET"));
  s[0] = s[1] = 254;
  dp::Mxfp4Dot64::compute(c, s, c, s, &st);
  EXPECT_EQ(st.exp[0], get("MX4_X_MAX"));
  EXPECT_EQ(get("MX4_W_SUM"), signed_width(get("MX4_MAX_SUM")));
  EXPECT_EQ(get("MX4_W_X"), std::max(signed_width(-get("MX4_X_MIN")), signed_width(get("MX4_X_MAX"))));
  // A low term more than JAM_DIST binades down lies below 2^(Xh-25) (|S| < 2^13), and the jam
  // bit 2^(Xh-JAM_DIST) too: both strictly inside one rounding interval of the result.
  EXPECT_GE(get("MX4_JAM_DIST") + 1, unsigned_width(get("MX4_MAX_SUM")) + 25);
  // MXFP8: the lowest product exponent, the sum width (two's complement, all-max products at
  // the largest shift), the scale offset.
  EXPECT_EQ(get("MX8_E4M3_MIN_EXP"), 2 * dp::decode_e4m3(0x01).exp);
  EXPECT_EQ(get("MX8_E5M2_MIN_EXP"), 2 * dp::decode_e5m2(0x01).exp);
  const dp::Elem m4 = dp::decode_e4m3(fmt::kE4M3.max_finite), m5 = dp::decode_e5m2(fmt::kE5M2.max_finite);
  const long long max4 = 32LL * m4.sig * m4.sig << (2 * m4.exp - get("MX8_E4M3_MIN_EXP"));
  const long double max5 = 32.0L * m5.sig * m5.sig * std::ldexp(1.0L, static_cast<int>(2 * m5.exp - get("MX8_E5M2_MIN_EXP")));
  EXPECT_EQ(get("MX8_E4M3_W_SUM"), signed_width(max4));
  EXPECT_EQ(get("MX8_E5M2_W_SUM"), 2 + static_cast<int>(std::floor(std::log2(max5))));
  uint8_t e[32] = {}, one = 0x38;  // E4M3 1.0
  e[0] = one;
  EXPECT_EQ(dp::Mxfp8Dot32::compute(fmt::kE4M3, e, 127, e, 127).value, 1.0f);
  dp::Mxfp8DotStages st8;
  dp::Mxfp8Dot32::compute(fmt::kE4M3, e, 0, e, 0, &st8);
  EXPECT_EQ(st8.scale_exp, 0 + 0 - get("MX8_EXP_OFFSET"));
}

TEST_F(PkgConstants, AlignedAndSparse) {
  EXPECT_EQ(get("HIF8_PROD_BITS"), dp::kHif8ProductBits);
  EXPECT_EQ(get("HIF8_EXACT_W"), dp::kHif8ExactWidth);
  EXPECT_EQ(get("BF16_PROD_BITS"), dp::kBf16ProductBits);
  EXPECT_EQ(get("BF16_EXACT_W"), dp::kBf16ExactWidth);
  EXPECT_EQ(get("BF16_DEFAULT_W"), dp::default_align(fmt::Format::bf16).width);
  EXPECT_EQ(dp::default_align(fmt::Format::bf16).policy, dp::AlignPolicy::sticky);
  EXPECT_EQ(dp::default_align(fmt::Format::hif8).width, 0);
  using S = dp::SparseDotBounds;
  EXPECT_EQ(get("SP_SLOTS"), 32);
  EXPECT_EQ(get("SP_UNIT_BITS"), 32 + 4 * get("SP_SLOTS") + 2 * get("SP_SLOTS"));
  EXPECT_EQ(get("SP_MAX_GROUP"), S::group);
  EXPECT_EQ(get("SP_MAX_SHIFTED"), S::shifted);
  EXPECT_EQ(get("SP_MAX_I"), S::i_sum);
  EXPECT_EQ(get("SP_MAX_BIG"), S::big);
  EXPECT_EQ(get("SP_W_GROUP"), signed_width(S::group));
  EXPECT_EQ(get("SP_W_SHIFTED"), signed_width(S::shifted));
  EXPECT_EQ(get("SP_W_I"), signed_width(S::i_sum));
  EXPECT_EQ(get("SP_W_BIG"), signed_width(S::big));
}

TEST_F(PkgConstants, Hif4Quantizer) {
  EXPECT_EQ(fmt::bf16_to_float(static_cast<uint16_t>(get("HIF4Q_C7"))), 0.142578125f);
  EXPECT_EQ(fmt::bf16_to_float(static_cast<uint16_t>(get("HIF4Q_C7"))), std::ldexp(static_cast<float>(get("HIF4Q_C7_SIG")), -10));
  const char* rec[4] = {"HIF4Q_REC_SIG0", "HIF4Q_REC_SIG1", "HIF4Q_REC_SIG2", "HIF4Q_REC_SIG3"};
  for (int m = 0; m < 4; ++m) EXPECT_EQ(get(rec[m]), fmt::kHif4RecipSig[m]) << m;
  // The clamp: an all-zero block gets E6M2 0x00 = 2^SF_MIN_EXP, a huge block 0xFE = SF_MAX.
  uint16_t x[64] = {};
  EXPECT_EQ(fmt::e6m2_decode(fmt::hif4_quantize_bf16(x).e6m2), std::ldexp(1.0f, static_cast<int>(get("HIF4Q_SF_MIN_EXP"))));
  x[0] = 0x7F7F;
  EXPECT_EQ(fmt::e6m2_decode(fmt::hif4_quantize_bf16(x).e6m2), static_cast<float>(get("HIF4Q_SF_MAX")));
}

TEST(CosimStimulus, Hif4WordsAreLayoutA) {
  SplitMix64 r(5);
  for (int t = 0; t < 1000; ++t) {
    const fmt::Hif4Unit u = verif::stim::hif4_uniform(r);
    uint8_t bytes[fmt::kHif4PackedBytes];
    fmt::hif4_pack(u, bytes);
    uint32_t w[verif::stim::kHif4Words];
    verif::stim::hif4_to_words(u, w);
    for (int i = 0; i < fmt::kHif4PackedBytes; ++i) ASSERT_EQ(bytes[i], static_cast<uint8_t>(w[i / 4] >> (8 * (i % 4)))) << i;
    ASSERT_TRUE(verif::stim::hif4_from_words(w) == u);
  }
}

// The RTL's parameter checks use the model's range: the ends are accepted, one step past refused.
TEST_F(PkgConstants, TransposeBuffer) {
  const int lo = static_cast<int>(get("TPB_TILE_MIN")), hi = static_cast<int>(get("TPB_TILE_MAX"));
  const int w = static_cast<int>(get("TPB_WIDTH_MAX"));
  EXPECT_NO_THROW(hifsim::dp::TransposeBuffer(lo, w, 0));
  EXPECT_NO_THROW(hifsim::dp::TransposeBuffer(hi, 1, 1));
  EXPECT_THROW(hifsim::dp::TransposeBuffer(lo / 2, w, 0), std::exception);
  EXPECT_THROW(hifsim::dp::TransposeBuffer(2 * hi, w, 0), std::exception);
  EXPECT_THROW(hifsim::dp::TransposeBuffer(lo, w + 1, 0), std::exception);
}

// The generator built from the package's constants gives the model's words (formats/stochastic.hpp).
TEST_F(PkgConstants, SrQuantizer) {
  EXPECT_EQ(get("SRQ_LANES"), hifsim::dp::kSrqLanes);
  EXPECT_EQ(get("SRQ_TF_ROUNDS"), hifsim::fmt::kThreefryRounds);
  EXPECT_EQ(get("SRQ_E2M1_SAT"), hifsim::fmt::f32_bits(8.0f));  // E2M1: above 6 = max, 8 = 2^(emax+1)
  EXPECT_EQ(get("SRQ_S1P2_SAT"), hifsim::fmt::f32_bits(7.0f));  // S1P2: 4|y| >= 7 is code 7
  uint32_t R[8];
  for (int r = 0; r < 8; ++r) R[r] = static_cast<uint32_t>(get("SRQ_TF_R" + std::to_string(r)));
  const uint32_t parity = static_cast<uint32_t>(get("SRQ_TF_PARITY"));
  const uint64_t seeds[3] = {0, 0x0123456789ABCDEFull, ~0ull};
  for (uint64_t seed : seeds)
    for (uint32_t c0 : {0u, 1u, 0xFFFFFFFFu}) {
      const uint32_t k[3] = {static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32),
                             parity ^ static_cast<uint32_t>(seed) ^ static_cast<uint32_t>(seed >> 32)};
      uint32_t x0 = c0 + k[0], x1 = 7u + k[1];
      for (int r = 0; r < 20; ++r) {
        x0 += x1;
        x1 = ((x1 << R[r % 8]) | (x1 >> ((32 - R[r % 8]) & 31))) ^ x0;
        if (r % 4 == 3) {
          const uint32_t i = static_cast<uint32_t>(r + 1) / 4;
          x0 += k[i % 3];
          x1 += k[(i + 1) % 3] + i;
        }
      }
      EXPECT_EQ(x0 | static_cast<uint64_t>(x1) << 32, hifsim::fmt::threefry2x32_20(seed, c0, 7u)) << seed << " " << c0;
    }
}
