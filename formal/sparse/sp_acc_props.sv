// sp_acc_props: sparse_residual_add's accumulate step at STAGES = 0, checked by ABC pdr
// (unbounded; formal/prove.py), from the unit's contract (the header of
// rtl/sparse_residual_add.sv, docs/datapath.md sections 6-7):
//   x       = init_value with its low 23 - MANT_BITS mantissa bits cleared when acc_start,
//             else the accumulator register
//   out_acc = round_P(x + dot) (hifsim_fp_add at MANT_BITS / ROUND_RZ, proven equal to the IEEE
//             reference ref_fp_add for every operand pair at every pair of parameters: fpadd.*)
//   the register: +0 while and after rst_n is low; after a clock edge with out_valid &&
//             out_ready it holds that cycle's out_acc, otherwise it is unchanged
//   out_dot = the dot product
// The dot product is cut (formal/jobs.py `connect`: dut.c7_dot driven by the free input `dot`),
// so this holds for every 32-bit dot value (NaN, Inf, subnormal included), not only the ones
// the front end can give; sp.front + sp.tail prove what that value is. acc_start and
// init_value still travel through the unit's tail as its sideband.
// The expected register is the wrapper's own (expect_q), updated from the expected sum: this
// job proves the selection, the register and its enable around the adder, fpadd.* the adder.
module sp_acc_props #(
  parameter int MANT_BITS = 23,
  parameter int ROUND_RZ  = 0
) (
  input logic         clk,
  input logic         rst_n,
  input logic         in_valid,
  input logic         out_ready,
  input logic [223:0] r,
  input logic [287:0] w,
  input logic         acc_start,
  input logic [31:0]  init_value,
  input logic [31:0]  dot          // drives the cut dut.c7_dot
);
  localparam int DROP = 23 - MANT_BITS;
  logic        in_ready, out_valid;
  logic [31:0] out_dot, out_acc, acc, x_exp, sum_exp;
  logic [31:0] expect_q = '0;
  logic        first = 1'b1;
  sparse_residual_add #(.STAGES(0), .MANT_BITS(MANT_BITS), .ROUND_RZ(ROUND_RZ)) dut (
    .clk, .rst_n, .in_valid, .in_ready, .r, .w, .acc_start, .init_value,
    .out_valid, .out_ready, .out_dot, .out_acc, .acc);

  // the register format keeps MANT_BITS mantissa bits: init_value's others are ignored. The
  // register operand is read from the unit's `acc` output, which is asserted equal to expect_q
  // below in every cycle after reset: the same value, and the expected adder then has the
  // unit's adder inputs, so the induction does not have to relate two adders on two registers
  assign x_exp = acc_start ? (init_value & (32'hFFFF_FFFF << DROP)) : acc;
  hifsim_fp_add #(.MANT_BITS(MANT_BITS), .ROUND_RZ(ROUND_RZ)) u_add (.x(x_exp), .y(dot), .r(sum_exp));

  always_ff @(posedge clk) begin
    first    <= 1'b0;
    expect_q <= !rst_n ? 32'd0 : (in_valid && out_ready) ? sum_exp : expect_q;
  end
  always_comb begin
    if (first) assume (!rst_n);
    if (!rst_n) assert (acc == 32'd0);               // (an asynchronous reset acts at once)
    if (!first && rst_n) assert (acc == expect_q);
    // STAGES = 0: the transaction at the input is the one at the output
    assert (out_valid == in_valid);
    if (rst_n && out_valid) assert (out_acc == sum_exp && out_dot == dot);
  end
endmodule
