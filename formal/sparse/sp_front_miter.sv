// sp_front_miter: sparse_residual_add's front end (s0 with the 2:4 select, s1, s5) against the
// select-and-multiply definition (formal/ref/ref_sp_front.sv), for every compressed residual r
// and every weight unit w (all 224 + 288 bits free). The unit at STAGES = 0 must equal that
// front end followed by the unit's own tail instance (hif4_dot_tail at the sparse widths, the
// same module on both sides). With sp.tail (the tail = its stage contracts for every input
// inside the bounds asserted here) this composes to
//   out_dot = RNE_fp32(sum_i (sum_{j = 4i..4i+3} p[j]) * 2^(E1_8r[i] + E1_8w[i]) * SS * 2^X)
// i.e. the exact select-and-multiply dot product, rounded once (NaN, zero as the definition);
// sp.decomp_lemma relates the group sums to the dense HiF4 unit the residual decompresses to.
module sp_front_miter (
  input logic [223:0] r,
  input logic [287:0] w
);
  logic [31:0] dot_rtl, dot_ref, acc_unused, out_acc_unused;
  logic        in_ready, out_valid, up_ready, dn_valid, x_out;
  sparse_residual_add #(.STAGES(0)) dut (
    .clk(1'b0), .rst_n(1'b1), .in_valid(1'b1), .in_ready, .r, .w, .acc_start(1'b1), .init_value(32'd0),
    .out_valid, .out_ready(1'b1), .out_dot(dot_rtl), .out_acc(out_acc_unused), .acc(acc_unused));

  logic [32*9-1:0]   prod;
  logic [15:0]       e18;
  logic [14:0]       side;   // {nan, X (8 bits), SS (6 bits)}
  logic signed [9:0] x;
  ref_sp_front front (.r, .w, .prod, .e18, .side, .x_wide(x));
  always_comb begin
    // the tail's contract (sp.tail) holds for |p| <= 196, SS in [16, 49], X in [-104, 22]
    for (int j = 0; j < 32; j++)
      assert ($signed(prod[9*j +: 9]) >= -196 && $signed(prod[9*j +: 9]) <= 196);
    assert (side[5:0] >= 16 && side[5:0] <= 49);
    assert (x >= -104 && x <= 22);
  end
  hif4_dot_tail #(.PG(4), .WG(hifsim_pkg::SP_W_GROUP), .WQ(hifsim_pkg::SP_W_SHIFTED), .WI(hifsim_pkg::SP_W_I),
                  .WBIG(hifsim_pkg::SP_W_BIG), .MAX_BIG(hifsim_pkg::SP_MAX_BIG), .CUT_S1(1'b0), .CUT_S2(1'b0),
                  .CUT_S4(1'b0), .CUT_S6(1'b0), .CUT_S7(1'b0)) tail (
    .clk(1'b0), .rst_n(1'b1), .up_valid(1'b1), .up_ready, .prod, .e18, .side, .x_in(1'b0),
    .dn_valid, .dn_ready(1'b1), .out(dot_ref), .x_out);
  always_comb assert (dot_rtl == dot_ref);
endmodule
