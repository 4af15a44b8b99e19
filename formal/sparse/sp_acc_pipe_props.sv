// sp_acc_pipe_props: sparse_residual_add's accumulate step at STAGES >= 1 (ABC pdr, unbounded):
// the property of sp_acc_props.sv with the transaction's {acc_start, init_value} taken from a
// reference queue instead of the inputs: each accepted input (in_valid && in_ready) appends its
// pair, each output transfer (out_valid && out_ready) removes the oldest, and while out_valid the
// oldest pair is the one the output belongs to (ctrl.sparse_residual_add.* prove the unit
// delivers its items in order, one per accepted input). Asserted: out_acc = hifsim_fp_add(x,
// dot) with x from that pair and the register, the register as in sp_acc_props. The dot is cut
// as there (dut.c7_dot driven by the free input `dot`), so the data ranks' contents do not
// matter; what is checked is the transport of the sideband through the ranks.
module sp_acc_pipe_props #(
  parameter int STAGES    = 3,
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
  sparse_residual_add #(.STAGES(STAGES), .MANT_BITS(MANT_BITS), .ROUND_RZ(ROUND_RZ)) dut (
    .clk, .rst_n, .in_valid, .in_ready, .r, .w, .acc_start, .init_value,
    .out_valid, .out_ready, .out_dot, .out_acc, .acc);

  logic push, pop;
  assign push = in_valid && in_ready;
  assign pop  = out_valid && out_ready;
  // as in sp_acc_props: the register operand read from the unit's `acc`, asserted = expect_q
  assign x_exp = q[32] ? (q[31:0] & (32'hFFFF_FFFF << DROP)) : acc;
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
    if (!rst_n) assert (acc == 32'd0);
    if (!first && rst_n) begin
      assert (acc == expect_q);
      assert (n <= 4'(STAGES));
      assert (!out_valid || n != 0);
      if (out_valid) assert (out_acc == sum_exp && out_dot == dot);
    end
  end
endmodule
