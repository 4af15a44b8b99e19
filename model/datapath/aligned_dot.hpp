// Floating-point dot product with hierarchical scale alignment (docs/datapath.md, units 4-5):
// the HiF8 N-wide dot product (N = 16, 32, 64) and the BF16 64-wide dot product.
//
//   s0  decode: element = sig * 2^exp (HiF8: 4-bit sig; BF16: 8-bit sig) or NaN/Inf
//   s1  products: psig = sigA*sigB (P bits: 8 for HiF8, 16 for BF16), pexp = expA+expB
//   s2  Emax = max over nonzero products of (pexp + P)  -- a comparator tree (the hierarchy)
//   s3  align into a W-bit window whose LSB weighs 2^L, L = Emax - W:
//         trunc:  t = floor(psig * 2^(pexp - L))                    (bits below the window dropped)
//         sticky: t = floor(psig * 2^(pexp - L + 1)) | (dropped != 0)   (one jam bit below the window)
//   s4  S = sum of +-t   (W + log2 N + 2 bits, two's complement)
//   s5  normalise and round once, RNE, to FP32
// W = 0 means an unbounded window: the exact sum rounded once. With W >= Wexact (82 for HiF8,
// 538 for BF16) nothing is ever dropped, so any W >= Wexact equals W = 0.
// Specials: NaN in -> NaN; Inf * 0 -> NaN; +Inf and -Inf products -> NaN; otherwise +-Inf.
// An exactly zero sum is +0.0.
#pragma once
#include <cstdint>
#include <vector>

#include "datapath/accumulator.hpp"
#include "formats/format.hpp"

namespace hifsim::dp {

enum class AlignPolicy { trunc, sticky };

struct AlignSpec {
  int width = 0;  // W in [1, 120]; 0 = exact
  AlignPolicy policy = AlignPolicy::trunc;
};
AlignSpec default_align(fmt::Format f);  // hif8: exact; bf16: W = 64, sticky
constexpr int kHif8DefaultLanes = 64;    // N of the HiF8 dot unit unless a config chooses 16 or 32

struct AlignedDotStages {
  std::vector<uint32_t> psig;
  std::vector<int16_t> pexp;
  std::vector<uint8_t> pneg;
  int emax = 0;                  // s2
  int lsb = 0;                   // s3: L (weight of the window LSB; sticky adds one bit below)
  std::vector<u128> term;        // s3: aligned magnitudes (window + sticky bit, <= 121 bits)
  std::vector<uint8_t> dropped;  // s3: some bit fell below the window
  i128 sum = 0;                  // s4
  bool nan = false, pinf = false, ninf = false;  // NaN product (NaN in, Inf x 0), +Inf / -Inf products
  bool special = false;          // NaN / Inf: the result is the special; the stages still hold the
                                 // datapath's values (special lanes enter the sum as zero), as in the RTL
  uint32_t out_bits = 0;         // s5
};

// Wexact: the window that never drops a bit (see the header comment).
constexpr int kHif8ExactWidth = 82;
constexpr int kBf16ExactWidth = 538;
constexpr int kHif8ProductBits = 8;
constexpr int kBf16ProductBits = 16;
// Element exponent ranges (element.hpp: value = sig * 2^exp over every finite nonzero code).
constexpr int kHif8ExpMin = -25, kHif8ExpMax = 12;
constexpr int kBf16ExpMin = -133, kBf16ExpMax = 120;

class Hif8DotN {
 public:
  // n in {16, 32, 64}: n HiF8 codes per operand.
  static DotResult compute(const uint8_t* a, const uint8_t* b, int n, const AlignSpec& spec,
                           AlignedDotStages* st = nullptr);
};

class Bf16Dot64 {
 public:
  static DotResult compute(const uint16_t* a, const uint16_t* b, const AlignSpec& spec, AlignedDotStages* st = nullptr);
};

// The shared core: products already formed (psig < 2^pbits).
DotResult aligned_sum(int n, const uint32_t* psig, const int16_t* pexp, const uint8_t* pneg, int pbits,
                      const AlignSpec& spec, AlignedDotStages* st);

}  // namespace hifsim::dp
