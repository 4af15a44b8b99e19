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

#include "common/stimulus.hpp"
#include "datapath/fp_add.hpp"
#include "datapath/hif4_dot.hpp"
#include "formats/bits.hpp"
#include "formats/hif4.hpp"
#include "formats/scales.hpp"

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
                           "HIF4_SS_MIN", "HIF4_SS_MAX", "HIF4_X_MIN", "HIF4_X_MAX"};
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

TEST(CosimStimulus, Hif4WordsAreLayoutA) {
  SplitMix64 r(5);
  for (int t = 0; t < 1000; ++t) {
    const fmt::Hif4Unit u = cosim::stim::hif4_uniform(r);
    uint8_t bytes[fmt::kHif4PackedBytes];
    fmt::hif4_pack(u, bytes);
    uint32_t w[cosim::stim::kHif4Words];
    cosim::stim::hif4_to_words(u, w);
    for (int i = 0; i < fmt::kHif4PackedBytes; ++i) ASSERT_EQ(bytes[i], static_cast<uint8_t>(w[i / 4] >> (8 * (i % 4)))) << i;
    ASSERT_TRUE(cosim::stim::hif4_from_words(w) == u);
  }
}
