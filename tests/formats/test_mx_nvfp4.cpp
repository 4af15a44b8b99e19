// OCP MX (mxfp4, mxfp8-e4m3, mxfp8-e5m2) and NVFP4 (TE and torchao recipes) against the
// references: MX blocks from reference.hpp (exact doubles, enumerated element grids), NVFP4
// transcribed here from mx-nvfp4-fp8.md 4.2 / 4.3 in FP32 with the reference element encoders.
#include <gtest/gtest.h>

#include <cfloat>

#include "formats/bits.hpp"
#include "formats/minifloat.hpp"
#include "formats/mx.hpp"
#include "formats/nvfp4.hpp"
#include "formats/tensor.hpp"
#include "reference.hpp"
#include "util/error.hpp"

using namespace hifsim::fmt;

namespace {

struct Elem {
  const MiniFloatSpec* spec;
  const ref::Mini* r;
};
const Elem kElems[] = {{&kE2M1, &ref::kE2M1}, {&kE4M3, &ref::kE4M3}, {&kE5M2, &ref::kE5M2}};

void random_block(ref::Gen& g, float* x, int n) {
  const int scale = static_cast<int>(g.next() % 240) - 130;
  for (int i = 0; i < n; ++i) {
    double v = std::ldexp(g.uniform() * 2 - 1, scale);
    if (g.next() % 16 == 0) v = 0;
    if (g.next() % 32 == 0) v = -0.0;
    if (g.next() % 16 == 0) v *= 8;  // push past the element maximum
    x[i] = static_cast<float>(v);
  }
}

// NVFP4 reference, transcribed from the recipes in FP32 (the recipes are defined in FP32).
struct NvRef {
  uint8_t scale;
  uint8_t codes[16];
};
float e4m3_val(uint8_t c) { return static_cast<float>(ref::mini_decode(ref::kE4M3, c)); }
NvRef nv_te(const float* x, int n, float s_enc, float s_dec) {
  NvRef r{};
  float bmax = 0;
  for (int i = 0; i < n; ++i) bmax = std::max(bmax, std::fabs(x[i]));
  const float sf = std::min(bmax * (s_enc * (1.0f / 6.0f)), FLT_MAX);
  r.scale = ref::mini_encode(ref::kE4M3, sf, ref::Mode::rne, true);
  const float enc = std::min(1.0f / (e4m3_val(r.scale) * s_dec), FLT_MAX);
  for (int i = 0; i < n; ++i) r.codes[i] = ref::mini_encode(ref::kE2M1, x[i] * enc, ref::Mode::rne, true);
  return r;
}
NvRef nv_torchao(const float* x, int n, float pts) {
  NvRef r{};
  float bmax = 0;
  for (int i = 0; i < n; ++i) bmax = std::max(bmax, std::fabs(x[i]));
  const float s = std::min(std::max((bmax / 6.0f) / pts, 0x1p-9f), 448.0f);
  r.scale = ref::mini_encode(ref::kE4M3, s, ref::Mode::rne, true);
  const float total = pts * e4m3_val(r.scale);
  for (int i = 0; i < n; ++i)
    r.codes[i] = ref::mini_encode(ref::kE2M1, std::min(std::max(x[i] / total, -6.0f), 6.0f), ref::Mode::rne, true);
  return r;
}

}  // namespace

