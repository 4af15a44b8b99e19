// HiFloat4 (HiF4): 64-element unit = E6M2 scale + 8 level-2 bits + 16 level-3 bits +
// 64 S1P2 elements (288 bits). ../shared/reference/hif4.md; docs/formats.md.
#pragma once
#include <cstdint>

#include "formats/rounding.hpp"

namespace hifsim::fmt {

constexpr int kHif4Block = 64;
constexpr int kHif4PackedBytes = 36;  // layout (A): 4 metadata bytes + 32 element bytes

struct Hif4Unit {
  uint8_t e6m2 = 0;    // level-1 scale
  uint8_t e1_8 = 0;    // level-2 bits: bit i scales elements 8i..8i+7 by 2
  uint16_t e1_16 = 0;  // level-3 bits: bit j scales elements 4j..4j+3 by 2
  uint8_t nib[64] = {};  // S1P2 codes (sign bit 3, magnitude bits 2..0)
  bool operator==(const Hif4Unit& o) const;
};

// How the level-2/level-3 thresholds are compared (hif4.md section 5, decision 2).
enum class Hif4Compare {
  exact,         // the exact product V x REC (reference, OFF) -- default
  bf16_rounded,  // the product rounded to BF16 first (PTO "A6 golden")
};

// A published HiF4 reference, as a whole set of rules (docs/formats.md, "HiF4 conventions").
enum class Hif4Convention : uint8_t {
  official,   // the HiFloat4 repository (OFF, hif4.md section 2): default; its options are free
  ascend_a6,  // Huawei PTO-ISA A6 TQuant kernel and golden: every rule fixed (hif4_convention_options)
};
const char* hif4_convention_name(Hif4Convention c);  // "official", "ascend-a6"

struct Hif4Options {
  Rounding element_rounding = Rounding::nearest_away;  // or nearest_even (PTO A6)
  Hif4Compare compare = Hif4Compare::exact;
  bool inf_to_nan = false;  // default: +-Inf saturates (OFF); option: Inf makes the unit NaN
  // Rounding::stochastic: the 64 elements' random words (formats/stochastic.hpp sr_word); the
  // scaled magnitude 4|y| rounds up iff its left-aligned fraction plus the word carries.
  const uint64_t* rbits = nullptr;
  // Ascend A6 rules (set together by hif4_convention_options(ascend_a6)):
  bool bf16_scaled_element = false;  // x * scale is rounded to BF16 (via FP32) before the element
                                     // rounding, and the sign is that product's (-0 after underflow -> +)
  bool zero_scale_code = false;      // E6M2 code 0x00 decodes as 0 (reciprocal 0): such a unit is all +0
};

// The options of a convention: official = the defaults above; ascend_a6 = ties-to-even elements,
// BF16-rounded level-2/3 products, BF16-rounded scaled elements, code 0x00 = zero.
Hif4Options hif4_convention_options(Hif4Convention c);

// The reciprocal of the level-1 scale, REC = RNE_bf16(1 / value(e6m2)), as a 4-entry mantissa
// LUT plus an exponent subtraction (the hardware's form). Returns sig/128 * 2^exp as float.
float hif4_reciprocal(uint8_t e6m2);
extern const uint8_t kHif4RecipSig[4];  // BF16 significands incl. hidden bit: 128, 205, 171, 146

// The stochastic element rounding (docs/training.md): the magnitude code 0..7 of 4|y| = y4 >= 0
// with random word `rbits` (sr_word); y4 >= 7 and NaN give 7. rtl/sr_quantizer.sv FMT=1.
int hif4_element_sr(double y4, uint64_t rbits);
// The reference quantizer (hif4.md section 2) on 64 BF16 inputs (raw BF16 bit patterns).
Hif4Unit hif4_quantize_bf16(const uint16_t x[64], const Hif4Options& o = {});
// FP32 inputs are rounded to BF16 (RNE) first: the golden model takes BF16 only.
Hif4Unit hif4_quantize(const float x[64], const Hif4Options& o = {});

// Decoded values (exact in FP32). A NaN scale gives 64 NaNs. zero_scale_code (Ascend A6):
// code 0x00 decodes as 0 (signed zeros kept, as the A6 golden's (+-m/4) * 0).
void hif4_decode(const Hif4Unit& u, float out[64], bool zero_scale_code = false);

// Canonical byte layout (A): byte0 E6M2, byte1 E1_8 (LSB = group 0), bytes 2-3 E1_16
// little-endian, then 32 bytes with element 2i in the low nibble of byte i.
void hif4_pack(const Hif4Unit& u, uint8_t out[kHif4PackedBytes]);
Hif4Unit hif4_unpack(const uint8_t in[kHif4PackedBytes]);
inline uint32_t hif4_meta_word(const Hif4Unit& u) {
  return static_cast<uint32_t>(u.e6m2) | (static_cast<uint32_t>(u.e1_8) << 8) | (static_cast<uint32_t>(u.e1_16) << 16);
}

}  // namespace hifsim::fmt
