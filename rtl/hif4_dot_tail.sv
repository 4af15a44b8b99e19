// hif4_dot_tail: the back half of the HiF4 dot product (docs/datapath.md section 1, s2..s7),
// shared by hif4_dot64 and sparse_residual_add (whose select-and-multiply front end gives 4
// products per level-2 group instead of 8, so its sums are narrower): the eight group sums, the
// level-2 shifts and the 8 -> 1 sum, the one integer multiply I x SS, and the exact FP32 value
// through the shared rounding module hifsim_round_fp32, and every register rank of the unit
// (after s1, s2, s4, s6 and s7) as the instantiating unit's cut table enables them. The unit
// computes the products and the scale side {nan, X, SS} (s0, s1, s5) and hands them in. XW
// sideband bits (0: none) travel with the data from `x_in` to `x_out`.
// The rounding module is given the package's bounds (|big| <= MAX_BIG, X in HIF4_X_MIN..
// HIF4_X_MAX): every result is then an exact normal FP32, so it builds only the normaliser that
// hif4_dot64's own packing was. Without the bounds it would build the full rounding, which
// synthesis cannot remove (it does not know the ranges): +4.3 % Yosys transistors at STAGES=0.
//
//   in   p[k] (HIF4_W_P-bit, PG per group), {E1_8B, E1_8A}, side = {nan, X, SS}
//   s2   P[i] = sum of p[PG*i .. PG*i+PG-1]     WG-bit
//   s3   Q[i] = P[i] << (E1_8A[i] + E1_8B[i])   WQ-bit
//   s4   I = sum of Q[i]                        WI-bit
//   s6   big = I * SS                           WBIG-bit
//   s7   out = big * 2^X as FP32; NaN -> 0x7FC00000; big == 0 -> +0
module hif4_dot_tail #(
  parameter int PG      = 8,                           // products per level-2 group
  parameter int WG      = hifsim_pkg::HIF4_W_GROUP,    // the unit's stage widths and bound
  parameter int WQ      = hifsim_pkg::HIF4_W_SHIFTED,
  parameter int WI      = hifsim_pkg::HIF4_W_I,
  parameter int WBIG    = hifsim_pkg::HIF4_W_BIG,
  parameter int MAX_BIG = hifsim_pkg::HIF4_MAX_BIG,    // |big| <= MAX_BIG
  parameter int XW      = 0,                           // sideband bits
  parameter bit CUT_S1  = 1'b0,                        // the unit's cut table
  parameter bit CUT_S2  = 1'b1,
  parameter bit CUT_S4  = 1'b1,
  parameter bit CUT_S6  = 1'b1,
  parameter bit CUT_S7  = 1'b0,
  localparam int NG     = hifsim_pkg::HIF4_L2_GROUPS,
  localparam int WP     = hifsim_pkg::HIF4_W_P,
  localparam int WSIDE  = 1 + hifsim_pkg::HIF4_W_X + hifsim_pkg::HIF4_W_SS
) (
  input  logic                       clk,
  input  logic                       rst_n,
  input  logic                       up_valid,
  output logic                       up_ready,
  input  logic [NG*PG*WP-1:0]        prod,   // p[k] at [WP*k +: WP]
  input  logic [15:0]                e18,    // {E1_8B, E1_8A}
  input  logic [WSIDE-1:0]           side,   // {nan, X, SS}
  input  logic [((XW > 0) ? XW : 1)-1:0] x_in,
  output logic                       dn_valid,
  input  logic                       dn_ready,
  output logic [31:0]                out,
  output logic [((XW > 0) ? XW : 1)-1:0] x_out
);
  localparam int WSS   = hifsim_pkg::HIF4_W_SS;
  localparam int WX    = hifsim_pkg::HIF4_W_X;
  localparam int NP    = NG*PG;

  // The rank after s1: {sideband, nan, X, SS, E1_8B, E1_8A, p[NP-1..0]}.
  localparam int W_C1 = XW + WSIDE + 16 + NP*WP;
  logic [W_C1-1:0] c1_in, c1_data;
  logic            c1_valid, c1_ready;
  if (XW > 0) begin : g_x1
    assign c1_in = {x_in[XW-1:0], side, e18, prod};
  end else begin : g_n1
    assign c1_in = {side, e18, prod};
    logic unused_x;  // no sideband: x_in is not used
    assign unused_x = &{1'b0, x_in};
  end
  hifsim_pipe_reg #(.W(W_C1), .EN(CUT_S1)) u_cut_s1 (
    .clk, .rst_n,
    .up_valid, .up_ready, .up_data(c1_in),
    .dn_valid(c1_valid), .dn_ready(c1_ready), .dn_data(c1_data)
  );

  // ------------------------------------------------------------------------------------
  // s2: the eight group sums of PG products.
  // ------------------------------------------------------------------------------------
  logic [NG*WG-1:0] s2_group;  // P[i] at [WG*i +: WG]
  always_comb begin
    logic [WG-1:0] sum;
    logic [WP-1:0] p;
    for (int i = 0; i < NG; i++) begin
      sum = '0;
      for (int k = PG*i; k < PG*i + PG; k++) begin
        p   = c1_data[WP*k +: WP];
        sum = sum + {{(WG-WP){p[WP-1]}}, p};
      end
      s2_group[WG*i +: WG] = sum;
    end
  end

  // The rank after s2: {sideband, nan, X, SS, E1_8B, E1_8A, P[7..0]}.
  localparam int W_C2 = XW + WSIDE + 16 + NG*WG;
  logic [W_C2-1:0] c2_in, c2_data;
  logic            c2_valid, c2_ready;
  assign c2_in = {c1_data[W_C1-1 -: XW+WSIDE+16], s2_group};
  hifsim_pipe_reg #(.W(W_C2), .EN(CUT_S2)) u_cut_s2 (
    .clk, .rst_n,
    .up_valid(c1_valid), .up_ready(c1_ready), .up_data(c2_in),
    .dn_valid(c2_valid), .dn_ready(c2_ready), .dn_data(c2_data)
  );

  // ------------------------------------------------------------------------------------
  // s3 level-2 shifts and s4 the 8 -> 1 sum.
  // ------------------------------------------------------------------------------------
  logic [WI-1:0] s4_i;
  always_comb begin
    logic [WG-1:0] g;
    logic [WQ-1:0] q;
    logic [WI-1:0] sum;
    logic [15:0]   e18_2;  // {E1_8B, E1_8A}
    e18_2 = c2_data[NG*WG +: 16];
    sum = '0;
    for (int i = 0; i < NG; i++) begin
      g = c2_data[WG*i +: WG];
      q = {{(WQ-WG){g[WG-1]}}, g};
      // shift by E1_8A[i] + E1_8B[i] (0, 1 or 2)
      case ({e18_2[i], e18_2[8+i]})
        2'b00:   q = q;
        2'b11:   q = q << 2;
        default: q = q << 1;
      endcase
      sum = sum + {{(WI-WQ){q[WQ-1]}}, q};
    end
    s4_i = sum;
  end

  // The rank after s4: {sideband, nan, X, SS, I}.
  localparam int W_C4 = XW + WSIDE + WI;
  logic [W_C4-1:0] c4_in, c4_data;
  logic            c4_valid, c4_ready;
  assign c4_in = {c2_data[W_C2-1 -: XW+WSIDE], s4_i};
  hifsim_pipe_reg #(.W(W_C4), .EN(CUT_S4)) u_cut_s4 (
    .clk, .rst_n,
    .up_valid(c2_valid), .up_ready(c2_ready), .up_data(c4_in),
    .dn_valid(c4_valid), .dn_ready(c4_ready), .dn_data(c4_data)
  );

  // ------------------------------------------------------------------------------------
  // s6: the one integer multiply I x SS.
  // ------------------------------------------------------------------------------------
  logic [WBIG-1:0] s6_big;
  always_comb begin
    logic [WI-1:0]  i_sum;
    logic [WSS-1:0] ss;
    i_sum  = c4_data[WI-1:0];
    ss     = c4_data[WI +: WSS];
    s6_big = WBIG'($signed({{(WBIG-WI){i_sum[WI-1]}}, i_sum}) * $signed({{(WBIG-WSS){1'b0}}, ss}));
  end

  // The rank after s6: {sideband, nan, X, big}.
  localparam int W_C6 = XW + 1 + WX + WBIG;
  logic [W_C6-1:0] c6_in, c6_data;
  logic            c6_valid, c6_ready;
  if (XW > 0) begin : g_x6
    assign c6_in = {c4_data[W_C4-1 -: XW], c4_data[WI+WSS +: 1+WX], s6_big};
  end else begin : g_n6
    assign c6_in = {c4_data[WI+WSS +: 1+WX], s6_big};
  end
  hifsim_pipe_reg #(.W(W_C6), .EN(CUT_S6)) u_cut_s6 (
    .clk, .rst_n,
    .up_valid(c4_valid), .up_ready(c4_ready), .up_data(c6_in),
    .dn_valid(c6_valid), .dn_ready(c6_ready), .dn_data(c6_data)
  );

  // ------------------------------------------------------------------------------------
  // s7: big * 2^X as FP32, exact and normal by the bounds.
  // ------------------------------------------------------------------------------------
  logic [31:0] s7_exact, s7_out;
  hifsim_round_fp32 #(.WS(WBIG), .WE(WX), .MAG_BITS($clog2(MAX_BIG + 1)),
                      .LSB_EXP_MIN(hifsim_pkg::HIF4_X_MIN), .LSB_EXP_MAX(hifsim_pkg::HIF4_X_MAX)) u_round (
    .sum(c6_data[WBIG-1:0]), .lsb_exp(c6_data[WBIG +: WX]), .out(s7_exact)
  );
  assign s7_out = c6_data[WBIG + WX] ? hifsim_pkg::FP32_QNAN : s7_exact;

  // The rank after s7 (the output register): {sideband, out}.
  localparam int W_C7 = XW + 32;
  logic [W_C7-1:0] c7_in, c7_data;
  if (XW > 0) begin : g_x7
    assign c7_in = {c6_data[W_C6-1 -: XW], s7_out};
    assign x_out = c7_data[W_C7-1 -: XW];
  end else begin : g_n7
    assign c7_in = s7_out;
    assign x_out = '0;
  end
  hifsim_pipe_reg #(.W(W_C7), .EN(CUT_S7)) u_cut_s7 (
    .clk, .rst_n,
    .up_valid(c6_valid), .up_ready(c6_ready), .up_data(c7_in),
    .dn_valid, .dn_ready, .dn_data(c7_data)
  );
  assign out = c7_data[31:0];
endmodule
