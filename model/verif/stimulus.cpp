#include "verif/stimulus.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "formats/bits.hpp"
#include "formats/hif8.hpp"
#include "formats/mx.hpp"
#include "formats/nvfp4.hpp"
#include "formats/qdq_fast.hpp"
#include "io/npy.hpp"
#include "util/error.hpp"
#include "util/install.hpp"

namespace hifsim::verif::stim {

F32Class f32_class(uint32_t b) {
  const uint32_t e = (b >> 23) & 0xFF, m = b & 0x7FFFFF;
  if (e == 0) return m ? F32Class::subnormal : F32Class::zero;
  if (e == 0xFF) return m ? F32Class::nan : F32Class::inf;
  return F32Class::normal;
}

const char* f32_class_name(F32Class c) {
  switch (c) {
    case F32Class::zero: return "zero";
    case F32Class::subnormal: return "sub";
    case F32Class::normal: return "norm";
    case F32Class::inf: return "inf";
    case F32Class::nan: return "nan";
  }
  return "?";
}

uint32_t random_f32(SplitMix64& r, F32Class c) {
  const uint32_t sign = static_cast<uint32_t>(r.next() & 1) << 31;
  switch (c) {
    case F32Class::zero: return sign;
    case F32Class::subnormal: {
      uint32_t m = r.next32() & 0x7FFFFF;
      if (r.below(4) == 0) m >>= r.below(23);  // tiny ones too
      return sign | (m ? m : 1u);
    }
    case F32Class::normal: return sign | (static_cast<uint32_t>(1 + r.below(254)) << 23) | (r.next32() & 0x7FFFFF);
    case F32Class::inf: return sign | 0x7F800000u;
    case F32Class::nan: {
      uint32_t m = r.next32() & 0x7FFFFF;
      return sign | 0x7F800000u | (m ? m : 0x400000u);
    }
  }
  return 0;
}

uint32_t random_f32_mixed(SplitMix64& r) {
  const uint64_t k = r.below(100);
  if (k < 8) return random_f32(r, F32Class::zero);
  if (k < 18) return random_f32(r, F32Class::subnormal);
  if (k < 22) return random_f32(r, F32Class::inf);
  if (k < 25) return random_f32(r, F32Class::nan);
  const uint32_t sign = static_cast<uint32_t>(r.next() & 1) << 31;
  uint32_t e;
  if (k < 60) e = static_cast<uint32_t>(112 + r.below(32));                       // near 1
  else if (k < 70) e = static_cast<uint32_t>(1 + r.below(8));                      // smallest normals
  else if (k < 78) e = static_cast<uint32_t>(247 + r.below(8));                    // largest binades
  else e = static_cast<uint32_t>(1 + r.below(254));
  uint32_t m = r.next32() & 0x7FFFFF;
  const uint64_t shape = r.below(8);
  if (shape == 0) m &= ~((1u << r.below(23)) - 1);  // short mantissas (exact sums, ties)
  else if (shape == 1) m |= (1u << r.below(23)) - 1;  // runs of ones (carries)
  return sign | (e << 23) | m;
}

// ---------------------------------------------------------------------------------------
double gaussian(SplitMix64& r) {
  double u1 = r.uniform();
  if (u1 < 1e-300) u1 = 1e-300;
  const double u2 = r.uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

const char* shaped_block(SplitMix64& r, float* out, int n) {
  static const char* const kNames[] = {"gauss", "laplace", "uniform", "sparse", "ramp", "const",
                                       "gauss+outliers", "laplace+outliers", "sparse+outliers"};
  const int shape = static_cast<int>(r.below(6));
  const bool outliers = r.below(3) == 0;
  const double scale = std::ldexp(1.0, static_cast<int>(r.below(89)) - 62);
  for (int k = 0; k < n; ++k) {
    double v = 0.0;
    switch (shape) {
      case 0: v = gaussian(r); break;
      case 1: {
        double u = r.uniform();
        if (u < 1e-300) u = 1e-300;
        v = (r.next() & 1 ? 1.0 : -1.0) * -std::log(u);
        break;
      }
      case 2: v = 2.0 * r.uniform() - 1.0; break;
      case 3: v = r.below(10) < 7 ? 0.0 : gaussian(r); break;
      case 4: v = (static_cast<double>(k) - n / 2.0) / n; break;
      default: v = (r.next() & 1) ? 1.0 : -1.0; break;
    }
    out[k] = static_cast<float>(v * scale);
  }
  if (outliers) {
    const int m = 1 + static_cast<int>(r.below(4));
    for (int i = 0; i < m; ++i) {
      const int k = static_cast<int>(r.below(static_cast<uint64_t>(n)));
      const double f = std::ldexp(1.0, 3 + static_cast<int>(r.below(12)));
      out[k] = static_cast<float>((out[k] == 0.0f ? scale : static_cast<double>(out[k])) * f);
    }
  }
  if (!outliers) return kNames[shape];
  return shape == 1 ? kNames[7] : shape == 3 ? kNames[8] : kNames[6];
}

// ---------------------------------------------------------------------------------------
std::string default_npy() { return data_dir() + "/traces/sample/activations.npy"; }

NpyBlocks::NpyBlocks(const std::string& path) : path_(path) {
  io::NpyArray a = io::read_npy_f32(path);
  v_ = std::move(a.f32);
  if (v_.empty()) throw Error(path, "", "empty tensor");
}

void NpyBlocks::block(SplitMix64& r, float* out, int n) const {
  const size_t nb = v_.size() / static_cast<size_t>(n);
  size_t off;
  if (nb > 0) off = static_cast<size_t>(r.below(nb)) * static_cast<size_t>(n);
  else off = 0;
  const bool neg = r.next() & 1;
  for (int k = 0; k < n; ++k) {
    const float x = off + static_cast<size_t>(k) < v_.size() ? v_[off + static_cast<size_t>(k)] : 0.0f;
    out[k] = neg ? -x : x;
  }
}

// ---------------------------------------------------------------------------------------
fmt::Hif4Unit hif4_uniform(SplitMix64& r) {
  fmt::Hif4Unit u;
  const uint64_t m = r.next();
  u.e6m2 = static_cast<uint8_t>(m);
  u.e1_8 = static_cast<uint8_t>(m >> 8);
  u.e1_16 = static_cast<uint16_t>(m >> 16);
  for (int k = 0; k < 64; k += 16) {
    const uint64_t w = r.next();
    for (int j = 0; j < 16; ++j) u.nib[k + j] = static_cast<uint8_t>((w >> (4 * j)) & 0xF);
  }
  return u;
}

fmt::Hif4Unit hif4_quantize_random_opts(SplitMix64& r, const float* x) {
  fmt::Hif4Options o;
  o.element_rounding = r.below(4) == 0 ? fmt::Rounding::nearest_even : fmt::Rounding::nearest_away;
  o.compare = r.below(4) == 0 ? fmt::Hif4Compare::bf16_rounded : fmt::Hif4Compare::exact;
  // The fast quantizer: unit for unit the reference hif4_quantize for every option, both level
  // compares included (tests/formats/test_qdq_fast.cpp Hif4CodesEqualTheReferenceQuantizer), so
  // the vectors are the same, at a quarter of hif4_dot64's co-simulation instructions less
  // (docs/results/cosim-throughput-2026-12-07.md).
  return fmt::hif4_quantize_fast(x, o);
}

void hif4_to_words(const fmt::Hif4Unit& u, uint32_t* w) {
  w[0] = fmt::hif4_meta_word(u);
  for (int i = 0; i < 8; ++i) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    // Eight codes in one load (byte j = code 8i + j), gathered from bytes into nibbles with
    // three shift-and-mask steps, the inverse of hif4_from_words's (every generated vector is
    // packed; GCC does not merge the per-code byte loads of the loop below into one).
    uint64_t t;
    std::memcpy(&t, u.nib + 8 * i, sizeof t);
    t &= 0x0F0F0F0F0F0F0F0Full;
    t = (t | (t >> 4)) & 0x00FF00FF00FF00FFull;
    t = (t | (t >> 8)) & 0x0000FFFF0000FFFFull;
    t = (t | (t >> 16)) & 0x00000000FFFFFFFFull;
    w[1 + i] = static_cast<uint32_t>(t);
#else
    uint32_t x = 0;
    for (int j = 0; j < 8; ++j) x |= static_cast<uint32_t>(u.nib[8 * i + j] & 0xF) << (4 * j);
    w[1 + i] = x;
#endif
  }
}

fmt::Hif4Unit hif4_from_words(const uint32_t* w) {
  fmt::Hif4Unit u;
  u.e6m2 = static_cast<uint8_t>(w[0]);
  u.e1_8 = static_cast<uint8_t>(w[0] >> 8);
  u.e1_16 = static_cast<uint16_t>(w[0] >> 16);
  // Eight codes per word, spread from nibbles to bytes with three shift-and-mask steps instead of
  // a shift per code (every harness unpacks every vector for its golden model).
  for (int i = 0; i < 8; ++i) {
    uint64_t t = w[1 + i];  // nibble j = code 8i + j
    t = (t | (t << 16)) & 0x0000FFFF0000FFFFull;
    t = (t | (t << 8)) & 0x00FF00FF00FF00FFull;
    t = (t | (t << 4)) & 0x0F0F0F0F0F0F0F0Full;
    for (int j = 0; j < 8; ++j) u.nib[8 * i + j] = static_cast<uint8_t>(t >> (8 * j));  // byte j
  }
  return u;
}

Vector hif4_pair_vector(const fmt::Hif4Unit& a, const fmt::Hif4Unit& b, int source) {
  Vector v;
  hif4_pair_into(a, b, source, v);
  return v;
}

void hif4_pair_into(const fmt::Hif4Unit& a, const fmt::Hif4Unit& b, int source, Vector& v) {
  v.w.resize(2 * kHif4Words);
  hif4_to_words(a, v.w.data());
  hif4_to_words(b, v.w.data() + kHif4Words);
  v.source = source;
}

// ---------------------------------------------------------------------------------------
namespace {
// The code width a constant where it is one the units use (4, 8, 16 bits): whole words are then
// built from 32 / Bits codes each, in registers (a tenth of a harness's time went to the generic
// loop's division and read-modify-write per code). Bits = 0: any width.
template <int Bits, class T>
void pack_codes_t(const T* c, int n, int bits, uint32_t* w) {
  const int nw = packed_words(n, bits);
  for (int i = 0; i < nw; ++i) w[i] = 0;
  int k = 0;
  if constexpr (Bits != 0) {
    constexpr int per = 32 / Bits;
    constexpr uint32_t mask = (1u << Bits) - 1;
    for (; k + per <= n; k += per) {
      uint32_t x = 0;
      for (int j = 0; j < per; ++j) x |= (static_cast<uint32_t>(c[k + j]) & mask) << (j * Bits);
      w[k / per] = x;
    }
  }
  const uint32_t mask = bits == 32 ? 0xFFFFFFFFu : (1u << bits) - 1;
  for (; k < n; ++k) w[(k * bits) / 32] |= (static_cast<uint32_t>(c[k]) & mask) << ((k * bits) % 32);
}

template <int Bits, class T>
void unpack_codes_t(const uint32_t* w, int n, int bits, T* c) {
  int k = 0;
  if constexpr (Bits != 0) {
    constexpr int per = 32 / Bits;
    constexpr uint32_t mask = (1u << Bits) - 1;
    for (; k + per <= n; k += per) {
      const uint32_t x = w[k / per];
      for (int j = 0; j < per; ++j) c[k + j] = static_cast<T>((x >> (j * Bits)) & mask);
    }
  }
  const uint32_t mask = (1u << bits) - 1;
  for (; k < n; ++k) c[k] = static_cast<T>((w[(k * bits) / 32] >> ((k * bits) % 32)) & mask);
}

template <class T>
void pack_any(const T* c, int n, int bits, uint32_t* w) {
  switch (bits) {
    case 4: return pack_codes_t<4>(c, n, bits, w);
    case 8: return pack_codes_t<8>(c, n, bits, w);
    case 16: return pack_codes_t<16>(c, n, bits, w);
    default: return pack_codes_t<0>(c, n, bits, w);
  }
}

template <class T>
void unpack_any(const uint32_t* w, int n, int bits, T* c) {
  switch (bits) {
    case 4: return unpack_codes_t<4>(w, n, bits, c);
    case 8: return unpack_codes_t<8>(w, n, bits, c);
    case 16: return unpack_codes_t<16>(w, n, bits, c);
    default: return unpack_codes_t<0>(w, n, bits, c);
  }
}
}  // namespace

void pack_codes(const uint16_t* c, int n, int bits, uint32_t* w) { pack_any(c, n, bits, w); }
void pack_codes(const uint8_t* c, int n, int bits, uint32_t* w) { pack_any(c, n, bits, w); }
void unpack_codes(const uint32_t* w, int n, int bits, uint16_t* c) { unpack_any(w, n, bits, c); }
void unpack_codes(const uint32_t* w, int n, int bits, uint8_t* c) { unpack_any(w, n, bits, c); }

uint8_t e4m3_mixed(SplitMix64& r) {
  const uint8_t sign = static_cast<uint8_t>((r.next() & 1) << 7);
  const uint64_t k = r.below(100);
  if (k < 4) return sign | 0x7F;                                           // NaN
  if (k < 12) return sign;                                                 // +-0
  if (k < 20) return sign | static_cast<uint8_t>(1 + r.below(7));         // subnormal
  return sign | static_cast<uint8_t>(8 + r.below(0x7F - 8));              // normal (0x08..0x7E)
}

uint8_t e5m2_mixed(SplitMix64& r) {
  const uint8_t sign = static_cast<uint8_t>((r.next() & 1) << 7);
  const uint64_t k = r.below(100);
  if (k < 3) return sign | static_cast<uint8_t>(0x7D + r.below(3));      // NaN
  if (k < 6) return sign | 0x7C;                                           // Inf
  if (k < 14) return sign;
  if (k < 22) return sign | static_cast<uint8_t>(1 + r.below(3));
  return sign | static_cast<uint8_t>(4 + r.below(0x7C - 4));
}

uint8_t hif8_mixed(SplitMix64& r) {
  const uint64_t k = r.below(100);
  if (k < 3) return fmt::kHif8NaN;
  if (k < 6) return static_cast<uint8_t>(fmt::kHif8PosInf | ((r.next() & 1) << 7));
  if (k < 14) return 0x00;
  const uint8_t sign = static_cast<uint8_t>((r.next() & 1) << 7);
  if (k < 22) return sign | static_cast<uint8_t>(1 + r.below(7));        // denormal
  uint8_t c;
  do c = static_cast<uint8_t>(8 + r.below(0x78)); while (c == fmt::kHif8PosInf);
  return sign | c;
}

uint16_t bf16_mixed(SplitMix64& r) {
  const uint16_t sign = static_cast<uint16_t>((r.next() & 1) << 15);
  const uint64_t k = r.below(100);
  if (k < 3) return sign | static_cast<uint16_t>(0x7F81 + r.below(0x7E));  // NaN
  if (k < 6) return sign | 0x7F80;                                         // Inf
  if (k < 14) return sign;
  if (k < 22) return sign | static_cast<uint16_t>(1 + r.below(0x7F));     // subnormal
  return sign | static_cast<uint16_t>(0x80 + r.below(0x7F80 - 0x80));     // normal
}

uint16_t bf16_near(SplitMix64& r, int lo, int hi) {
  const uint16_t sign = static_cast<uint16_t>((r.next() & 1) << 15);
  const uint64_t k = r.below(100);
  if (k < 1) return sign | 0x7F80;
  if (k < 2) return sign | 0x7FC0;
  if (k < 8) return sign;
  const int e = lo + static_cast<int>(r.below(static_cast<uint64_t>(hi - lo + 1)));
  uint16_t m = static_cast<uint16_t>(r.below(128));
  if (r.below(4) == 0) m &= static_cast<uint16_t>(~((1u << r.below(8)) - 1));  // short significands: exact sums, ties
  return sign | static_cast<uint16_t>(e << 7) | m;
}

std::vector<std::pair<uint16_t, uint16_t>> inf_product_sign_pairs(uint16_t inf, uint16_t one, uint16_t sign) {
  std::vector<std::pair<uint16_t, uint16_t>> v;
  for (int inf_in_b = 0; inf_in_b < 2; ++inf_in_b)
    for (int s = 0; s < 4; ++s) {
      const uint16_t sa = (s & 2) ? sign : 0, sb = (s & 1) ? sign : 0;
      const uint16_t x = inf_in_b ? one : inf, y = inf_in_b ? inf : one;
      v.emplace_back(static_cast<uint16_t>(x | sa), static_cast<uint16_t>(y | sb));
    }
  return v;
}

void nvfp4_quantize64(SplitMix64& r, const float* x, uint8_t* codes, uint8_t* scales) {
  float amax = 0.0f;
  for (int k = 0; k < 64; ++k) amax = std::fmax(amax, std::fabs(x[k]));
  const fmt::NvfpRecipe rec = r.below(4) == 0 ? fmt::NvfpRecipe::torchao : fmt::NvfpRecipe::te;
  const fmt::Nvfp4TensorScale ts = fmt::nvfp4_tensor_scale(std::isfinite(amax) ? amax : 0.0f, rec);
  // the fast block quantizer: codes and scale of nvfp4_quantize_block (it takes the reference for
  // NaN / Inf blocks; tests/formats/test_qdq_fast.cpp BlockCodesEqualTheReferenceQuantizers)
  for (int j = 0; j < 4; ++j) fmt::nvfp4_quantize_block_fast(x + 16 * j, 16, ts, rec, codes + 16 * j, scales[j]);
}

void mx_quantize(SplitMix64& r, const fmt::MiniFloatSpec& elem, const float* x, int n, uint8_t* codes, uint8_t* scales) {
  fmt::MxOptions o;
  o.rounding = r.below(4) == 0 ? fmt::Rounding::nearest_away : fmt::Rounding::nearest_even;
  o.scale_rule = r.below(4) == 0 ? fmt::MxScaleRule::ceil : fmt::MxScaleRule::floor;
  // the fast block quantizer: codes and scale of mx_quantize_block (the reference itself for the
  // ceil rule; tests/formats/test_qdq_fast.cpp BlockCodesEqualTheReferenceQuantizers)
  for (int b = 0; b < n / 32; ++b) fmt::mx_quantize_block_fast(elem, x + 32 * b, 32, o, codes + 32 * b, scales[b]);
}

void hif8_quantize(SplitMix64& r, const float* x, int n, uint8_t* codes) {
  fmt::Hif8Encode o;
  const uint64_t k = r.below(8);
  if (k == 0) o.rounding = fmt::Rounding::nearest_even;
  else if (k == 1) o.rounding = fmt::Rounding::toward_zero;
  o.saturate = r.below(4) == 0;
  for (int i = 0; i < n; ++i) codes[i] = fmt::hif8_encode(x[i], o);
}

void bf16_quantize(const float* x, int n, uint16_t* out) {
  for (int i = 0; i < n; ++i) out[i] = fmt::bf16_from_float(x[i]);
}

namespace {
int bitlen128(dp::u128 v) {
  const uint64_t hi = static_cast<uint64_t>(v >> 64), lo = static_cast<uint64_t>(v);
  return hi ? 128 - __builtin_clzll(hi) : lo ? 64 - __builtin_clzll(lo) : 0;
}
}  // namespace

RoundClass classify_fp32_round(const dp::ExactValue& v) {
  RoundClass c;
  if (v.kind != dp::ExactValue::finite) return c;
  if (v.mag == 0) {
    c.zero = c.exact = true;
    return c;
  }
  const int n = bitlen128(v.mag);
  const int e = v.exp + n - 1;
  c.subnormal = e < -126;
  const int q = std::max(e, -126) - 23;  // weight of the last kept bit
  const int sh = q - v.exp;
  dp::u128 kept;
  if (sh <= 0) {
    c.exact = true;
    kept = v.mag << (-sh);
  } else {
    const dp::u128 rem = sh >= 128 ? v.mag : v.mag & ((static_cast<dp::u128>(1) << sh) - 1);
    kept = sh >= 128 ? 0 : v.mag >> sh;
    c.exact = rem == 0;
    if (sh <= 128) {
      const dp::u128 half = static_cast<dp::u128>(1) << (sh - 1);
      c.tie = rem == half;
      c.up = rem > half || (rem == half && (kept & 1));
    }
    if (c.up) {
      const int before = bitlen128(kept);
      ++kept;
      c.carry = bitlen128(kept) > before && (kept & (kept - 1)) == 0;
    }
  }
  c.to_zero = kept == 0;
  // The rounded value kept * 2^q reaches 2^128.
  c.overflow = kept != 0 && q + bitlen128(kept) - 1 >= 128;
  return c;
}

AddClass classify_add(uint32_t a, uint32_t b, int p, bool rz) {
  AddClass c;
  dp::ExactValue x = dp::ExactValue::from_float(fmt::bits_f32(a)), y = dp::ExactValue::from_float(fmt::bits_f32(b));
  if (x.mag == 0 || y.mag == 0) {
    const dp::ExactValue& z = x.mag ? x : y;
    if (z.mag == 0) {
      c.exact_zero = c.exact = true;
      return c;
    }
    x = z;
    y = dp::ExactValue::zero();
    y.exp = x.exp;
  }
  if (x.exp < y.exp) std::swap(x, y);
  const int d = x.exp - y.exp;
  if (d > 100) {
    c.far = true;
    c.lead_exp = x.exp + bitlen128(x.mag) - 1;
    return c;
  }
  const dp::i128 s = static_cast<dp::i128>(x.mag << d) * (x.neg ? -1 : 1) + static_cast<dp::i128>(y.mag) * (y.neg ? -1 : 1);
  if (s == 0) {
    c.exact_zero = c.exact = true;
    return c;
  }
  const dp::u128 mag = static_cast<dp::u128>(s < 0 ? -s : s);
  const int n = bitlen128(mag);
  const int e = y.exp + n - 1;
  c.lead_exp = e;
  c.overflow = e >= 128;
  const int q = std::max(e, -126) - (p - 1);
  const int sh = q - y.exp;
  if (sh <= 0) {
    c.exact = true;
    return c;
  }
  const dp::u128 rem = mag & ((static_cast<dp::u128>(1) << sh) - 1), half = static_cast<dp::u128>(1) << (sh - 1);
  dp::u128 kept = mag >> sh;
  c.exact = rem == 0;
  c.tie = rem == half;
  const bool up = !rz && (rem > half || (rem == half && (kept & 1)));
  if (up) {
    ++kept;
    c.carry = (kept & (kept - 1)) == 0 && bitlen128(kept) > bitlen128(mag >> sh);
  }
  return c;
}

}  // namespace hifsim::verif::stim
