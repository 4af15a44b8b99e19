// fpadd_miter: hifsim_fp_add (the RTL adder of fp32_acc and sparse_residual_add) against
// ref_fp_add for every pair of binary32 operands whose exponent distance d = |ex - ey| (fields,
// subnormals and zero at 1) lies in [DLO, DHI]; NaN and Inf operands (field 255) in every case.
// The jobs (formal/jobs.py) use the defaults, every pair; DLO/DHI are there to split a proof by
// distance should one not close. The case is written into the property (no assume), so the miter
// is a plain combinational AIG whose one output must be 0.
module fpadd_miter #(
  parameter int MANT_BITS = 23,
  parameter int ROUND_RZ  = 0,
  parameter int DLO       = 0,
  parameter int DHI       = 255
) (
  input logic [31:0] x,
  input logic [31:0] y
);
  logic [31:0] r_rtl, r_ref;
  logic [7:0]  fx, fy, d;
  logic        in_case;
  hifsim_fp_add #(.MANT_BITS(MANT_BITS), .ROUND_RZ(ROUND_RZ)) dut (.x, .y, .r(r_rtl));
  ref_fp_add #(.MANT_BITS(MANT_BITS), .ROUND_RZ(ROUND_RZ)) ref_model (.x, .y, .r(r_ref));
  assign fx = (x[30:23] == 0) ? 8'd1 : x[30:23];
  assign fy = (y[30:23] == 0) ? 8'd1 : y[30:23];
  assign d  = (fx > fy) ? fx - fy : fy - fx;
  assign in_case = fx == 8'd255 || fy == 8'd255 || (d >= DLO && d <= DHI);
  always_comb assert (!in_case || r_rtl == r_ref);
endmodule
