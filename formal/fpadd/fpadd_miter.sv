// fpadd_miter: hifsim_fp_add (the RTL adder of fp32_acc and sparse_residual_add) against
// ref_fp_add for every pair of binary32 operands whose exponent fields (subnormals and zero at 1)
// lie in [max(EBASE,1), max(EBASE,1) + EWIN]; NaN and Inf operands (field 255) are always allowed.
module fpadd_miter #(
  parameter int MANT_BITS = 23,
  parameter int ROUND_RZ  = 0,
  parameter int EBASE     = 0,
  parameter int EWIN      = 254
) (
  input logic [31:0] x,
  input logic [31:0] y
);
  localparam int EB = (EBASE < 1) ? 1 : EBASE;
  logic [31:0] r_rtl, r_ref;
  logic [8:0]  fx, fy;
  hifsim_fp_add #(.MANT_BITS(MANT_BITS), .ROUND_RZ(ROUND_RZ)) dut (.x, .y, .r(r_rtl));
  ref_fp_add #(.MANT_BITS(MANT_BITS), .ROUND_RZ(ROUND_RZ), .EBASE(EBASE), .EWIN(EWIN)) ref_model (.x, .y, .r(r_ref));
  assign fx = (x[30:23] == 0) ? 9'd1 : {1'b0, x[30:23]};
  assign fy = (y[30:23] == 0) ? 9'd1 : {1'b0, y[30:23]};
  always_comb begin
    assume (fx == 255 || (fx >= EB && fx <= EB + EWIN));
    assume (fy == 255 || (fy >= EB && fy <= EB + EWIN));
    assert (r_rtl == r_ref);
  end
endmodule
