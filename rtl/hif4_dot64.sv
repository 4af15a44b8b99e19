// hif4_dot64: the HiF4 64-element dot product of docs/datapath.md section 1, bit-exact with
// hifsim::dp::Hif4Dot64 (model/datapath/hif4_dot.cpp). The result is always exact in FP32.
//
// Operands: one 288-bit HiF4 unit each, layout (A) read as a little-endian integer
// (byte i of the 36-byte unit is bits [8i+7:8i]):
//   [7:0]    E6M2 level-1 scale           [15:8]  E1_8  (bit i = level-2 group i)
//   [31:16]  E1_16 (bit j = level-3 group j)
//   [32+4k+3 : 32+4k]  element k (S1P2: bit 3 sign, bits 2..0 magnitude m)
// i.e. meta word = unit[31:0], element data = unit[287:32] with element k at data[4k+3:4k].
//
// Datapath (every width and bound is hifsim_pkg::HIF4_W_* / HIF4_MAX_*, generated from the unit's
// description: `hifsim units --sv-package`, docs/datapath.md section 1):
//   s0  a[k] = +-(m[k] << E1_16[k>>2])        sign-magnitude, HIF4_W_A bits, |a| <= HIF4_MAX_A
//   s1  p[k] = aA[k] * aB[k]                   unsigned multiply + sign, HIF4_W_P-bit two's complement
//   s2  P[i] = sum of p[8i..8i+7]              HIF4_W_GROUP bits
//   s3  Q[i] = P[i] << (E1_8A[i] + E1_8B[i])   HIF4_W_SHIFTED bits
//   s4  I = sum of Q[i]                        HIF4_W_I bits
//   s5  SS = (4+MA)(4+MB) (HIF4_W_SS bits), X = EA + EB - HIF4_EXP_OFFSET (HIF4_W_X bits),
//       nan = (A or B scale is 0xFF)
//       -- computed in the first combinational stage, in parallel with s0/s1, and carried along
//   s6  big = I * SS                           HIF4_W_BIG bits
//   s7  out = big * 2^X as FP32 through the shared rounding module hifsim_round_fp32 (exact:
//       2^-100 <= |out| < 2^45, never subnormal, never rounds). NaN scale -> 0x7FC00000;
//       big == 0 -> +0.
// This module is the front end (s0, s1, s5); s2..s7 and every register rank are the shared HiF4
// tail (hif4_dot_tail.sv, instance u_tail), also the back half of sparse_residual_add.
//
// Pipeline: STAGES (0..5) register ranks at these cut points (each a hifsim_pipe_reg in u_tail):
//   STAGES  after s1   after s2   after s4   after s6   after s7 (output register)
//     0        -          -          -          -          -      (combinational)
//     1        -          -          x          -          -
//     2        -          x          -          x          -
//     3        -          x          x          x          -
//     4        x          x          x          x          -
//     5        x          x          x          x          x
// Latency = STAGES cycles, throughput one dot product per cycle.
// Handshake: a transfer happens on a clock edge where valid && ready. Back-pressure
// (out_ready = 0) stalls the pipeline; in_ready is combinational from out_ready and the
// valid bits of the ranks (an empty rank always accepts). With STAGES = 0,
// in_ready = out_ready and out_valid = in_valid.
module hif4_dot64 #(
  parameter int STAGES = 3
) (
  input  logic         clk,
  input  logic         rst_n,
  // input side
  input  logic         in_valid,
  output logic         in_ready,
  input  logic [287:0] a,
  input  logic [287:0] b,
  // output side
  output logic         out_valid,
  input  logic         out_ready,
  output logic [31:0]  out
);
  localparam int NE   = hifsim_pkg::HIF4_ELEMS;
  localparam int WP   = hifsim_pkg::HIF4_W_P;
  localparam int WSS  = hifsim_pkg::HIF4_W_SS;
  localparam int WX   = hifsim_pkg::HIF4_W_X;
  localparam int WSIDE = 1 + WX + WSS;  // {nan, X, SS} handed to the tail

  if (!hifsim_pkg::hif4_dot64_stages_ok(STAGES)) begin : g_bad_stages
    $error("hif4_dot64: STAGES must be in 0..5");
  end

  // Cut points selected by STAGES (the table above): hifsim_pkg::hif4_dot64_cut, generated from the unit's
  // description in model/datapath (tests/hw checks the elaborated ranks against it).
  localparam bit CUT_S1 = hifsim_pkg::hif4_dot64_cut(STAGES, 1);
  localparam bit CUT_S2 = hifsim_pkg::hif4_dot64_cut(STAGES, 2);
  localparam bit CUT_S4 = hifsim_pkg::hif4_dot64_cut(STAGES, 3);
  localparam bit CUT_S6 = hifsim_pkg::hif4_dot64_cut(STAGES, 4);
  localparam bit CUT_S7 = hifsim_pkg::hif4_dot64_cut(STAGES, 5);

  // ------------------------------------------------------------------------------------
  // Stage 1 (combinational): s0, s1 and s5.
  // ------------------------------------------------------------------------------------
  logic [NE*WP-1:0] s1_p;      // p[k] at [WP*k +: WP]
  logic [15:0]      s1_e18;    // {E1_8B, E1_8A}
  logic [WSIDE-1:0] s1_side;   // {nan, X, SS}

  always_comb begin
    logic [3:0] mag_a, mag_b;
    logic [7:0] prod;
    logic       neg;
    logic [7:0] sa, sb;
    logic [5:0] ea, eb;
    for (int k = 0; k < NE; k++) begin
      // s0: level-3 bit absorbed into the magnitude (m or 2m, at most 14).
      mag_a = a[16 + k/4] ? {a[32+4*k +: 3], 1'b0} : {1'b0, a[32+4*k +: 3]};
      mag_b = b[16 + k/4] ? {b[32+4*k +: 3], 1'b0} : {1'b0, b[32+4*k +: 3]};
      // s1: 4x4 unsigned product, sign = XOR of the element signs (a -0 element gives 0).
      prod = mag_a * mag_b;
      neg  = a[32+4*k+3] ^ b[32+4*k+3];
      s1_p[WP*k +: WP] = neg ? (9'd0 - {1'b0, prod}) : {1'b0, prod};
    end
    s1_e18 = {b[15:8], a[15:8]};
    // s5: scale significand product (3x3 bits) and exponent sum.
    sa = a[7:0];
    sb = b[7:0];
    ea = sa[7:2];
    eb = sb[7:2];
    s1_side[WSS-1:0]       = {1'b1, sa[1:0]} * {1'b1, sb[1:0]};
    s1_side[WSS +: WX]     = 8'({2'b00, ea} + {2'b00, eb} - 8'(hifsim_pkg::HIF4_EXP_OFFSET));
    s1_side[WSIDE-1]       = (sa == hifsim_pkg::E6M2_NAN) || (sb == hifsim_pkg::E6M2_NAN);
  end

  // ------------------------------------------------------------------------------------
  // s2..s7 and every rank (after s1, s2, s4, s6, s7): the shared HiF4 tail (hif4_dot_tail.sv).
  // ------------------------------------------------------------------------------------
  logic unused_x;
  hif4_dot_tail #(.PG(8), .WG(hifsim_pkg::HIF4_W_GROUP), .WQ(hifsim_pkg::HIF4_W_SHIFTED), .WI(hifsim_pkg::HIF4_W_I),
                  .WBIG(hifsim_pkg::HIF4_W_BIG), .MAX_BIG(hifsim_pkg::HIF4_MAX_BIG), .XW(0), .CUT_S1(CUT_S1),
                  .CUT_S2(CUT_S2), .CUT_S4(CUT_S4), .CUT_S6(CUT_S6), .CUT_S7(CUT_S7)) u_tail (
    .clk, .rst_n,
    .up_valid(in_valid), .up_ready(in_ready),
    .prod(s1_p), .e18(s1_e18), .side(s1_side), .x_in(1'b0),
    .dn_valid(out_valid), .dn_ready(out_ready), .out, .x_out(unused_x)
  );
endmodule
