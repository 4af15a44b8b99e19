#include "stimulus.hpp"

#include <cmath>

#include "formats/bits.hpp"
#include "io/npy.hpp"
#include "util/error.hpp"

#ifndef HIFSIM_SOURCE_DIR
#define HIFSIM_SOURCE_DIR "."
#endif

namespace hifsim::cosim::stim {

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
std::string default_npy() { return std::string(HIFSIM_SOURCE_DIR) + "/traces/sample/activations.npy"; }

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
  return fmt::hif4_quantize(x, o);
}

void hif4_to_words(const fmt::Hif4Unit& u, uint32_t* w) {
  w[0] = fmt::hif4_meta_word(u);
  for (int i = 0; i < 8; ++i) {
    uint32_t x = 0;
    for (int j = 0; j < 8; ++j) x |= static_cast<uint32_t>(u.nib[8 * i + j] & 0xF) << (4 * j);
    w[1 + i] = x;
  }
}

fmt::Hif4Unit hif4_from_words(const uint32_t* w) {
  fmt::Hif4Unit u;
  u.e6m2 = static_cast<uint8_t>(w[0]);
  u.e1_8 = static_cast<uint8_t>(w[0] >> 8);
  u.e1_16 = static_cast<uint16_t>(w[0] >> 16);
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) u.nib[8 * i + j] = static_cast<uint8_t>((w[1 + i] >> (4 * j)) & 0xF);
  return u;
}

}  // namespace hifsim::cosim::stim
