#include "formats/nvfp4.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "formats/minifloat.hpp"

namespace hifsim::fmt {
namespace {
constexpr float kNorm = 448.0f * 6.0f;  // 2688: max E4M3 x max E2M1
MiniFloatEncode rne_sat() {
  MiniFloatEncode e;
  e.rounding = Rounding::nearest_even;
  e.saturate = true;  // cvt.rn.satfinite
  return e;
}
}  // namespace

Nvfp4TensorScale nvfp4_tensor_scale(float amax, NvfpRecipe recipe) {
  Nvfp4TensorScale s;
  if (amax == 0.0f) return s;
  if (recipe == NvfpRecipe::te) {
    s.encode = std::min(kNorm / amax, FLT_MAX);
    if (s.encode == 0.0f) s.encode = 1.0f;
    s.decode = 1.0f / s.encode;
  } else {
    s.decode = amax / kNorm;
    if (s.decode == 0.0f) s.decode = 1.0f;  // amax so small that the scale underflows
    s.encode = 1.0f / s.decode;
  }
  return s;
}

void nvfp4_quantize_block(const float* x, size_t n, const Nvfp4TensorScale& ts, NvfpRecipe recipe, uint8_t* codes,
                          uint8_t& scale, const uint64_t* rbits, float block_amax) {
  float bmax = 0.0f;
  for (size_t i = 0; i < n; ++i) bmax = std::max(bmax, std::fabs(x[i]));
  if (block_amax >= 0.0f) bmax = block_amax;
  const MiniFloatEncode enc = rne_sat();
  // The elements' encoder: RNE + satfinite, or stochastic + satfinite (cvt.rs) with word i.
  auto elem = [&](float v, size_t i) {
    if (!rbits) return minifloat_encode(kE2M1, v, enc);
    MiniFloatEncode s = enc;
    s.rounding = Rounding::stochastic;
    s.rbits = rbits[i];
    return minifloat_encode(kE2M1, v, s);
  };
  if (recipe == NvfpRecipe::te) {
    // sf = block_amax * (S_enc * (1/6)) in this order, in FP32.
    const float sf = std::min(bmax * (ts.encode * (1.0f / 6.0f)), FLT_MAX);
    scale = minifloat_encode(kE4M3, sf, enc);
    // Multiply by the reciprocal (TE never divides per element); 1/0 -> Inf -> FLT_MAX.
    const float e = std::min(1.0f / (minifloat_decode(kE4M3, scale) * ts.decode), FLT_MAX);
    for (size_t i = 0; i < static_cast<size_t>(kNvfp4Block); ++i)
      codes[i] = i < n ? elem(x[i] * e, i) : 0;
  } else {
    const float block_scale = bmax / 6.0f;
    const float s = std::clamp(block_scale / ts.decode, 0x1p-9f, 448.0f);
    scale = minifloat_encode(kE4M3, s, enc);
    const float total = ts.decode * minifloat_decode(kE4M3, scale);
    for (size_t i = 0; i < static_cast<size_t>(kNvfp4Block); ++i)
      codes[i] = i < n ? elem(std::clamp(x[i] / total, -6.0f, 6.0f), i) : 0;
  }
}

float nvfp4_dequantize(uint8_t code, uint8_t scale, float decode_scale) {
  return (minifloat_decode(kE2M1, code) * minifloat_decode(kE4M3, scale)) * decode_scale;
}

}  // namespace hifsim::fmt
