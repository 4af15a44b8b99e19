// hif4_array_pe: one processing element of the calibration array (rtl/array/hif4_array_top.sv):
// a hif4_dot64 and an FP32 accumulator register.
//
// The accumulator adds every dot-product result (out_valid, STAGES cycles after in_valid; the
// unit is never back-pressured). On the first block of a pass it starts from `base` instead of
// its register: +0 for the first K tile of an output, else the partial sum saved in the
// accumulator buffer -- acc = fl(base + dot), which is exactly dp::Accumulator restored with
// reset(base) followed by add(dot) (FP32 round trip is exact). `sum` is the value the register
// takes in this cycle; the top writes it through to the accumulator buffer on the last block.
module hif4_array_pe #(
  parameter int STAGES = 3
) (
  input  logic         clk,
  input  logic         rst_n,
  input  logic         in_valid,
  input  logic [287:0] a,
  input  logic [287:0] b,
  input  logic         first,     // aligned with out_valid
  input  logic [31:0]  base,      // aligned with out_valid
  output logic         out_valid,
  output logic [31:0]  sum
);
  // One C++ class for all R x C instances in the Verilated model (16 x less generated code).
  /*verilator no_inline_module*/
  logic        dot_valid, dot_in_ready;
  logic [31:0] dot, acc_q, x;

  hif4_dot64 #(.STAGES(STAGES)) u_dot (
    .clk, .rst_n,
    .in_valid(in_valid), .in_ready(dot_in_ready), .a(a), .b(b),
    .out_valid(dot_valid), .out_ready(1'b1), .out(dot)
  );

  assign x = first ? base : acc_q;
  hifsim_fp_add #(.MANT_BITS(23), .ROUND_RZ(0)) u_add (.x(x), .y(dot), .r(sum));

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n)         acc_q <= '0;
    else if (dot_valid) acc_q <= sum;
  end

  assign out_valid = dot_valid;
  // Never back-pressured: in_ready is always 1.
  logic unused_ok;
  assign unused_ok = &{1'b0, dot_in_ready};
endmodule
