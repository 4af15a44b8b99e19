// mxfp8_dot32: the MXFP8 32-wide dot product of docs/datapath.md section 3, bit-exact with
// hifsim::dp::Mxfp8Dot32 (model/datapath/mxfp8_dot.cpp): one 32-element block of E4M3 (E5M2 = 0) or
// E5M2 (E5M2 = 1) elements with one E8M0 scale per operand; the exact sum rounded once to FP32.
// Plain fp8-e4m3 / fp8-e5m2 GEMMs use this unit with both scales 127.
//
// Operands (packed code vectors, little-endian):
//   a, b    [255:0]  32 FP8 codes, element k at [8k+7 : 8k]
//   sa, sb  [7:0]    the E8M0 block scales (0xFF = NaN)
//
// Datapath (widths from hifsim_pkg):
//   s0  element sig * 2^t (E4M3: sig <= 15, t + 9 in 0..14; E5M2: sig <= 7, t + 16 in 0..29) and
//       its class (E4M3: NaN 0x7F/0xFF; E5M2: NaN, Inf)       (hifsim_pkg::e4m3_dec / e5m2_dec)
//   s1  products sigA*sigB (8 / 6 bits), shift = (tA + tB) - min_exp (0..28 / 0..58), sign;
//       specials: NaN in, Inf x 0 -> NaN; Inf products set +Inf / -Inf flags
//   s2  exact sum of the 32 aligned products, LSB weight min_exp = MX8_E4M3_MIN_EXP /
//       MX8_E5M2_MIN_EXP, MX8_E4M3_W_SUM / MX8_E5M2_W_SUM bits two's complement (docs/datapath.md
//       gives the magnitude, one bit less)
//   s3  X = xa + xb - MX8_EXP_OFFSET (computed in the first stage and carried along)
//   s4  out = RNE_fp32(sum * 2^(min_exp + X))   (hifsim_round_fp32: subnormals, overflow to Inf);
//       NaN (scale 0xFF, NaN product, or both +Inf and -Inf) -> 0x7FC00000; else +-Inf if an
//       infinite product; an exactly zero sum -> +0
//
// Pipeline: STAGES register ranks (hifsim_pipe_reg) at the cut points after s1, s2 and s4 (the
// output register) that hifsim_pkg::mxfp8_dot32_cut selects for each STAGES
// (mxfp8_dot32_stages_ok: the range); both are generated from the unit's description.
// Latency = STAGES cycles, one dot product per cycle, the handshake of hif4_dot64.
module mxfp8_dot32 #(
  parameter int E5M2   = 0,   // 0: E4M3 elements, 1: E5M2 elements
  parameter int STAGES = 2
) (
  input  logic         clk,
  input  logic         rst_n,
  input  logic         in_valid,
  output logic         in_ready,
  input  logic [255:0] a,
  input  logic [255:0] b,
  input  logic [7:0]   sa,
  input  logic [7:0]   sb,
  output logic         out_valid,
  input  logic         out_ready,
  output logic [31:0]  out
);
  localparam int NE   = 32;
  localparam int SW   = (E5M2 != 0) ? 3 : 4;          // element significand bits
  localparam int OW   = (E5M2 != 0) ? 5 : 4;          // element exponent offset bits
  localparam int PW   = 2*SW;                          // product significand bits
  localparam int HW   = OW + 1;                        // product shift bits (0..28 / 0..58)
  localparam int WSUM = (E5M2 != 0) ? hifsim_pkg::MX8_E5M2_W_SUM : hifsim_pkg::MX8_E4M3_W_SUM;
  localparam int MINE = (E5M2 != 0) ? hifsim_pkg::MX8_E5M2_MIN_EXP : hifsim_pkg::MX8_E4M3_MIN_EXP;
  localparam int WL   = 1 + PW + HW;                   // one lane: {neg, psig, shift}
  localparam int WX   = 11;                            // X and the LSB exponent, signed
  localparam int WSIDE = 4 + WX;                       // {scale nan, nan, pinf, ninf, X}

  if (E5M2 < 0 || E5M2 > 1) begin : g_bad_elem
    $error("mxfp8_dot32: E5M2 must be 0 (E4M3) or 1 (E5M2)");
  end
  if (!hifsim_pkg::mxfp8_dot32_stages_ok(STAGES)) begin : g_bad_stages
    $error("mxfp8_dot32: STAGES must be in 0..3");
  end

  // Cut points selected by STAGES (see the header): hifsim_pkg::mxfp8_dot32_cut, generated from the unit's
  // description in model/datapath (tests/hw checks the elaborated ranks against it).
  localparam bit CUT_S1 = hifsim_pkg::mxfp8_dot32_cut(STAGES, 1);
  localparam bit CUT_S2 = hifsim_pkg::mxfp8_dot32_cut(STAGES, 2);
  localparam bit CUT_S4 = hifsim_pkg::mxfp8_dot32_cut(STAGES, 3);

  // Element decode: {nan, inf, neg, sig (SW bits), t - tmin (OW bits)}.
  function automatic logic [3+SW+OW-1:0] dec(input logic [7:0] c);
    logic [9:0]  d4;
    logic [10:0] d5;
    if (E5M2 != 0) begin
      d5  = hifsim_pkg::e5m2_dec(c);
      dec = (3+SW+OW)'(d5);
    end else begin
      d4  = hifsim_pkg::e4m3_dec(c);
      dec = (3+SW+OW)'({d4[9], 1'b0, d4[8:0]});
    end
  endfunction

  // ------------------------------------------------------------------------------------
  // Stage 1 (combinational): s0, s1 and s3.
  // ------------------------------------------------------------------------------------
  logic [NE*WL-1:0] s1_lane;
  logic [WSIDE-1:0] s1_side;
  always_comb begin
    logic [3+SW+OW-1:0] da, db;
    logic               na, nb, ia, ib, sga, sgb, za, zb, num, pnan, pinf, ninf;
    logic [SW-1:0]      ga, gb;
    logic [OW-1:0]      oa, ob;
    pnan = 1'b0;
    pinf = 1'b0;
    ninf = 1'b0;
    for (int k = 0; k < NE; k++) begin
      da = dec(a[8*k +: 8]);
      db = dec(b[8*k +: 8]);
      {na, ia, sga, ga, oa} = da;
      {nb, ib, sgb, gb, ob} = db;
      za  = !na && !ia && (ga == '0);
      zb  = !nb && !ib && (gb == '0);
      num = !na && !nb && !ia && !ib;
      // NaN in, or Inf x 0; otherwise an infinite product sets its signed flag.
      if (na || nb || (ia && zb) || (ib && za)) pnan = 1'b1;
      else if (ia || ib) begin
        if (sga ^ sgb) ninf = 1'b1;
        else           pinf = 1'b1;
      end
      s1_lane[WL*k +: WL] = {sga ^ sgb, num ? PW'({{SW{1'b0}}, ga} * {{SW{1'b0}}, gb}) : PW'(0),
                             num ? HW'({1'b0, oa} + {1'b0, ob}) : HW'(0)};
    end
    s1_side[WX-1:0] = WX'({3'b000, sa} + {3'b000, sb} - 11'(hifsim_pkg::MX8_EXP_OFFSET) + 11'(MINE));
    s1_side[WX +: 4] = {(sa == hifsim_pkg::E8M0_NAN) || (sb == hifsim_pkg::E8M0_NAN), pnan, pinf, ninf};
  end

  localparam int W_C1 = WSIDE + NE*WL;
  logic            c1_valid, c1_ready;
  logic [W_C1-1:0] c1_data;
  hifsim_pipe_reg #(.W(W_C1), .EN(CUT_S1)) u_cut_s1 (
    .clk, .rst_n,
    .up_valid(in_valid), .up_ready(in_ready), .up_data({s1_side, s1_lane}),
    .dn_valid(c1_valid), .dn_ready(c1_ready), .dn_data(c1_data)
  );

  // ------------------------------------------------------------------------------------
  // Stage 2 (combinational): s2, the exact sum of the aligned products.
  // ------------------------------------------------------------------------------------
  logic [WSUM-1:0] s2_sum;
  always_comb begin
    logic [WL-1:0]   ln;
    logic [WSUM-1:0] t, sum;
    sum = '0;
    for (int k = 0; k < NE; k++) begin
      ln  = c1_data[WL*k +: WL];
      t   = WSUM'(ln[HW +: PW]) << ln[HW-1:0];
      if (ln[WL-1]) t = -t;  // conditional negate feeding one adder (not an adder and a subtractor behind a mux)
      sum = sum + t;
    end
    s2_sum = sum;
  end

  localparam int W_C2 = WSIDE + WSUM;
  logic            c2_valid, c2_ready;
  logic [W_C2-1:0] c2_data;
  hifsim_pipe_reg #(.W(W_C2), .EN(CUT_S2)) u_cut_s2 (
    .clk, .rst_n,
    .up_valid(c1_valid), .up_ready(c1_ready),
    .up_data({c1_data[W_C1-1 -: WSIDE], s2_sum}),
    .dn_valid(c2_valid), .dn_ready(c2_ready), .dn_data(c2_data)
  );

  // ------------------------------------------------------------------------------------
  // Stage 3 (combinational): s4, the single rounding and the specials.
  // ------------------------------------------------------------------------------------
  logic [31:0] s4_round, s4_out;
  hifsim_round_fp32 #(.WS(WSUM), .WE(WX)) u_round (
    .sum(c2_data[WSUM-1:0]), .lsb_exp(c2_data[WSUM +: WX]), .out(s4_round)
  );
  always_comb begin
    logic scale_nan, nan, pinf, ninf;
    {scale_nan, nan, pinf, ninf} = c2_data[WSUM + WX +: 4];
    if (scale_nan || nan || (pinf && ninf)) s4_out = hifsim_pkg::FP32_QNAN;
    else if (pinf)                          s4_out = hifsim_pkg::FP32_POS_INF;
    else if (ninf)                          s4_out = {1'b1, hifsim_pkg::FP32_POS_INF[30:0]};
    else                                    s4_out = s4_round;
  end

  hifsim_pipe_reg #(.W(32), .EN(CUT_S4)) u_cut_s4 (
    .clk, .rst_n,
    .up_valid(c2_valid), .up_ready(c2_ready), .up_data(s4_out),
    .dn_valid(out_valid), .dn_ready(out_ready), .dn_data(out)
  );
endmodule