TEST(Mx, RandomBlocksAgainstReference) {
  ref::Gen g(ref::test_seed() + 200);
  const size_t nblocks = ref::scaled(20000);
  int failures = 0;
  for (const Elem& e : kElems) {
    for (Rounding r : {Rounding::nearest_even, Rounding::nearest_away}) {
      for (MxScaleRule rule : {MxScaleRule::floor, MxScaleRule::ceil}) {
        for (size_t b = 0; b < nblocks / 4; ++b) {
          float x[32];
          const int n = b % 7 == 0 ? 1 + static_cast<int>(g.next() % 32) : 32;
          random_block(g, x, n);
          MxOptions o;
          o.rounding = r;
          o.scale_rule = rule;
          uint8_t codes[32], scale;
          mx_quantize_block(*e.spec, x, static_cast<size_t>(n), o, codes, scale);
          const ref::MxBlock want = ref::mx_quantize(*e.r, x, n,
                                                     r == Rounding::nearest_even ? ref::Mode::rne : ref::Mode::away,
                                                     rule == MxScaleRule::ceil);
          bool ok = scale == want.scale;
          for (int i = 0; i < n; ++i) {
            ok = ok && codes[i] == want.codes[i];
            const float v = mx_dequantize(*e.spec, codes[i], scale);
            const double w = ref::mx_value(*e.r, want, i);
            ok = ok && (std::isnan(w) ? std::isnan(v) : static_cast<double>(v) == w && std::signbit(v) == std::signbit(w));
          }
          for (int i = n; i < 32; ++i) ok = ok && codes[i] == 0;
          if (!ok && failures++ < 5)
            ADD_FAILURE() << e.spec->name << " " << rounding_name(r) << " rule " << int(rule) << " block " << b
                          << ": scale " << int(scale) << " want " << int(want.scale) << "; " << ref::seed_note();
        }
      }
    }
  }
  EXPECT_EQ(failures, 0);
}

TEST(Mx, EdgeCases) {
  float x[32] = {};
  uint8_t codes[32], scale;
  // All zero: shared exponent -127 (microxcaling's 2^-126 substitution, clamped), codes +0/-0.
  x[3] = -0.0f;
  mx_quantize_block(kE2M1, x, 32, {}, codes, scale);
  EXPECT_EQ(scale, 0);
  EXPECT_EQ(codes[3], 0x8);
  // NaN or Inf anywhere: NaN scale, codes 0, dequantized NaN.
  x[5] = INFINITY;
  mx_quantize_block(kE4M3, x, 32, {}, codes, scale);
  EXPECT_EQ(scale, 0xFF);
  EXPECT_TRUE(std::isnan(mx_dequantize(kE4M3, codes[0], scale)));
  // E2M1 block max 7.99 -> scaled into [4, 8): clamps to 6; E4M3 500 -> 512 -> clamps to 448.
  x[5] = 7.99f;
  mx_quantize_block(kE2M1, x, 32, {}, codes, scale);
  EXPECT_EQ(scale, 127);
  EXPECT_EQ(codes[5], 0x7);
  x[5] = 500.0f;
  mx_quantize_block(kE4M3, x, 32, {}, codes, scale);
  EXPECT_EQ(scale, 127);
  EXPECT_EQ(codes[5], 0x7E);
  // Subnormal amax: floor(log2) from the bit fields (2^-140 -> shared -142 clamps to -127).
  x[5] = 0x1p-140f;
  mx_quantize_block(kE2M1, x, 32, {}, codes, scale);
  EXPECT_EQ(scale, 0);
  // Largest finite FP32: E5M2 elements saturate at 57344 and dequantize finite.
  x[5] = FLT_MAX;
  mx_quantize_block(kE5M2, x, 32, {}, codes, scale);
  EXPECT_EQ(codes[5], 0x7B);
  EXPECT_TRUE(std::isfinite(mx_dequantize(kE5M2, codes[5], scale)));
}

