// The 16 x 16 Hadamard transform unit (rtl/hadamard16.sv): one row block of the random Hadamard
// transform of the training recipes (formats/hadamard.hpp, docs/training.md "Random Hadamard
// transform") with N = 16, as hardware computes it, every stage's value kept for the co-simulation
// and the cost trace.
//
//   s0   v_j = x_j with its sign bit flipped where sign bit j is 1 (exact)
//   b1..b4  the butterfly stages h = 1, 2, 4, 8: for every i with (i & h) == 0,
//        (v_i, v_{i+h}) <- (v_i + v_{i+h}, v_i - v_{i+h}), FP32 additions rounded to nearest even
//   sc   y_j = v_j * 0.25 (RNE_fp32(1/sqrt(16)) is exact; the product rounds only when it is
//        subnormal)
//
// The sign bits are an input: they are rht_sign_bits(spec) of the GEMM (Threefry-2x32-20 of the
// seed, formats/hadamard.cpp), one definition loaded into the unit as a per-GEMM constant, so the
// unit never restates the generator. The one thing the unit adds to the definition: every NaN it
// produces is the canonical 0x7FC00000 (IEEE-754 leaves the payload open and the host FPU picks
// one; hifsim_fp_add, the adder the RTL shares with fp32_acc, gives the canonical NaN). Every other
// output is bit-identical to fmt::rht_rows_reference (tests/datapath/test_hadamard16.cpp).
#pragma once
#include <cstdint>

namespace hifsim::dp {

constexpr int kHad16 = 16;        // elements per transform
constexpr int kHad16Levels = 4;   // butterfly stages, log2(16)

struct Hadamard16Stages {
  uint32_t v0[kHad16] = {};                  // after the sign flips
  uint32_t b[kHad16Levels][kHad16] = {};     // after butterfly stage l (h = 2^l)
  uint32_t out[kHad16] = {};                 // after the scaling
};

class Hadamard16 {
 public:
  // x: 16 FP32 bit patterns; signs: bit j negates element j. Fills `st` (may be null) and `out`.
  static void compute(const uint32_t* x, uint16_t signs, uint32_t* out, Hadamard16Stages* st = nullptr);
  // The scaling of one value: v * 0.25 with NaN canonical (exposed for the bench's bins).
  static uint32_t scale(uint32_t v);
  // One butterfly add: a + b (sub: a - b) in FP32 RNE, NaN canonical.
  static uint32_t add(uint32_t a, uint32_t b, bool sub);
};

}  // namespace hifsim::dp
