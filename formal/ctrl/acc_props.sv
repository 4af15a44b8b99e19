// acc_props: fp32_acc's control, checked by ABC pdr (unbounded; formal/prove.py):
//   clear > init > add > hold: the register after a clock edge is +0 after clear, round_P of
//   init_value after init, round_P(acc + addend) after add_valid, unchanged otherwise;
//   reset: +0 while and after rst_n is low; the register always holds a value of the P-bit
//   format (its low 23 - MANT_BITS mantissa bits are 0).
// The expected value uses a second hifsim_fp_add (proven equal to the IEEE reference by the
// fpadd.* jobs): this job proves the control around the adder, the fpadd jobs the adder.
module acc_props #(
  parameter int MANT_BITS = 23,
  parameter int ROUND_RZ  = 0
) (
  input logic        clk,
  input logic        rst_n,
  input logic        clear,
  input logic        init,
  input logic [31:0] init_value,
  input logic        add_valid,
  input logic [31:0] addend
);
  logic [31:0] acc, add_r, init_r, expect_d;
  logic [31:0] expect_q = '0;
  logic        first = 1'b1;
  fp32_acc #(.MANT_BITS(MANT_BITS), .ROUND_RZ(ROUND_RZ)) dut (
    .clk, .rst_n, .clear, .init, .init_value, .add_valid, .addend, .acc);
  hifsim_fp_add #(.MANT_BITS(MANT_BITS), .ROUND_RZ(ROUND_RZ)) u_add (.x(acc), .y(addend), .r(add_r));
  hifsim_fp_add #(.MANT_BITS(MANT_BITS), .ROUND_RZ(ROUND_RZ)) u_init (.x(init_value), .y(32'h8000_0000), .r(init_r));
  always_comb begin
    if (clear)          expect_d = 32'd0;
    else if (init)      expect_d = init_r;
    else if (add_valid) expect_d = add_r;
    else                expect_d = acc;
  end
  always_ff @(posedge clk) begin
    first    <= 1'b0;
    expect_q <= rst_n ? expect_d : 32'd0;
  end
  always_comb begin
    if (first) assume (!rst_n);
    if (!rst_n) assert (acc == 32'd0);
    if (!first && rst_n) assert (acc == expect_q);  // (an asynchronous reset acts at once)
    if (MANT_BITS < 23) assert (acc[(MANT_BITS < 23 ? 22 - MANT_BITS : 0):0] == '0);
  end
endmodule
