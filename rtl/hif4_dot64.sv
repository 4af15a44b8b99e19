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
// Datapath (widths from hifsim_pkg, which the cosim test checks against the C++ model):
//   s0  a[k] = +-(m[k] << E1_16[k>>2])        sign + 4-bit magnitude (5-bit sign-magnitude), |a| <= 14
//   s1  p[k] = aA[k] * aB[k]                   4x4 unsigned multiply + sign, 9-bit two's complement
//   s2  P[i] = sum of p[8i..8i+7]              12-bit
//   s3  Q[i] = P[i] << (E1_8A[i] + E1_8B[i])   14-bit
//   s4  I = sum of Q[i]                        17-bit
//   s5  SS = (4+MA)(4+MB) (3x3-bit), X = EA + EB - 104 (8-bit), nan = (A or B scale is 0xFF)
//       -- computed in the first combinational stage, in parallel with s0/s1, and carried along
//   s6  big = I * SS                           17x6 multiply, 23-bit
//   s7  out = big * 2^X as FP32: |big| (22 bits), leading-one position n, exponent X+n+127,
//       mantissa = |big| normalised; exact (2^-100 <= |out| < 2^45, never subnormal, never
//       rounds). NaN scale -> 0x7FC00000; big == 0 -> +0.
//
// Pipeline: STAGES (0..5) register ranks at these cut points (each a hifsim_pipe_reg):
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
  localparam int NG   = hifsim_pkg::HIF4_L2_GROUPS;
  localparam int WP   = hifsim_pkg::HIF4_W_P;
  localparam int WG   = hifsim_pkg::HIF4_W_GROUP;
  localparam int WQ   = hifsim_pkg::HIF4_W_SHIFTED;
  localparam int WI   = hifsim_pkg::HIF4_W_I;
  localparam int WSS  = hifsim_pkg::HIF4_W_SS;
  localparam int WX   = hifsim_pkg::HIF4_W_X;
  localparam int WBIG = hifsim_pkg::HIF4_W_BIG;
  localparam int WMAG = WBIG - 1;        // |big| < 2^22
  localparam int WFRAC = WMAG - 1;      // normalised |big| without its leading one
  localparam int WSIDE = 1 + WX + WSS;  // {nan, X, SS} carried from s5 to s6/s7

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

  localparam int W_C1 = WSIDE + 16 + NE*WP;
  logic            c1_valid, c1_ready;
  logic [W_C1-1:0] c1_data;
  hifsim_pipe_reg #(.W(W_C1), .EN(CUT_S1)) u_cut_s1 (
    .clk, .rst_n,
    .up_valid(in_valid), .up_ready(in_ready), .up_data({s1_side, s1_e18, s1_p}),
    .dn_valid(c1_valid), .dn_ready(c1_ready), .dn_data(c1_data)
  );

  // ------------------------------------------------------------------------------------
  // Stage 2 (combinational): s2, the eight 8-term group sums.
  // ------------------------------------------------------------------------------------
  logic [NG*WG-1:0] s2_group;  // P[i] at [WG*i +: WG]
  always_comb begin
    logic [WG-1:0] sum;
    logic [WP-1:0] p;
    for (int i = 0; i < NG; i++) begin
      sum = '0;
      for (int k = 8*i; k < 8*i + 8; k++) begin
        p   = c1_data[WP*k +: WP];
        sum = sum + {{(WG-WP){p[WP-1]}}, p};
      end
      s2_group[WG*i +: WG] = sum;
    end
  end

  localparam int W_C2 = WSIDE + 16 + NG*WG;
  logic            c2_valid, c2_ready;
  logic [W_C2-1:0] c2_data;
  hifsim_pipe_reg #(.W(W_C2), .EN(CUT_S2)) u_cut_s2 (
    .clk, .rst_n,
    .up_valid(c1_valid), .up_ready(c1_ready),
    .up_data({c1_data[W_C1-1 -: WSIDE+16], s2_group}),
    .dn_valid(c2_valid), .dn_ready(c2_ready), .dn_data(c2_data)
  );

  // ------------------------------------------------------------------------------------
  // Stage 3 (combinational): s3 level-2 shifts and s4 the 8 -> 1 sum.
  // ------------------------------------------------------------------------------------
  logic [WI-1:0] s4_i;
  always_comb begin
    logic [7:0]    e18a, e18b;
    logic [WG-1:0] g;
    logic [WQ-1:0] q;
    logic [WI-1:0] sum;
    e18a = c2_data[NG*WG +: 8];
    e18b = c2_data[NG*WG + 8 +: 8];
    sum  = '0;
    for (int i = 0; i < NG; i++) begin
      g = c2_data[WG*i +: WG];
      q = {{(WQ-WG){g[WG-1]}}, g};
      // s3: shift by E1_8A[i] + E1_8B[i] (0, 1 or 2)
      case ({e18a[i], e18b[i]})
        2'b00:   q = q;
        2'b11:   q = q << 2;
        default: q = q << 1;
      endcase
      sum = sum + {{(WI-WQ){q[WQ-1]}}, q};
    end
    s4_i = sum;
  end

  localparam int W_C4 = WSIDE + WI;
  logic            c4_valid, c4_ready;
  logic [W_C4-1:0] c4_data;
  hifsim_pipe_reg #(.W(W_C4), .EN(CUT_S4)) u_cut_s4 (
    .clk, .rst_n,
    .up_valid(c2_valid), .up_ready(c2_ready),
    .up_data({c2_data[W_C2-1 -: WSIDE], s4_i}),
    .dn_valid(c4_valid), .dn_ready(c4_ready), .dn_data(c4_data)
  );

  // ------------------------------------------------------------------------------------
  // Stage 4 (combinational): s6, the one 17 x 6 integer multiply.
  // ------------------------------------------------------------------------------------
  logic [WBIG-1:0] s6_big;
  always_comb begin
    logic [WI-1:0]   i_sum;
    logic [WSS-1:0]  ss;
    i_sum  = c4_data[WI-1:0];
    ss     = c4_data[WI +: WSS];
    s6_big = WBIG'($signed({{(WBIG-WI){i_sum[WI-1]}}, i_sum}) * $signed({{(WBIG-WSS){1'b0}}, ss}));
  end

  localparam int W_C6 = 1 + WX + WBIG;
  logic            c6_valid, c6_ready;
  logic [W_C6-1:0] c6_data;
  hifsim_pipe_reg #(.W(W_C6), .EN(CUT_S6)) u_cut_s6 (
    .clk, .rst_n,
    .up_valid(c4_valid), .up_ready(c4_ready),
    .up_data({c4_data[W_C4-1 -: 1+WX], s6_big}),
    .dn_valid(c6_valid), .dn_ready(c6_ready), .dn_data(c6_data)
  );

  // ------------------------------------------------------------------------------------
  // Stage 5 (combinational): s7, leading-one detection and exact FP32 packing.
  // ------------------------------------------------------------------------------------
  logic [31:0] s7_out;
  always_comb begin
    logic [WBIG-1:0] big;
    logic [WX-1:0]   x;
    logic            nan, sign;
    logic [WMAG-1:0] mag;    // |big| < 2^22
    logic [4:0]      lead;   // position of the leading one of mag
    logic [WFRAC-1:0] frac;  // mag << (21 - lead) without the leading one (bit 21)
    logic [7:0]      expo;   // X + lead + 127, in 23..170 (never 0, never 255)
    big  = c6_data[WBIG-1:0];
    x    = c6_data[WBIG +: WX];
    nan  = c6_data[W_C6-1];
    sign = big[WBIG-1];
    mag  = sign ? WMAG'(-big) : big[WMAG-1:0];
    lead = '0;
    for (int n = 0; n < WMAG; n++) begin
      if (mag[n]) lead = 5'(n);
    end
    frac = WFRAC'(mag << (5'(WMAG - 1) - lead));
    expo = 8'({{2{x[WX-1]}}, x} + {5'd0, lead} + 10'd127);
    if (nan)            s7_out = hifsim_pkg::FP32_QNAN;
    else if (mag == '0) s7_out = 32'h0000_0000;
    else                s7_out = {sign, expo, frac, 2'b00};
  end

  hifsim_pipe_reg #(.W(32), .EN(CUT_S7)) u_cut_s7 (
    .clk, .rst_n,
    .up_valid(c6_valid), .up_ready(c6_ready), .up_data(s7_out),
    .dn_valid(out_valid), .dn_ready(out_ready), .dn_data(out)
  );
endmodule
