// HiF4 (hif4.md): the worked examples of section 9 (data/hif4_examples.txt), the reciprocal
// LUT, edge-case blocks (all zero, tiny, huge, NaN, Inf), ties at every element threshold and
// at the level-2/level-3 thresholds, random blocks against the exact-double transcription of
// section 2 in reference.hpp (both element roundings, both compare modes), the packed layout
// (A) and the tensor-level zero padding.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "formats/bits.hpp"
#include "formats/hif4.hpp"
#include "formats/packed.hpp"
#include "formats/scales.hpp"
#include "formats/tensor.hpp"
#include "reference.hpp"

using namespace hifsim::fmt;

namespace {

struct Example {
  std::string name;
  std::vector<float> input;
  bool rne = false;
  uint8_t e6m2 = 0;
  uint32_t meta = 0;
  std::vector<int> nibbles;
  std::string data;
  std::vector<double> decoded;
};

std::vector<Example> load_examples() {
  std::ifstream f(HIFSIM_TEST_DATA "/hif4_examples.txt");
  std::vector<Example> v;
  std::string line;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (line[0] == '[') {
      v.push_back({});
      v.back().name = line.substr(1, line.size() - 2);
      continue;
    }
    const size_t eq = line.find(" = ");
    const std::string key = line.substr(0, eq), val = line.substr(eq + 3);
    std::stringstream ss(val);
    Example& e = v.back();
    if (key == "input") {
      double d;
      while (ss >> d) e.input.push_back(static_cast<float>(d));
    } else if (key == "rounding") {
      e.rne = val == "rne";
    } else if (key == "e6m2") {
      e.e6m2 = static_cast<uint8_t>(std::stoul(val, nullptr, 16));
    } else if (key == "meta") {
      e.meta = static_cast<uint32_t>(std::stoul(val, nullptr, 16));
    } else if (key == "nibbles") {
      std::string t;
      while (ss >> t) e.nibbles.push_back(static_cast<int>(std::stoul(t, nullptr, 16)));
    } else if (key == "data") {
      e.data = val;
    } else if (key == "decoded") {
      double d;
      while (ss >> d) e.decoded.push_back(d);
    }
  }
  return v;
}

std::string hex(const uint8_t* p, size_t n) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    s += d[p[i] >> 4];
    s += d[p[i] & 15];
  }
  return s;
}

void expect_same(const Hif4Unit& u, const ref::Hif4& r, const std::string& what) {
  EXPECT_EQ(u.e6m2, r.e6m2) << what;
  EXPECT_EQ(u.e1_8, r.e8) << what;
  EXPECT_EQ(u.e1_16, r.e16) << what;
  if (u.e6m2 == 0xFF && r.e6m2 == 0xFF) return;
  for (int k = 0; k < 64; ++k) EXPECT_EQ(u.nib[k], r.nib[k]) << what << " element " << k;
}

Hif4Options opts(bool rne, bool bf16cmp = false) {
  Hif4Options o;
  o.element_rounding = rne ? Rounding::nearest_even : Rounding::nearest_away;
  o.compare = bf16cmp ? Hif4Compare::bf16_rounded : Hif4Compare::exact;
  return o;
}

}  // namespace