TEST(Nvfp4, TensorScalesAndRandomBlocks) {
  ref::Gen g(ref::test_seed() + 300);
  int failures = 0;
  const size_t ntensors = ref::scaled(2000);
  for (size_t t = 0; t < ntensors; ++t) {
    float x[16 * 8];
    const int n = 16 * 8;
    const int scale = static_cast<int>(g.next() % 120) - 60;
    for (int i = 0; i < n; ++i) {
      double v = std::ldexp(g.uniform() * 2 - 1, scale + static_cast<int>(g.next() % 24) - 12);
      if (g.next() % 16 == 0) v = 0;
      if (g.next() % 40 == 0) v = -0.0;
      x[i] = static_cast<float>(v);
    }
    float amax = 0;
    for (float v : x) amax = std::max(amax, std::fabs(v));
    // TE: S_enc = 2688 / amax (FP32), S_dec = 1 / S_enc; torchao: per_tensor = amax / 2688.
    const Nvfp4TensorScale te = nvfp4_tensor_scale(amax, NvfpRecipe::te);
    const Nvfp4TensorScale ta = nvfp4_tensor_scale(amax, NvfpRecipe::torchao);
    const float s_enc = amax == 0 ? 1.0f : std::min(2688.0f / amax, FLT_MAX);
    EXPECT_EQ(te.encode, s_enc);
    EXPECT_EQ(te.decode, 1.0f / s_enc);
    EXPECT_EQ(ta.decode, amax == 0 ? 1.0f : amax / 2688.0f);
    for (int b = 0; b < 8; ++b) {
      for (NvfpRecipe rec : {NvfpRecipe::te, NvfpRecipe::torchao}) {
        uint8_t codes[16], sc;
        const Nvfp4TensorScale& ts = rec == NvfpRecipe::te ? te : ta;
        nvfp4_quantize_block(x + 16 * b, 16, ts, rec, codes, sc);
        const NvRef want = rec == NvfpRecipe::te ? nv_te(x + 16 * b, 16, ts.encode, ts.decode)
                                                  : nv_torchao(x + 16 * b, 16, ts.decode);
        bool ok = sc == want.scale && std::memcmp(codes, want.codes, 16) == 0;
        for (int i = 0; i < 16; ++i) {
          // Dequantize: (e2m1 x e4m3) exactly, then x the per-tensor decode scale, one rounding.
          const float d = nvfp4_dequantize(codes[i], sc, ts.decode);
          const float w = static_cast<float>(ref::mini_decode(ref::kE2M1, codes[i]) * e4m3_val(sc)) * ts.decode;
          ok = ok && f32_bits(d) == f32_bits(w);
        }
        if (!ok && failures++ < 5)
          ADD_FAILURE() << "nvfp4 recipe " << int(rec) << " tensor " << t << " block " << b << ": scale " << int(sc)
                        << " want " << int(want.scale) << "; " << ref::seed_note();
      }
    }
  }
  EXPECT_EQ(failures, 0);
}

TEST(Nvfp4, RecipeDifferencesAndEdgeCases) {
  // A block tiny relative to the tensor: TE's E4M3 block scale rounds to 0, the reciprocal clamps
  // to FLT_MAX, nonzero elements saturate to +-6 and decode to 0; torchao clamps the block scale
  // to 2^-9 and keeps them.
  std::vector<float> x(32, 0.0f);
  x[0] = 1e6f;      // block 0: sets the tensor amax
  x[16] = 1e-3f;    // block 1: 1e-3 / 6 / (1e6 / 2688) << 2^-9 (E4M3 smallest subnormal)
  x[17] = -2e-3f;
  QuantOptions te, ta;
  ta.nvfp4_recipe = NvfpRecipe::torchao;
  const QTensor qt = quantize(Format::nvfp4, x.data(), 1, 32, te);
  const QTensor qa = quantize(Format::nvfp4, x.data(), 1, 32, ta);
  EXPECT_EQ(qt.scales[1], 0x00);
  EXPECT_EQ(qt.codes[16], 0x7);
  EXPECT_EQ(qt.codes[17], 0xF);
  EXPECT_EQ(dequantize(qt)[16], 0.0f);
  EXPECT_EQ(qa.scales[1], 0x01);  // 2^-9
  // All-zero tensor: both recipes use a per-tensor scale of 1.
  std::vector<float> z(16, 0.0f);
  EXPECT_EQ(quantize(Format::nvfp4, z.data(), 1, 16, te).tensor_scale, 1.0f);
  EXPECT_EQ(quantize(Format::nvfp4, z.data(), 1, 16, ta).tensor_scale, 1.0f);
  // Negative inputs that round to 0 keep E2M1 -0 (plain multiply, no FMA).
  x[1] = -1e-30f;  // block 0, whose scale is 448
  EXPECT_EQ(quantize(Format::nvfp4, x.data(), 1, 32, te).codes[1], 0x8);
  EXPECT_TRUE(std::signbit(dequantize(quantize(Format::nvfp4, x.data(), 1, 32, te))[1]));
  // NaN / Inf cannot be represented: a clear error naming the element.
  x[5] = std::nanf("");
  try {
    quantize(Format::nvfp4, x.data(), 2, 16, te);
    ADD_FAILURE() << "expected an error";
  } catch (const hifsim::Error& e) {
    EXPECT_NE(std::string(e.what()).find("element [0, 5]"), std::string::npos) << e.what();
  }
}
