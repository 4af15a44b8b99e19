// Seeded stimulus generators shared by the cosim harnesses (docs/cosim.md, "Stimulus").
//
//   FP32 values by class (zero, subnormal, normal, Inf, NaN), with biased exponents
//   value-shaped float blocks (Gaussian, Laplace, uniform, sparse, ramp, constant) at a random
//     scale, with or without outliers -- fed through the real quantizers of model/formats
//   real-tensor blocks taken from a float32 .npy (traces/sample/activations.npy by default)
//   HiF4 units: uniform codes, quantized shaped / tensor blocks, word packing in layout (A)
//
// Everything draws from a caller-owned SplitMix64, so a (seed, vector index) pair always
// produces the same stimulus.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "formats/hif4.hpp"
#include "util/rng.hpp"

namespace hifsim::cosim::stim {

// ---- FP32 ----
enum class F32Class { zero, subnormal, normal, inf, nan };
constexpr int kF32Classes = 5;
F32Class f32_class(uint32_t bits);
const char* f32_class_name(F32Class c);  // "zero", "sub", "norm", "inf", "nan"
// A random value of class `c` with a random sign (NaN: random payload, quiet or signalling).
uint32_t random_f32(SplitMix64& r, F32Class c);
// A mix that favours hard cases: about 8% zero, 10% subnormal, 4% Inf, 3% NaN; normals with
// exponents near 1, near the extremes, or uniform.
uint32_t random_f32_mixed(SplitMix64& r);

// ---- value-shaped blocks ----
// Fills out[0..n) with one of the shapes at a random scale 2^[-62, 26] (so HiF4/MX scales
// reach their clamps and saturate), optionally with 1..4 outliers 2^[3, 14] times larger.
// Returns the shape's name ("gauss", "gauss+outliers", ...).
const char* shaped_block(SplitMix64& r, float* out, int n);
double gaussian(SplitMix64& r);

// ---- real-tensor blocks ----
class NpyBlocks {
 public:
  explicit NpyBlocks(const std::string& path);  // float32 .npy; throws hifsim::Error
  // n consecutive values (C order) starting at a random multiple of n (a K-block of a row
  // when the last dimension is a multiple of n), randomly negated half of the time.
  void block(SplitMix64& r, float* out, int n) const;
  const std::string& path() const { return path_; }
  size_t size() const { return v_.size(); }

 private:
  std::string path_;
  std::vector<float> v_;
};
// The default tensor: <source dir>/traces/sample/activations.npy.
std::string default_npy();

// ---- HiF4 ----
constexpr int kHif4Words = 9;  // 288 bits
// Every field uniform: E6M2 0..255 (0xFF = NaN included), E1 bits, all 16 nibble codes.
fmt::Hif4Unit hif4_uniform(SplitMix64& r);
// The reference quantizer on 64 floats, with random quantizer options (element rounding
// half-away or even, exact or BF16-rounded level compares).
fmt::Hif4Unit hif4_quantize_random_opts(SplitMix64& r, const float* x);
// Layout (A) as a little-endian 288-bit integer: word 0 = meta (E6M2 | E1_8 << 8 | E1_16 << 16),
// words 1..8 = elements (element k at bits 32 + 4k).
void hif4_to_words(const fmt::Hif4Unit& u, uint32_t* w);
fmt::Hif4Unit hif4_from_words(const uint32_t* w);

}  // namespace hifsim::cosim::stim