TEST(Hif4, WorkedExamplesOfTheSpecification) {
  const auto ex = load_examples();
  ASSERT_EQ(ex.size(), 5u);
  for (const auto& e : ex) {
    ASSERT_EQ(e.input.size(), 64u) << e.name;
    const Hif4Unit u = hif4_quantize(e.input.data(), opts(e.rne));
    EXPECT_EQ(u.e6m2, e.e6m2) << e.name;
    EXPECT_EQ(hif4_meta_word(u), e.meta) << e.name;
    for (int k = 0; k < 64; ++k) EXPECT_EQ(u.nib[k], e.nibbles[k]) << e.name << " nibble " << k;
    uint8_t packed[kHif4PackedBytes];
    hif4_pack(u, packed);
    EXPECT_EQ(hex(packed + 4, 32), e.data) << e.name;
    const uint8_t meta_bytes[4] = {static_cast<uint8_t>(e.meta), static_cast<uint8_t>(e.meta >> 8),
                                   static_cast<uint8_t>(e.meta >> 16), static_cast<uint8_t>(e.meta >> 24)};
    EXPECT_EQ(hex(packed, 4), hex(meta_bytes, 4)) << e.name << " metadata bytes (little-endian word)";
    float out[64];
    hif4_decode(u, out);
    for (int k = 0; k < 64; ++k) {
      EXPECT_EQ(static_cast<double>(out[k]), e.decoded[k]) << e.name << " decoded " << k;
      EXPECT_EQ(std::signbit(out[k]), std::signbit(e.decoded[k])) << e.name << " sign of decoded " << k;
    }
    // The reference transcription agrees with the worked example too.
    ref::Hif4Opts ro;
    ro.rne = e.rne;
    expect_same(u, ref::hif4_quantize(e.input.data(), ro), e.name + " vs reference");
  }
  // Section 9 dot-product check: example 1 . example 4 = 12.5 exactly.
  float a[64], b[64];
  hif4_decode(hif4_quantize(ex[0].input.data()), a);
  hif4_decode(hif4_quantize(ex[4].input.data()), b);
  double dot = 0;
  for (int k = 0; k < 64; ++k) dot += static_cast<double>(a[k]) * b[k];
  EXPECT_EQ(dot, 12.5);
}

TEST(Hif4, ReciprocalLut) {
  // hif4.md 2 step 5: 0x3F80, 0x3F4D, 0x3F2B, 0x3F12 at E = 48; REC = RNE_bf16(1 / value) for
  // every one of the 255 non-NaN codes (the reference divides and rounds; the codec uses the LUT).
  const uint16_t at48[4] = {0x3F80, 0x3F4D, 0x3F2B, 0x3F12};
  for (int m = 0; m < 4; ++m) EXPECT_EQ(f32_bits(hif4_reciprocal(static_cast<uint8_t>((48 << 2) | m))), uint32_t{at48[m]} << 16);
  for (int c = 0; c < 0xFF; ++c) {
    const double want = ref::bf16_round(1.0 / ref::e6m2_value(static_cast<uint8_t>(c)));
    EXPECT_EQ(static_cast<double>(hif4_reciprocal(static_cast<uint8_t>(c))), want) << "code " << c;
  }
}

