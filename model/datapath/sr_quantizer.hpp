// The stochastic-rounding element quantizer (rtl/sr_quantizer.sv; docs/training.md "Stochastic
// rounding", docs/datapath.md "sr_quantizer"): 16 scaled elements -> 16 four-bit codes, each
// rounded with its own B random bits drawn from the Threefry-2x32-20 stream (formats/stochastic.hpp)
// at its element index. Stochastic rounding never changes a scale, so the block scale and the
// multiplication by its reciprocal are the round-to-nearest quantizer's; this unit is the part
// that differs: the generator and the element rounding.
//
// The input of lane k is the FP32 value the format's element rounding takes (formats/nvfp4.cpp
// `x * enc`; formats/mx.cpp: x 2^-shared, exact; formats/hif4.cpp: 4|y| with the element's sign),
// the output its code:
//   nvfp4_e2m1  minifloat_encode(E2M1, a, stochastic + satfinite)          (NaN -> signed 0)
//   hif4_s1p2   sign(a) << 3 | hif4_element_sr(|a|)                        (>= 7, Inf, NaN -> 7)
//   mxfp4_e2m1  as nvfp4_e2m1, but Inf and NaN -> code 0: an MX block with a special has scale
//               NaN and every code 0 (formats/mx.hpp), and x times a NaN scale's reciprocal is NaN
//               for every element of it, so the unit zeroes the whole block (docs/training.md)
// Element k of an operation has index i = (group, lane) + k: the counter form of the index,
// i = group * L + lane with lane < L = floor(64 / B), which an address generator steps by 16
// without a divider.
#pragma once
#include <cstdint>

#include "formats/stochastic.hpp"

namespace hifsim::dp {

enum class SrElem { nvfp4_e2m1 = 0, hif4_s1p2 = 1, mxfp4_e2m1 = 2 };  // the RTL's FMT
// "nvfp4", "hif4", "mxfp4": the name of a parameter set's format (labels, vector sets).
const char* sr_elem_name(SrElem e);
constexpr int kSrqLanes = 16;

struct SrqInput {
  uint64_t seed = 0;
  uint32_t stream = 0;
  uint32_t group = 0;  // element 0's group index (c0 of the counter)
  uint32_t lane = 0;   // element 0's lane, < L
  float a[kSrqLanes] = {};
};

struct SrqStages {
  uint32_t r[kSrqLanes] = {};     // each element's B random bits
  uint32_t t[kSrqLanes] = {};     // T, the top B bits of its discarded fraction
  uint8_t code[kSrqLanes] = {};   // sign | magnitude code
};

// The widths the description prices (sr_quantizer_hw.cpp).
struct SrqBounds {
  static int lanes_per_word(unsigned bits) { return static_cast<int>(fmt::sr_lanes(bits)); }
  // Threefry calls per operation: the groups 16 consecutive elements from any lane can span.
  static int words(unsigned bits) { return (lanes_per_word(bits) - 1 + kSrqLanes - 1) / lanes_per_word(bits) + 1; }
};

class SrQuantizer {
 public:
  // bits: B, 1..32 (throws hifsim::Error naming --sr-bits otherwise).
  SrQuantizer(SrElem elem, unsigned bits);
  // Throws hifsim::Error when in.lane >= L.
  void compute(const SrqInput& in, SrqStages& s) const;

 private:
  SrElem elem_;
  unsigned bits_;
};

}  // namespace hifsim::dp
