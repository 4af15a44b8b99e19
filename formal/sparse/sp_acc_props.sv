// sp_acc_props: sparse_residual_add's accumulate step at any STAGES, checked by ABC pdr
// (unbounded; formal/prove.py), from the unit's contract (the header of
// rtl/sparse_residual_add.sv, docs/datapath.md sections 6-7):
//   x       = init_value with its low 23 - MANT_BITS mantissa bits cleared when acc_start,
//             else the accumulator register
//   out_acc = round_P(x + dot) (hifsim_fp_add at MANT_BITS / ROUND_RZ, proven equal to the IEEE
//             reference ref_fp_add for every operand pair at every pair of parameters: fpadd.*)
//   the register: +0 while and after rst_n is low; after a clock edge with out_valid &&
//             out_ready it holds that cycle's out_acc, otherwise it is unchanged
//   out_dot = the dot product
// where {acc_start, init_value} are the output's transaction's: at STAGES = 0 the inputs of the
// same cycle (the unit is wires: out_valid = in_valid), at STAGES >= 1 the oldest pair of a
// reference queue: each accepted input (in_valid && in_ready) appends its pair, each output
// transfer (out_valid && out_ready) removes the oldest (ctrl.sparse_residual_add.* prove the unit
// delivers its items in order, one per accepted input), so what is checked there is the transport
// of the sideband through the ranks.
// The dot product is cut (formal/jobs.py `connect`: dut.c7_dot driven by the free input `dot`),
// so this holds for every 32-bit dot value (NaN, Inf, subnormal included), not only the ones
// the front end can give, and the data ranks' contents do not matter; sp.front + sp.tail prove
// what that value is at STAGES 0.
// The expected register is the wrapper's own (expect_q), updated from the expected sum: this
// job proves the selection, the register and its enable around the adder, fpadd.* the adder.
module sp_acc_props #(
  parameter int STAGES    = 0,
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
  localparam int D    = STAGES + 1;   // queue slots (at most STAGES items are inside)
  logic        in_ready, out_valid;
  logic [31:0] out_dot, out_acc, acc, x_exp, sum_exp;
  logic [31:0] expect_q = '0;
  logic        first = 1'b1;
  logic [D*33-1:0] q;                 // q[0 +: 33] the oldest pair {acc_start, init_value}
  logic [3:0]  n = '0;                // items inside
  logic [32:0] pair;                  // the output's {acc_start, init_value}
  sparse_residual_add #(.STAGES(STAGES), .MANT_BITS(MANT_BITS), .ROUND_RZ(ROUND_RZ)) dut (
    .clk, .rst_n, .in_valid, .in_ready, .r, .w, .acc_start, .init_value,
    .out_valid, .out_ready, .out_dot, .out_acc, .acc);

  logic push, pop;
  assign push = in_valid && in_ready;
  assign pop  = out_valid && out_ready;
  assign pair = (STAGES == 0) ? {acc_start, init_value} : q[32:0];
  // the register format keeps MANT_BITS mantissa bits: init_value's others are ignored. The
  // register operand is read from the unit's `acc` output, which is asserted equal to expect_q
  // below in every cycle after reset: the same value, and the expected adder then has the
  // unit's adder inputs, so the induction does not have to relate two adders on two registers
  assign x_exp = pair[32] ? (pair[31:0] & (32'hFFFF_FFFF << DROP)) : acc;
  hifsim_fp_add #(.MANT_BITS(MANT_BITS), .ROUND_RZ(ROUND_RZ)) u_add (.x(x_exp), .y(dot), .r(sum_exp));

  always_ff @(posedge clk) begin
    first <= 1'b0;
    if (!rst_n) begin
      expect_q <= 32'd0;
      n        <= '0;
    end else begin
      if (pop) expect_q <= sum_exp;
      for (int i = 0; i < D; i++) begin
        if (pop && i + 1 < D) q[33*i +: 33] <= q[33*(i + 1) +: 33];
        if (push && 4'(i) == n - 4'(pop)) q[33*i +: 33] <= {acc_start, init_value};
      end
      n <= n + 4'(push) - 4'(pop);
    end
  end
  always_comb begin
    if (first) assume (!rst_n);
    if (!rst_n) assert (acc == 32'd0);   // (an asynchronous reset acts at once)
    // STAGES = 0: the transaction at the input is the one at the output, in every cycle
    if (STAGES == 0) assert (out_valid == in_valid);
    if (!first && rst_n) begin
      assert (acc == expect_q);
      if (STAGES > 0) begin
        assert (n <= 4'(STAGES));
        assert (!out_valid || n != 0);
      end
      if (out_valid) assert (out_acc == sum_exp && out_dot == dot);
    end
  end
endmodule