TEST(Hif4, EdgeCaseBlocks) {
  float x[64] = {};
  // All zero: meta 0, nibbles 0.
  Hif4Unit u = hif4_quantize(x);
  EXPECT_EQ(hif4_meta_word(u), 0u);
  // Tiny: the scale clamps to 2^-48; |x| below 2^-51 flushes to +-0 (0x8 for negative inputs).
  x[0] = 0x1p-60f;
  x[1] = -0x1p-60f;
  x[2] = 0x1p-50f;   // 0.25 * 2^-48 -> m = 1
  x[3] = 0x1p-51f;   // exactly half of 0.25 * 2^-48: ties away -> m = 1 (RNE -> 0)
  x[4] = -0.0f;
  u = hif4_quantize(x);
  EXPECT_EQ(u.e6m2, 0x00);
  EXPECT_EQ(u.nib[0], 0x0);
  EXPECT_EQ(u.nib[1], 0x8);
  EXPECT_EQ(u.nib[2], 0x1);
  EXPECT_EQ(u.nib[3], 0x1);
  EXPECT_EQ(u.nib[4], 0x0);
  EXPECT_EQ(hif4_quantize(x, opts(true)).nib[3], 0x0);
  // Huge: the scale saturates at 0xFE (49152) and elements at 1.75 with both E1 bits set.
  for (int k = 0; k < 64; ++k) x[k] = 0;
  x[7] = -3e38f;
  x[8] = 1e6f;
  u = hif4_quantize(x);
  EXPECT_EQ(u.e6m2, 0xFE);
  EXPECT_EQ(u.nib[7], 0xF);
  EXPECT_EQ(u.e1_8 & 1, 1);
  EXPECT_EQ((u.e1_16 >> 1) & 1, 1);
  float out[64];
  hif4_decode(u, out);
  EXPECT_EQ(out[7], -344064.0f);
  // Inf saturates like a huge value (default) or makes the unit NaN (option).
  x[7] = -INFINITY;
  const Hif4Unit ui = hif4_quantize(x);
  EXPECT_EQ(ui, u);
  Hif4Options inf_nan;
  inf_nan.inf_to_nan = true;
  EXPECT_EQ(hif4_quantize(x, inf_nan).e6m2, 0xFF);
  // NaN anywhere: E6M2 0xFF, all E1 bits 0, all nibbles 0; decodes to 64 NaNs.
  for (int pos : {0, 31, 63}) {
    for (int k = 0; k < 64; ++k) x[k] = 1.0f;
    x[pos] = std::nanf("");
    u = hif4_quantize(x);
    EXPECT_EQ(hif4_meta_word(u), 0xFFu);
    for (int k = 0; k < 64; ++k) EXPECT_EQ(u.nib[k], 0);
    hif4_decode(u, out);
    for (int k = 0; k < 64; ++k) EXPECT_EQ(f32_bits(out[k]), 0x7FC00000u);
  }
  // FP32 inputs are rounded to BF16 first: 1 + 2^-9 (below the BF16 half-ulp) is 1.0.
  for (int k = 0; k < 64; ++k) x[k] = 0;
  x[0] = 7.0f;
  x[1] = 1.0f + 0x1p-9f;
  x[8] = 0.125f + 0x1p-12f;  // (L2 group 1: no E1 bits) rounds to 0.125 in BF16: 4y = 0.5, a tie
  EXPECT_EQ(hif4_quantize(x).nib[8], 0x1);           // away -> 1
  EXPECT_EQ(hif4_quantize(x, opts(true)).nib[8], 0x0);  // even -> 0 (without the BF16 step: 1)
}

TEST(Hif4, ElementThresholdTies) {
  // Scale 1.0 (x[0] = 7 gives E6M2 0xC0, REC = 1) and no E1 bits in groups 1..7 (values < 2):
  // element k sits exactly on the tie m + 1/2 (in units of 1/4), and one BF16 ulp either side.
  for (bool rne : {false, true}) {
    for (int m = 0; m < 8; ++m) {
      const double tie = (m + 0.5) / 4.0;
      for (int side = -1; side <= 1; ++side) {
        float x[64] = {};
        x[0] = 7.0f;
        const uint32_t b = ref::bits(static_cast<float>(tie)) + static_cast<uint32_t>(side * 0x10000);  // +-1 BF16 ulp
        x[8] = bits_f32(b);
        x[9] = -bits_f32(b);
        const Hif4Unit u = hif4_quantize(x, opts(rne));
        ref::Hif4Opts ro;
        ro.rne = rne;
        expect_same(u, ref::hif4_quantize(x, ro), "tie m=" + std::to_string(m) + " side " + std::to_string(side));
        if (side == 0 && tie < 2.0) {
          const int want = rne ? (m % 2 == 0 ? m : m + 1) : m + 1;
          EXPECT_EQ(u.nib[8], std::min(want, 7)) << "m " << m << (rne ? " rne" : " away");
          EXPECT_EQ(u.nib[9], 8 | std::min(want, 7));
        }
      }
    }
  }
}

