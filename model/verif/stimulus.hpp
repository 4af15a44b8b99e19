// Seeded stimulus generators shared by the unit benches (model/verif/*_bench.hpp) that drive the
// Verilated co-simulation (cosim/) and the conformance vectors (hifsim vectors); docs/cosim.md,
// "Stimulus".
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
#include <utility>
#include <vector>

#include "datapath/exact.hpp"
#include "formats/hif4.hpp"
#include "formats/minifloat.hpp"
#include "util/rng.hpp"
#include "verif/vector.hpp"

namespace hifsim::verif::stim {

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
// The default tensor: traces/sample/activations.npy of the data folder (util/install.hpp: the
// source tree in a build, share/hifsim or the wheel's data once installed).
std::string default_npy();

// ---- HiF4 ----
constexpr int kHif4Words = 9;  // 288 bits
// Every field uniform: E6M2 0..255 (0xFF = NaN included), E1 bits, all 16 nibble codes.
fmt::Hif4Unit hif4_uniform(SplitMix64& r);
// The quantizer (fmt::hif4_quantize's codes, by its fast path) on 64 floats, with random quantizer options (element rounding
// half-away or even, exact or BF16-rounded level compares).
fmt::Hif4Unit hif4_quantize_random_opts(SplitMix64& r, const float* x);
// Layout (A) as a little-endian 288-bit integer: word 0 = meta (E6M2 | E1_8 << 8 | E1_16 << 16),
// words 1..8 = elements (element k at bits 32 + 4k).
void hif4_to_words(const fmt::Hif4Unit& u, uint32_t* w);
fmt::Hif4Unit hif4_from_words(const uint32_t* w);
// A hif4_dot64 transaction: A's unit in words 0..8, B's in 9..17.
Vector hif4_pair_vector(const fmt::Hif4Unit& a, const fmt::Hif4Unit& b, int source);
// The same into `v` (its word storage reused).
void hif4_pair_into(const fmt::Hif4Unit& a, const fmt::Hif4Unit& b, int source, Vector& v);

// ---- packed code vectors (the RTL's operand ports) ----
// n codes of `bits` bits (4, 8 or 16) little-endian into 32-bit words: code k at bit bits*k.
// The word count is (n * bits + 31) / 32. The uint8_t forms are for codes of at most 8 bits.
void pack_codes(const uint16_t* c, int n, int bits, uint32_t* w);
void pack_codes(const uint8_t* c, int n, int bits, uint32_t* w);
void unpack_codes(const uint32_t* w, int n, int bits, uint16_t* c);
void unpack_codes(const uint32_t* w, int n, int bits, uint8_t* c);
inline int packed_words(int n, int bits) { return (n * bits + 31) / 32; }

// ---- element codes with a class mix (the "uniform" sources) ----
// A code of the format with the special and extreme classes favoured: about 6% NaN / Inf codes
// (where the format has them), 8% zero, 8% subnormal, the rest uniform over the normal codes.
uint8_t e4m3_mixed(SplitMix64& r);
uint8_t e5m2_mixed(SplitMix64& r);
uint8_t hif8_mixed(SplitMix64& r);
uint16_t bf16_mixed(SplitMix64& r);
// Element codes with a common random exponent window (so products are comparable and the
// alignment sees small gaps), about 2% specials.
uint16_t bf16_near(SplitMix64& r, int exp_field_lo, int exp_field_hi);

// The {a, b} codes of one lane whose product is infinite, for each of the four sign pairs, first
// with the Inf in A, then in B (`one` is a finite nonzero code, `sign` the sign bit). The specials
// corners multiply every Inf by a positive value, so a product whose sign is taken from one
// operand alone (mutant ad.inf_sign_a) passed them; half of these eight show it.
std::vector<std::pair<uint16_t, uint16_t>> inf_product_sign_pairs(uint16_t inf, uint16_t one, uint16_t sign);

// ---- value-shaped / tensor blocks through the real quantizers of model/formats ----
// NVFP4: 64 values -> 64 E2M1 codes + 4 E4M3 scales (TE or torchao recipe at random, the
// per-tensor scale from the block's own amax).
void nvfp4_quantize64(SplitMix64& r, const float* x, uint8_t* codes, uint8_t* scales);
// MX: n values (a multiple of 32) -> n element codes + n/32 E8M0 scales, random rounding
// (RNE / away) and scale rule (floor / ceil).
void mx_quantize(SplitMix64& r, const fmt::MiniFloatSpec& elem, const float* x, int n, uint8_t* codes,
                 uint8_t* scales);
// HiF8 codes (TA rounding mostly; RNE / RZ / saturating at random).
void hif8_quantize(SplitMix64& r, const float* x, int n, uint8_t* codes);
// BF16 (RNE).
void bf16_quantize(const float* x, int n, uint16_t* out);

// ---- rounding classification of an exact value (coverage; independent of the RTL and of
// round_to_float's code) ----
struct RoundClass {
  bool zero = false;          // the exact value is 0
  bool exact = false;         // representable in FP32 (no rounding)
  bool tie = false;           // exactly half an ulp
  bool up = false;            // RNE rounds the magnitude up
  bool carry = false;         // the round-up carries into a new binade
  bool subnormal = false;     // the exact value lies below 2^-126
  bool overflow = false;      // rounds to Inf
  bool to_zero = false;       // nonzero, rounds to zero
};
RoundClass classify_fp32_round(const dp::ExactValue& v);

// The exact sum a + b of two finite FP32 values and its rounding to `precision` significant bits
// with the FP32 exponent range (RNE, or RZ with `rz`): an independent integer computation for the
// accumulator bins (fp32_acc, sparse_residual_add), sharing no code with fp_add or the RTL.
struct AddClass {
  bool far = false;        // exponent gap beyond 100 binades (the model's sticky-only path): no classification
  bool exact_zero = false;
  bool exact = false, tie = false, carry = false;
  int lead_exp = 0;        // exponent of the exact sum's leading bit
  bool overflow = false;   // exact |sum| >= 2^128
};
AddClass classify_add(uint32_t a, uint32_t b, int precision, bool rz);

}  // namespace hifsim::verif::stim
