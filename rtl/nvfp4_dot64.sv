// nvfp4_dot64: the NVFP4 64-element dot product of docs/datapath.md section 2, bit-exact with
// hifsim::dp::Nvfp4Dot64 (model/datapath/nvfp4_dot.cpp): four 16-element sub-blocks, each with
// its own E4M3 scale per operand, combined exactly and rounded once (RNE) to FP32.
//
// Operands (packed code vectors, little-endian):
//   a, b    [255:0]  64 E2M1 codes, element k at [4k+3 : 4k] (bit 3 sign)
//   sa, sb  [31:0]   4 E4M3 block scales, sub-block j (elements 16j..16j+15) at [8j+7 : 8j]
// The FP32 per-tensor scales are not part of the unit (the GEMM applies alpha after accumulation).
//
// Datapath (every width and bound is hifsim_pkg::NV_W_* / NV_MAX_*, generated from the unit's
// description: `hifsim units --sv-package`, docs/datapath.md section 2):
//   s0  a[k] = E2M1 in half units (sign + magnitude, |a| <= NV_MAX_A)
//   s1  p[k] = aA[k] * aB[k]              unsigned multiply + sign, NV_W_P-bit two's complement
//   s2  S[j] = sum of p[16j..16j+15]      NV_W_SUB bits
//   s3  ss[j] = sigA * sigB (NV_W_SS bits), tt[j] = tA + tB (NV_W_TT bits), scale sign XOR, NaN flag
//       -- computed in the first combinational stage, in parallel with s0/s1, and carried along
//   s4  P[j] = +-S[j] * ss[j]             NV_W_PARTIAL bits (|P| <= NV_MAX_PARTIAL)
//   s5  Q[j] = P[j] << (tt[j] + NV_ALIGN_OFFSET)   NV_W_ALIGNED bits
//   s6  T = sum of Q[j]                   NV_W_TOTAL bits
//   s7  out = RNE_fp32(T * 2^NV_LSB_EXP)  hifsim_round_fp32 (never subnormal, never overflows);
//       a NaN scale (0x7F / 0xFF) -> 0x7FC00000; T == 0 -> +0
//
// Pipeline: STAGES (0..5) register ranks at these cut points (each a hifsim_pipe_reg):
//   STAGES  after s1   after s2   after s4   after s6   after s7 (output register)
//     0        -          -          -          -          -      (combinational)
//     1        -          -          x          -          -
//     2        -          x          -          x          -
//     3        -          x          x          x          -
//     4        x          x          x          x          -
//     5        x          x          x          x          x
// Latency = STAGES cycles, throughput one dot product per cycle; the valid/ready handshake of
// hif4_dot64 (hifsim_pipe_reg). STAGES = 0: in_ready = out_ready, out_valid = in_valid.
module nvfp4_dot64 #(
  parameter int STAGES = 3
) (
  input  logic         clk,
  input  logic         rst_n,
  input  logic         in_valid,
  output logic         in_ready,
  input  logic [255:0] a,
  input  logic [255:0] b,
  input  logic [31:0]  sa,
  input  logic [31:0]  sb,
  output logic         out_valid,
  input  logic         out_ready,
  output logic [31:0]  out
);
  localparam int NE  = 64;
  localparam int NJ  = hifsim_pkg::NV_SUBBLOCKS;
  localparam int WP  = hifsim_pkg::NV_W_P;
  localparam int WS  = hifsim_pkg::NV_W_SUB;
  localparam int WSS = hifsim_pkg::NV_W_SS;
  localparam int WTT = hifsim_pkg::NV_W_TT;
  localparam int WPA = hifsim_pkg::NV_W_PARTIAL;
  localparam int WQ  = hifsim_pkg::NV_W_ALIGNED;
  localparam int WT  = hifsim_pkg::NV_W_TOTAL;
  // Per sub-block side information: {neg, tt, ss}; plus one NaN flag.
  localparam int WSJ   = 1 + WTT + WSS;
  localparam int WSIDE = 1 + NJ*WSJ;

  if (!hifsim_pkg::nvfp4_dot64_stages_ok(STAGES)) begin : g_bad_stages
    $error("nvfp4_dot64: STAGES must be in 0..5");
  end

  // Cut points selected by STAGES (the table above): hifsim_pkg::nvfp4_dot64_cut, generated from the unit's
  // description in model/datapath (tests/hw checks the elaborated ranks against it).
  localparam bit CUT_S1 = hifsim_pkg::nvfp4_dot64_cut(STAGES, 1);
  localparam bit CUT_S2 = hifsim_pkg::nvfp4_dot64_cut(STAGES, 2);
  localparam bit CUT_S4 = hifsim_pkg::nvfp4_dot64_cut(STAGES, 3);
  localparam bit CUT_S6 = hifsim_pkg::nvfp4_dot64_cut(STAGES, 4);
  localparam bit CUT_S7 = hifsim_pkg::nvfp4_dot64_cut(STAGES, 5);

  // ------------------------------------------------------------------------------------
  // Stage 1 (combinational): s0, s1 and s3.
  // ------------------------------------------------------------------------------------
  logic [NE*WP-1:0] s1_p;      // p[k] at [WP*k +: WP]
  logic [WSIDE-1:0] s1_side;   // {nan, side[j] at [WSJ*j +: WSJ]}
  always_comb begin
    logic [4:0] xa, xb;
    logic [7:0] prod;
    logic [9:0] da, db;
    logic       nan;
    nan = 1'b0;
    for (int k = 0; k < NE; k++) begin
      xa = hifsim_pkg::e2m1_half(a[4*k +: 4]);
      xb = hifsim_pkg::e2m1_half(b[4*k +: 4]);
      prod = xa[3:0] * xb[3:0];
      s1_p[WP*k +: WP] = (xa[4] ^ xb[4]) ? (9'd0 - {1'b0, prod}) : {1'b0, prod};
    end
    for (int j = 0; j < NJ; j++) begin
      da = hifsim_pkg::e4m3_dec(sa[8*j +: 8]);
      db = hifsim_pkg::e4m3_dec(sb[8*j +: 8]);
      nan = nan | da[9] | db[9];
      // tt = (ta + 9) + (tb + 9) - 18
      s1_side[WSJ*j +: WSJ] = {da[8] ^ db[8], WTT'({2'b00, da[3:0]} + {2'b00, db[3:0]} - 6'd18),
                               WSS'({4'd0, da[7:4]} * {4'd0, db[7:4]})};
    end
    s1_side[WSIDE-1] = nan;
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
  // Stage 2 (combinational): s2, the four 16-term sub-block sums.
  // ------------------------------------------------------------------------------------
  logic [NJ*WS-1:0] s2_sub;  // S[j] at [WS*j +: WS]
  always_comb begin
    logic [WS-1:0] sum;
    logic [WP-1:0] p;
    for (int j = 0; j < NJ; j++) begin
      sum = '0;
      for (int k = 16*j; k < 16*j + 16; k++) begin
        p   = c1_data[WP*k +: WP];
        sum = sum + {{(WS-WP){p[WP-1]}}, p};
      end
      s2_sub[WS*j +: WS] = sum;
    end
  end

  localparam int W_C2 = WSIDE + NJ*WS;
  logic            c2_valid, c2_ready;
  logic [W_C2-1:0] c2_data;
  hifsim_pipe_reg #(.W(W_C2), .EN(CUT_S2)) u_cut_s2 (
    .clk, .rst_n,
    .up_valid(c1_valid), .up_ready(c1_ready),
    .up_data({c1_data[W_C1-1 -: WSIDE], s2_sub}),
    .dn_valid(c2_valid), .dn_ready(c2_ready), .dn_data(c2_data)
  );

  // ------------------------------------------------------------------------------------
  // Stage 3 (combinational): s4, the four large integer multiplies (with the scale sign).
  // ------------------------------------------------------------------------------------
  logic [NJ*WPA-1:0] s4_part;  // P[j] at [WPA*j +: WPA]
  logic [NJ*WTT-1:0] s4_tt;
  always_comb begin
    logic [WS-1:0]  s;
    logic [WSJ-1:0] sd;
    logic [WPA-1:0] pm;
    for (int j = 0; j < NJ; j++) begin
      s  = c2_data[WS*j +: WS];
      sd = c2_data[NJ*WS + WSJ*j +: WSJ];
      pm = WPA'($signed({{(WPA-WS){s[WS-1]}}, s}) * $signed({{(WPA-WSS){1'b0}}, sd[WSS-1:0]}));
      s4_part[WPA*j +: WPA] = sd[WSJ-1] ? (WPA'(0) - pm) : pm;
      s4_tt[WTT*j +: WTT]   = sd[WSS +: WTT];
    end
  end

  localparam int W_C4 = 1 + NJ*WTT + NJ*WPA;
  logic            c4_valid, c4_ready;
  logic [W_C4-1:0] c4_data;
  hifsim_pipe_reg #(.W(W_C4), .EN(CUT_S4)) u_cut_s4 (
    .clk, .rst_n,
    .up_valid(c2_valid), .up_ready(c2_ready),
    .up_data({c2_data[W_C2-1], s4_tt, s4_part}),
    .dn_valid(c4_valid), .dn_ready(c4_ready), .dn_data(c4_data)
  );

  // ------------------------------------------------------------------------------------
  // Stage 4 (combinational): s5 alignment to weight 2^-20 and s6 the exact 4-term sum.
  // ------------------------------------------------------------------------------------
  logic [WT-1:0] s6_total;
  always_comb begin
    logic [WPA-1:0] pj;
    logic [WTT-1:0] tt;
    logic [4:0]     sh;   // tt + 18, 0..28
    logic [WQ-1:0]  q;
    logic [WT-1:0]  sum;
    sum = '0;
    for (int j = 0; j < NJ; j++) begin
      pj = c4_data[WPA*j +: WPA];
      tt = c4_data[NJ*WPA + WTT*j +: WTT];
      sh = 5'(tt + WTT'(hifsim_pkg::NV_ALIGN_OFFSET));
      q  = {{(WQ-WPA){pj[WPA-1]}}, pj} << sh;
      sum = sum + {{(WT-WQ){q[WQ-1]}}, q};
    end
    s6_total = sum;
  end

  localparam int W_C6 = 1 + WT;
  logic            c6_valid, c6_ready;
  logic [W_C6-1:0] c6_data;
  hifsim_pipe_reg #(.W(W_C6), .EN(CUT_S6)) u_cut_s6 (
    .clk, .rst_n,
    .up_valid(c4_valid), .up_ready(c4_ready),
    .up_data({c4_data[W_C4-1], s6_total}),
    .dn_valid(c6_valid), .dn_ready(c6_ready), .dn_data(c6_data)
  );

  // ------------------------------------------------------------------------------------
  // Stage 5 (combinational): s7, the single rounding.
  // ------------------------------------------------------------------------------------
  logic [31:0] s7_round, s7_out;
  hifsim_round_fp32 #(.WS(WT), .WE(6)) u_round (
    .sum(c6_data[WT-1:0]), .lsb_exp(6'(hifsim_pkg::NV_LSB_EXP)), .out(s7_round)
  );
  assign s7_out = c6_data[W_C6-1] ? hifsim_pkg::FP32_QNAN : s7_round;

  hifsim_pipe_reg #(.W(32), .EN(CUT_S7)) u_cut_s7 (
    .clk, .rst_n,
    .up_valid(c6_valid), .up_ready(c6_ready), .up_data(s7_out),
    .dn_valid(out_valid), .dn_ready(out_ready), .dn_data(out)
  );
endmodule