TEST(Hif4, Level2AndLevel3ThresholdTies) {
  // REC = 1 (x[0] = 7 gives E6M2 0xC0): the level-2 bit of group 1 flips exactly at V8 = 4,
  // the level-3 bit at V16 = 2, or at V16 = 4 when the level-2 bit is set. Both compares are >=.
  for (double v : {4.0, 4.0 - 1.0 / 64, 2.0, 2.0 - 1.0 / 128, 6.5}) {
    float x[64] = {};
    x[0] = 7.0f;
    x[8] = static_cast<float>(v);  // alone in L2 group 1 / L3 group 2
    Hif4Unit u = hif4_quantize(x);
    expect_same(u, ref::hif4_quantize(x), "V=" + std::to_string(v));
    EXPECT_EQ((u.e1_8 >> 1) & 1, v >= 4.0 ? 1 : 0) << v;
    EXPECT_EQ((u.e1_16 >> 2) & 1, v >= 2.0 ? 1 : 0) << v;
    // L2 group 1 forced on by x[8] = 6.5; L3 group 3 (x[12]) then needs V16 >= 4.
    x[8] = 6.5f;
    x[12] = static_cast<float>(v);
    u = hif4_quantize(x);
    expect_same(u, ref::hif4_quantize(x), "L3 with L2 set, V=" + std::to_string(v));
    EXPECT_EQ((u.e1_8 >> 1) & 1, 1);
    EXPECT_EQ((u.e1_16 >> 3) & 1, v >= 4.0 ? 1 : 0) << v;
  }
  // Exact vs BF16-rounded compare ("A6 golden" mode): x[0] = 12 gives SF = 1.7109375 -> E6M2
  // 0xC3 (1.75), REC = 146/256 = 0.5703125. V8 = 7 gives the exact product 3.9921875 = 4 - 2^-7,
  // below 4 (bit 0), which BF16 rounding (a tie, to even) lifts to 4 (bit 1).
  float x[64] = {};
  x[0] = 12.0f;
  x[8] = 7.0f;
  const Hif4Unit exact = hif4_quantize(x, opts(false, false));
  const Hif4Unit a6 = hif4_quantize(x, opts(false, true));
  EXPECT_EQ(exact.e6m2, 0xC3);
  EXPECT_EQ((exact.e1_8 >> 1) & 1, 0);
  EXPECT_EQ((a6.e1_8 >> 1) & 1, 1);
  ref::Hif4Opts ro;
  ro.bf16_compare = true;
  expect_same(a6, ref::hif4_quantize(x, ro), "bf16 compare");
  expect_same(exact, ref::hif4_quantize(x), "exact compare");
}

TEST(Hif4, ScaleTiesAndCarries) {
  // E6M2 ties to even: Vmax*C7 -> BF16 -> t = 4.5 (even 4) / 5.5 (even 6) / 7.5 (carry to 8 -> 4, e+1).
  // Find inputs by scanning BF16 Vmax values and check every block against the reference.
  int ties = 0;
  for (uint32_t h = 0x3F80; h < 0x4400; ++h) {
    float x[64] = {};
    x[0] = bits_f32(h << 16);
    const double sf = ref::bf16_round(static_cast<double>(x[0]) * 0.142578125);
    int e;
    const double fr = std::frexp(sf, &e);
    const double t = fr * 8;  // in [4, 8)
    if (t != std::floor(t) && t * 2 == std::floor(t * 2)) ++ties;
    expect_same(hif4_quantize(x), ref::hif4_quantize(x), "vmax bf16 0x" + std::to_string(h));
  }
  EXPECT_GT(ties, 10);
}

