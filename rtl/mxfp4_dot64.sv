// mxfp4_dot64: the MXFP4 64-wide dot product of docs/datapath.md section 3, bit-exact with
// hifsim::dp::Mxfp4Dot64 (model/datapath/mxfp4_dot.cpp): two 32-element E2M1 blocks, each with an
// E8M0 scale per operand; the exact two-term sum rounded once (RNE) to FP32.
//
// Operands (packed code vectors, little-endian):
//   a, b    [255:0]  64 E2M1 codes, element k at [4k+3 : 4k] (bit 3 sign)
//   sa, sb  [15:0]   2 E8M0 block scales, block i (elements 32i..32i+31) at [8i+7 : 8i]
//
// Datapath (widths and bounds: hifsim_pkg::MX4_*, generated from the unit's description,
// `hifsim units --sv-package`, docs/datapath.md section 3):
//   s0  a[k] = E2M1 in half units (sign + magnitude)      (shared decoder hifsim_pkg::e2m1_half)
//   s1  p[k] = aA[k] * aB[k], two's complement
//   s2  S[i] = sum of the 32 products of block i, MX4_W_SUM bits
//   s3  X[i] = xa + xb - MX4_EXP_OFFSET = (xa-127) + (xb-127) - 2, MX4_W_X bits; NaN flag (a 0xFF scale)
//       -- computed in the first combinational stage and carried along
//   s4a exact two-term alignment: h = the term with the larger X among the nonzero ones, l = the
//       other; F = S[h] * 2^40 + S[l] * 2^(40 - d), d = X[h] - X[l], LSB weight X[h] - 40. When
//       d > 40 the low term is replaced by a jam bit +-1 at that LSB: it then lies below 2^(X[h]-28),
//       strictly inside a rounding interval of the result (whose midpoints are multiples of
//       2^(X[h]-25)), so the jammed and the exact sums round alike (55-bit F)
//   s4b out = RNE_fp32(F * 2^(X[h]-40))  (hifsim_round_fp32: subnormals, overflow to Inf);
//       NaN -> 0x7FC00000; an exactly zero sum -> +0
//
// Pipeline: STAGES (0..4) register ranks (hifsim_pipe_reg):
//   STAGES  after s1   after s2   after s4a   after s4b (output register)
//     0        -          -          -           -
//     1        -          x          -           -
//     2        -          x          x           -
//     3        x          x          x           -
//     4        x          x          x           x
// Latency = STAGES cycles, one dot product per cycle, the handshake of hif4_dot64.
module mxfp4_dot64 #(
  parameter int STAGES = 2
) (
  input  logic         clk,
  input  logic         rst_n,
  input  logic         in_valid,
  output logic         in_ready,
  input  logic [255:0] a,
  input  logic [255:0] b,
  input  logic [15:0]  sa,
  input  logic [15:0]  sb,
  output logic         out_valid,
  input  logic         out_ready,
  output logic [31:0]  out
);
  localparam int NE  = 64;
  localparam int WP  = hifsim_pkg::NV_W_P;     // the same E2M1 products as NVFP4
  localparam int WS  = hifsim_pkg::MX4_W_SUM;
  localparam int WX  = hifsim_pkg::MX4_W_X;
  localparam int D   = hifsim_pkg::MX4_JAM_DIST;
  localparam int WF  = WS + D + 1;             // S[h] << 40 plus the low term
  localparam int WSIDE = 1 + 2*WX;             // {nan, X[1], X[0]}

  if (!hifsim_pkg::mxfp4_dot64_stages_ok(STAGES)) begin : g_bad_stages
    $error("mxfp4_dot64: STAGES must be in 0..4");
  end

  // Cut points selected by STAGES (the table above): hifsim_pkg::mxfp4_dot64_cut, generated from the unit's
  // description in model/datapath (tests/hw checks the elaborated ranks against it).
  localparam bit CUT_S1  = hifsim_pkg::mxfp4_dot64_cut(STAGES, 1);
  localparam bit CUT_S2  = hifsim_pkg::mxfp4_dot64_cut(STAGES, 2);
  localparam bit CUT_S4A = hifsim_pkg::mxfp4_dot64_cut(STAGES, 3);
  localparam bit CUT_S4B = hifsim_pkg::mxfp4_dot64_cut(STAGES, 4);

  // ------------------------------------------------------------------------------------
  // Stage 1 (combinational): s0, s1 and s3.
  // ------------------------------------------------------------------------------------
  logic [NE*WP-1:0] s1_p;
  logic [WSIDE-1:0] s1_side;
  always_comb begin
    logic [4:0] xa, xb;
    logic [7:0] prod;
    for (int k = 0; k < NE; k++) begin
      xa = hifsim_pkg::e2m1_half(a[4*k +: 4]);
      xb = hifsim_pkg::e2m1_half(b[4*k +: 4]);
      prod = xa[3:0] * xb[3:0];
      s1_p[WP*k +: WP] = (xa[4] ^ xb[4]) ? (9'd0 - {1'b0, prod}) : {1'b0, prod};
    end
    for (int i = 0; i < 2; i++) begin
      s1_side[WX*i +: WX] = WX'({2'b00, sa[8*i +: 8]} + {2'b00, sb[8*i +: 8]} - 10'(hifsim_pkg::MX4_EXP_OFFSET));
    end
    s1_side[WSIDE-1] = (sa[7:0] == hifsim_pkg::E8M0_NAN) || (sa[15:8] == hifsim_pkg::E8M0_NAN) ||
                       (sb[7:0] == hifsim_pkg::E8M0_NAN) || (sb[15:8] == hifsim_pkg::E8M0_NAN);
  end

  localparam int W_C1 = WSIDE + NE*WP;
  logic            c1_valid, c1_ready;
  logic [W_C1-1:0] c1_data;
  hifsim_pipe_reg #(.W(W_C1), .EN(CUT_S1)) u_cut_s1 (
    .clk, .rst_n,
    .up_valid(in_valid), .up_ready(in_ready), .up_data({s1_side, s1_p}),
    .dn_valid(c1_valid), .dn_ready(c1_ready), .dn_data(c1_data)
  );

  // ------------------------------------------------------------------------------------
  // Stage 2 (combinational): s2, the two 32-term block sums.
  // ------------------------------------------------------------------------------------
  logic [2*WS-1:0] s2_sum;
  always_comb begin
    logic [WS-1:0] sum;
    logic [WP-1:0] p;
    for (int i = 0; i < 2; i++) begin
      sum = '0;
      for (int k = 32*i; k < 32*i + 32; k++) begin
        p   = c1_data[WP*k +: WP];
        sum = sum + {{(WS-WP){p[WP-1]}}, p};
      end
      s2_sum[WS*i +: WS] = sum;
    end
  end

  localparam int W_C2 = WSIDE + 2*WS;
  logic            c2_valid, c2_ready;
  logic [W_C2-1:0] c2_data;
  hifsim_pipe_reg #(.W(W_C2), .EN(CUT_S2)) u_cut_s2 (
    .clk, .rst_n,
    .up_valid(c1_valid), .up_ready(c1_ready),
    .up_data({c1_data[W_C1-1 -: WSIDE], s2_sum}),
    .dn_valid(c2_valid), .dn_ready(c2_ready), .dn_data(c2_data)
  );

  // ------------------------------------------------------------------------------------
  // Stage 3 (combinational): s4a, the exact (or jammed) two-term alignment.
  // ------------------------------------------------------------------------------------
  logic [WF-1:0] s4_f;     // F, two's complement
  logic [WX:0]   s4_lsb;   // X[h] - 40, 11-bit signed
  always_comb begin
    logic [WS-1:0] s0, s1, sh_, sl;
    logic [WX-1:0] x0, x1, xh, xl;
    logic          z0, z1, pick1;
    logic [WX:0]   d;       // X[h] - X[l] >= 0 when both terms are nonzero
    logic [5:0]    dl;      // 40 - d, when d <= 40
    logic [WF-1:0] hi, lo;
    s0 = c2_data[0 +: WS];
    s1 = c2_data[WS +: WS];
    x0 = c2_data[2*WS +: WX];
    x1 = c2_data[2*WS + WX +: WX];
    z0 = (s0 == '0);
    z1 = (s1 == '0);
    // h: block 1 if block 0 is zero, or both are nonzero and X[1] > X[0].
    pick1 = z0 || (!z1 && ($signed(x1) > $signed(x0)));
    sh_ = pick1 ? s1 : s0;
    sl  = pick1 ? s0 : s1;
    xh  = pick1 ? x1 : x0;
    xl  = pick1 ? x0 : x1;
    d   = {xh[WX-1], xh} - {xl[WX-1], xl};
    dl  = 6'(D) - d[5:0];
    hi  = {{(WF-WS){sh_[WS-1]}}, sh_} << D;
    if (sl == '0 || (z0 && z1))       lo = '0;
    else if ($signed(d) <= $signed((WX+1)'(D))) lo = {{(WF-WS){sl[WS-1]}}, sl} << dl;
    else                              lo = sl[WS-1] ? {WF{1'b1}} : WF'(1);  // the jam bit, +-1
    s4_f   = hi + lo;
    s4_lsb = {xh[WX-1], xh} - (WX+1)'(D);
  end

  localparam int W_C4 = 1 + (WX+1) + WF;
  logic            c4_valid, c4_ready;
  logic [W_C4-1:0] c4_data;
  hifsim_pipe_reg #(.W(W_C4), .EN(CUT_S4A)) u_cut_s4a (
    .clk, .rst_n,
    .up_valid(c2_valid), .up_ready(c2_ready),
    .up_data({c2_data[W_C2-1], s4_lsb, s4_f}),
    .dn_valid(c4_valid), .dn_ready(c4_ready), .dn_data(c4_data)
  );

  // ------------------------------------------------------------------------------------
  // Stage 4 (combinational): s4b, the single rounding.
  // ------------------------------------------------------------------------------------
  logic [31:0] s4_round, s4_out;
  hifsim_round_fp32 #(.WS(WF), .WE(WX+1)) u_round (
    .sum(c4_data[WF-1:0]), .lsb_exp(c4_data[WF +: WX+1]), .out(s4_round)
  );
  assign s4_out = c4_data[W_C4-1] ? hifsim_pkg::FP32_QNAN : s4_round;

  hifsim_pipe_reg #(.W(32), .EN(CUT_S4B)) u_cut_s4b (
    .clk, .rst_n,
    .up_valid(c4_valid), .up_ready(c4_ready), .up_data(s4_out),
    .dn_valid(out_valid), .dn_ready(out_ready), .dn_data(out)
  );
endmodule
