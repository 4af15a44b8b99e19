// The hardware of the 16 x 16 Hadamard transform unit (hadamard16.hpp; rtl/hadamard16.sv): its
// components, the candidate pipeline ranks and the cut table. Every value is an FP32 word, so the
// widths are FP32's: 16 lanes x 32 bits through every rank.
#include "datapath/hadamard16.hpp"
#include "datapath/hw.hpp"

namespace hifsim::dp::hw {

namespace {
constexpr int kWord = 32;                 // FP32
constexpr int kRow = kHad16 * kWord;      // one row block of 16 values
}  // namespace

UnitDesc describe_hadamard16(int stages) {
  UnitDesc d;
  d.rtl_top = "hadamard16";
  d.rtl_params = {{"STAGES", stages}};
  d.label = "hadamard 16x16";
  d.stages = stages;
  d.cut_rule = "hadamard16";
  // Candidate ranks after the butterfly stages b1..b4 and after the scaling (the output register).
  // A butterfly stage is one FP32 adder deep and the scaling less, so 1 rank splits 2 | 2 + sc,
  // 2 ranks 1 | 2 | 1 + sc, 3 ranks 1 | 1 | 1 | 1 + sc, 4 ranks every stage, 5 the output too.
  d.cut_masks = {0b00000, 0b00010, 0b00101, 0b00111, 0b01111, 0b11111};
  d.cuts = {{"b1", "u_cut_b1", kRow}, {"b2", "u_cut_b2", kRow}, {"b3", "u_cut_b3", kRow},
            {"b4", "u_cut_b4", kRow}, {"sc", "u_cut_sc", kRow}};
  const std::string n = std::to_string(kHad16);
  d.parts = {
      {"s0.sign", Kind::mux, 1, 2, kHad16, false, true, "sign flip of each input by its sign bit (XOR)"},
      {"b.fpadd", Kind::fpadd, 23, 0, kHad16 * kHad16Levels, false, false,
       std::to_string(kHad16Levels) + " butterfly stages x " + n + " FP32 RNE adders (8 add, 8 subtract; hifsim_fp_add)"},
      {"sc.norm", Kind::norm, 25, 0, kHad16, false, true, "scaling by 2^-2: leading one and shift (hifsim_round_fp32)"},
      {"sc.round", Kind::add, 31, 0, kHad16, false, true, "scaling: RNE increment of {exponent, mantissa} (subnormal results)"},
      {"sc.exp", Kind::add, 9, 0, kHad16, false, true, "scaling: exponent - 2"},
  };
  d.operand_bits = kRow + kHad16;  // the row and its sign bits
  d.rtl_signals = {{"v0", kRow}, {"b1", kRow}, {"b2", kRow}, {"b3", kRow}, {"b4", kRow}, {"y", kRow}};
  d.stage_table = {
      {"s0", "`v[j] = x[j]` with the sign flipped where `signs[j]`", "any FP32", "16 x 32"},
      {"b1..b4", "`(v[i], v[i+h]) = (v[i] + v[i+h], v[i] - v[i+h])`, h = 1, 2, 4, 8, FP32 RNE", "any FP32 (NaN canonical)",
       "16 x 32 per stage"},
      {"sc", "`y[j] = v[j] * 0.25`, RNE (rounds only to a subnormal)", "any FP32 (NaN canonical)", "16 x 32"},
  };
  return d;
}

}  // namespace hifsim::dp::hw