TEST(Hif4, RandomBlocksAgainstReference) {
  // Blocks with a random overall scale 2^-60..2^40, 5% outliers, random zeros, both roundings
  // and both compare modes: 20,000 blocks x 4 configurations (1.3 x 10^6 elements each).
  ref::Gen g(ref::test_seed() + 100);
  const size_t nblocks = ref::scaled(20000);
  int failures = 0;
  for (size_t b = 0; b < nblocks; ++b) {
    float x[64];
    const int scale = static_cast<int>(g.next() % 101) - 60;
    for (int k = 0; k < 64; ++k) {
      const double u = g.uniform() * 2 - 1;
      double v = std::ldexp(u, scale);
      if (g.next() % 20 == 0) v *= 1 + g.uniform() * 60;
      if (g.next() % 16 == 0) v = 0;
      if (g.next() % 64 == 0) v = std::ldexp(static_cast<double>(g.next() % 16), scale - 4);  // exact quarters
      x[k] = static_cast<float>(v);
    }
    for (int cfg = 0; cfg < 4; ++cfg) {
      const Hif4Unit u = hif4_quantize(x, opts(cfg & 1, cfg & 2));
      ref::Hif4Opts ro;
      ro.rne = cfg & 1;
      ro.bf16_compare = cfg & 2;
      const ref::Hif4 r = ref::hif4_quantize(x, ro);
      bool same = u.e6m2 == r.e6m2 && u.e1_8 == r.e8 && u.e1_16 == r.e16 && std::memcmp(u.nib, r.nib, 64) == 0;
      if (!same && failures++ < 3) expect_same(u, r, "random block " + std::to_string(b) + " cfg " + std::to_string(cfg));
      // Decode agrees with the reference decode.
      float out[64];
      hif4_decode(u, out);
      for (int k = 0; k < 64; ++k)
        if (static_cast<double>(out[k]) != ref::hif4_value(r, k) && failures++ < 3)
          ADD_FAILURE() << "decode block " << b << " element " << k;
    }
  }
  EXPECT_EQ(failures, 0) << ref::seed_note();
}

TEST(Hif4, PackedLayoutRoundTrip) {
  ref::Gen g(ref::test_seed() + 101);
  for (int i = 0; i < 10000; ++i) {
    Hif4Unit u;
    u.e6m2 = static_cast<uint8_t>(g.next());
    u.e1_8 = static_cast<uint8_t>(g.next());
    u.e1_16 = static_cast<uint16_t>(g.next());
    for (auto& n : u.nib) n = static_cast<uint8_t>(g.next() & 15);
    uint8_t p[kHif4PackedBytes];
    hif4_pack(u, p);
    EXPECT_EQ(hif4_unpack(p), u);
    // Layout (A): byte 0 E6M2, byte 1 E1_8 LSB = group 0, bytes 2-3 E1_16 little-endian,
    // element 2i in the low nibble of byte 4 + i.
    EXPECT_EQ(p[0], u.e6m2);
    EXPECT_EQ(p[1], u.e1_8);
    EXPECT_EQ(p[2] | (p[3] << 8), u.e1_16);
    for (int k = 0; k < 64; ++k) EXPECT_EQ((p[4 + k / 2] >> (4 * (k & 1))) & 15, u.nib[k]);
  }
}

TEST(Hif4, TensorPaddingAndPackedContainer) {
  // A last axis of 100 is padded to 128 with zeros: the second unit sees 36 values and 28 zeros.
  const size_t rows = 3, cols = 100;
  std::vector<float> x(rows * cols);
  ref::Gen g(ref::test_seed() + 102);
  for (auto& v : x) v = static_cast<float>(g.uniform() * 8 - 4);
  const QTensor q = quantize(Format::hif4, x.data(), rows, cols);
  EXPECT_EQ(q.padded_cols, 128u);
  for (size_t r = 0; r < rows; ++r) {
    float blk[64] = {};
    std::memcpy(blk, x.data() + r * cols + 64, 36 * sizeof(float));
    EXPECT_EQ(q.hif4_unit(r, 1), hif4_quantize(blk));
  }
  const std::vector<float> y = dequantize(q);
  EXPECT_EQ(y.size(), rows * cols);
  const std::string packed = pack_tensor(q);
  const QTensor back = unpack_tensor(packed, "test");
  EXPECT_EQ(back.codes, q.codes);
  EXPECT_EQ(back.scales, q.scales);
  EXPECT_EQ(back.l2, q.l2);
  EXPECT_EQ(back.l3, q.l3);
  EXPECT_EQ(dequantize(back), y);
}
