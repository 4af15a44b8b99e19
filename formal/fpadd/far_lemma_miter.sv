// far_lemma_miter: the far-operand step of ref_fp_add checked by the solver instead of by hand.
// ref_fp_add with its 27-binade field (the reference of the fpadd.* jobs, a sticky bit appended
// for operands further apart) against ref_fp_add with a KBIG-binade field, for every pair of
// binary32 operands. The KBIG field is exact for operands up to KBIG binades apart, so equality
// proves the 27-binade reference exact-then-rounded for those; KBIG = 253 (every pair: exponent
// fields 1..254) makes it the fully exact reference.
module far_lemma_miter #(
  parameter int MANT_BITS = 23,
  parameter int ROUND_RZ  = 0,
  parameter int KBIG      = 60
) (
  input logic [31:0] x,
  input logic [31:0] y
);
  logic [31:0] r_keep27, r_big;
  ref_fp_add #(.MANT_BITS(MANT_BITS), .ROUND_RZ(ROUND_RZ), .KEEP(27))   keep27 (.x, .y, .r(r_keep27));
  ref_fp_add #(.MANT_BITS(MANT_BITS), .ROUND_RZ(ROUND_RZ), .KEEP(KBIG)) big    (.x, .y, .r(r_big));
  always_comb assert (r_keep27 == r_big);
endmodule
