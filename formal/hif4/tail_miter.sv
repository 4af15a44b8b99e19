// tail_miter: the HiF4 tail (s2..s7 of hif4_dot64, rtl/hif4_dot_tail.sv, combinational) against
// its stage contracts from docs/datapath.md section 1 (in their stage order: group sums, shift,
// total, I x SS, exact FP32 -- written in 40-bit integers, the multiply and the rounding from
// the contract, not from the RTL), for every input the front end can give:
//   products p[k] in [-196, 196] (|a| <= 14 each), SS = (4+MA)(4+MB) in [16, 49] and
//   X = EA + EB - 104 in [-104, 22]:
//   I = sum over groups i of (sum of p[8i..8i+7]) * 2^(E1_8A[i] + E1_8B[i]); big = I * SS;
//   out = big * 2^X in FP32 (ref_round), NaN when nan.
// The one-bit cut of I x SS (formal/mutants.py formal.h4_big_width_cut) must refute it.
// The parameters are the tail's (PG products per level-2 group, the stage widths, the bound on
// big): the defaults are hif4_dot64's (hif4.s6_tail); sparse_residual_add instantiates the same
// tail with 4 products per group and narrower stages (sp.tail). The contract side reads PG only:
// its sums are 40-bit whatever the unit's widths.
module tail_miter #(
  parameter int PG      = 8,
  parameter int WG      = hifsim_pkg::HIF4_W_GROUP,
  parameter int WQ      = hifsim_pkg::HIF4_W_SHIFTED,
  parameter int WI      = hifsim_pkg::HIF4_W_I,
  parameter int WBIG    = hifsim_pkg::HIF4_W_BIG,
  parameter int MAX_BIG = hifsim_pkg::HIF4_MAX_BIG
) (
  input logic [8*PG*9-1:0] prod,
  input logic [15:0]     e18,
  input logic [14:0]     side
);
  logic [31:0] out_rtl, out_ref;
  logic up_ready, dn_valid, x_out;
  hif4_dot_tail #(.PG(PG), .WG(WG), .WQ(WQ), .WI(WI), .WBIG(WBIG), .MAX_BIG(MAX_BIG),
                  .CUT_S1(1'b0), .CUT_S2(1'b0), .CUT_S4(1'b0), .CUT_S6(1'b0), .CUT_S7(1'b0)) dut (
    .clk(1'b0), .rst_n(1'b1), .up_valid(1'b1), .up_ready, .prod, .e18, .side, .x_in(1'b0),
    .dn_valid, .dn_ready(1'b1), .out(out_rtl), .x_out);
  logic signed [39:0] i_sum, big;
  logic [31:0] rounded;
  always_comb begin
    logic signed [39:0] p, grp;
    i_sum = '0;
    for (int i = 0; i < 8; i++) begin
      grp = '0;                                   // s2: P[i] = sum of p[PG i .. PG i + PG - 1]
      for (int k = PG*i; k < PG*i + PG; k++) begin
        p = 40'($signed(prod[9*k +: 9]));
        assume (p >= -196 && p <= 196);
        grp = grp + p;
      end
      i_sum = i_sum + (grp <<< (2'(e18[i]) + 2'(e18[8 + i])));  // s3, s4: I = sum of P[i] << (E1_8A + E1_8B)
    end
    big = i_sum * $signed({34'd0, side[5:0]});
    assume (side[5:0] >= 16 && side[5:0] <= 49);
    assume ($signed(side[13:6]) >= -104 && $signed(side[13:6]) <= 22);
  end
  ref_round #(.WS(40), .WE(8), .P(24), .RZ(0)) u_round (.sum(big), .lsb_exp(side[13:6]), .out(rounded));
  always_comb assert (out_rtl == (side[14] ? 32'h7FC00000 : rounded));
endmodule
