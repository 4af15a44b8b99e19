// fpadd_miter: hifsim_fp_add (the RTL adder of fp32_acc and sparse_residual_add) against
// ref_fp_add for every pair of binary32 operands (NaN, Inf, subnormal, zero included).
module fpadd_miter #(
  parameter int MANT_BITS = 23,
  parameter int ROUND_RZ  = 0
) (
  input logic [31:0] x,
  input logic [31:0] y
);
  logic [31:0] r_rtl, r_ref;
  hifsim_fp_add #(.MANT_BITS(MANT_BITS), .ROUND_RZ(ROUND_RZ)) dut (.x, .y, .r(r_rtl));
  ref_fp_add #(.MANT_BITS(MANT_BITS), .ROUND_RZ(ROUND_RZ)) ref_model (.x, .y, .r(r_ref));
  always_comb assert (r_rtl == r_ref);
endmodule
