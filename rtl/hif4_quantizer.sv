// hif4_quantizer: the BF16 -> HiF4 unit encoder (the hardware quantizer next to the MAC),
// bit-exact with hifsim::fmt::hif4_quantize_bf16 (model/formats/hif4.cpp), the reference
// algorithm of hif4.md section 2, with the options fixed by parameters:
//   ELEM_RNE   = 0  element rounding half away from zero (default) | 1: ties to even (PTO A6)
//   CMP_BF16   = 0  exact level-2/3 threshold compares (default) | 1: the product rounded to BF16
//                   first ("A6 golden")
//   INF_TO_NAN = 0  +-Inf saturates (default) | 1: an Inf input makes the unit NaN
//   ASCEND_A6  = 0  the official convention (the options above) | 1: the Ascend A6 TQuant golden
//                   (--hif4-convention ascend-a6, docs/formats.md): implies ELEM_RNE and CMP_BF16,
//                   rounds x * scale to BF16 before the element rounding (sign from that product),
//                   and E6M2 code 0x00 is the value 0 (the unit quantizes to all +0)
//
// Ports:
//   x     [1023:0]  64 BF16 inputs, element k at [16k+15 : 16k]
//   unit  [287:0]   (HIF4_UNIT_BITS) the HiF4 unit in layout (A), little-endian (as hif4_dot64's operands):
//                   [7:0] E6M2, [15:8] E1_8, [31:16] E1_16, element k at [32+4k+3 : 32+4k]
//
// Datapath (hif4.md section 6, "Quantizer"):
//   q1  peaks: V16[j] = max |x[4j..4j+3]|, V8[i] = max(V16[2i], V16[2i+1]), Vmax (unsigned compares
//       of the 15-bit BF16 magnitudes; Inf is the largest); NaN / Inf flags
//   q2  scale: Vmax sig (8 bits) x hifsim_pkg::HIF4Q_C7_SIG (C7 = HIF4Q_C7 = bf16(1/7)), 16-bit
//       product, RNE to 8 bits (the BF16 rounding, with its carry), clamp to
//       [2^HIF4Q_SF_MIN_EXP, HIF4Q_SF_MAX] (a zero or subnormal Vmax clamps), RNE to the 2-bit
//       E6M2 mantissa (carry into the exponent); the reciprocal REC = RS * 2^rexp from a 4-entry
//       LUT on M (RS = HIF4Q_REC_SIG0..3) and
//       rexp = (M == 0 ? 48 : 47) - E - 7
//   q3  level bits: Pr = sig(V) x RS (8x8 -> 16 bits); the product's leading-bit exponent
//       lv = eV + rexp + (15 or 14); E1_8[i] = lv8 >= 2, E1_16[j] = lv16 >= 1 + E1_8[j>>1]; with
//       CMP_BF16 also when lv is one below and the top 9 bits of Pr are ones (the product rounds
//       up to the threshold)
//   q4  elements: Pe = sig(x) x RS, the value 4y = Pe * 2^sh, sh = ex + rexp + 2 - E1_8 - E1_16;
//       Pe != 0 and sh >= -4 saturates (4y >= 8); otherwise shift right by -sh, round (guard, or
//       guard && (sticky || lsb) for RNE), saturate at 7; sign = x < 0 (a negative input that
//       rounds to 0 gives 0x8, -0.0 gives 0x0). NaN input -> E6M2 0xFF, everything else 0.
//       ASCEND_A6: Pe is first rounded to 8 significant bits (RNE: the BF16 product; an FP32 product
//       of BF16 values is exact where that rounding can reach a nonzero element), and the sign is
//       kept only if RNE_bf16(RNE_fp32(|x| * scale)) != 0, i.e. Pe * 2^(sh + 148) > 2^16 + 1.
//
// Pipeline: STAGES register ranks (hifsim_pipe_reg), the handshake of hif4_dot64, at the cut
// points after q1, q2, q3 and q4 (the output register) that hifsim_pkg::hif4_quantizer_cut selects
// for each STAGES (hif4_quantizer_stages_ok: the range); both are generated from the unit's
// description.
// The 1024 input bits travel to q4 with the data (the cost of a short pipeline here).
module hif4_quantizer #(
  parameter int STAGES     = 3,
  parameter int ELEM_RNE   = 0,
  parameter int CMP_BF16   = 0,
  parameter int INF_TO_NAN = 0,
  parameter int ASCEND_A6  = 0
) (
  input  logic          clk,
  input  logic          rst_n,
  input  logic          in_valid,
  output logic          in_ready,
  input  logic [1023:0] x,
  output logic          out_valid,
  input  logic          out_ready,
  output logic [287:0]  unit
);
  localparam int NE = hifsim_pkg::HIF4_ELEMS;
  localparam int WV = 15;                        // BF16 magnitude
  localparam int WX = NE*16;
  localparam int WPEAK = 16*WV + 8*WV + WV;      // {Vmax, V8, V16}
  localparam int WSC = 8 + 8 + 7;                // {rexp, RS, E6M2}

  if (!hifsim_pkg::hif4_quantizer_stages_ok(STAGES)) begin : g_bad_stages
    $error("hif4_quantizer: STAGES must be in 0..4");
  end
  if (ELEM_RNE < 0 || ELEM_RNE > 1 || CMP_BF16 < 0 || CMP_BF16 > 1 || INF_TO_NAN < 0 || INF_TO_NAN > 1 ||
      ASCEND_A6 < 0 || ASCEND_A6 > 1) begin : g_bad_opts
    $error("hif4_quantizer: ELEM_RNE, CMP_BF16, INF_TO_NAN and ASCEND_A6 must be 0 or 1");
  end
  localparam bit RNE = (ELEM_RNE != 0) || (ASCEND_A6 != 0);   // A6: ties-to-even elements
  localparam bit CMP = (CMP_BF16 != 0) || (ASCEND_A6 != 0);   // A6: BF16-rounded compares
  localparam bit A6  = ASCEND_A6 != 0;

  // Cut points selected by STAGES (see the header): hifsim_pkg::hif4_quantizer_cut, generated from the unit's
  // description in model/datapath (tests/hw checks the elaborated ranks against it).
  localparam bit CUT_Q1 = hifsim_pkg::hif4_quantizer_cut(STAGES, 1);
  localparam bit CUT_Q2 = hifsim_pkg::hif4_quantizer_cut(STAGES, 2);
  localparam bit CUT_Q3 = hifsim_pkg::hif4_quantizer_cut(STAGES, 3);
  localparam bit CUT_Q4 = hifsim_pkg::hif4_quantizer_cut(STAGES, 4);

  // Threshold compare of a peak V (BF16 magnitude) times REC against 2^t: the exact product
  // V * RS * 2^(eV + rexp) is >= 2^t, or (CMP_BF16) rounds up to 2^t in BF16.
  function automatic logic ge_pow2(input logic [WV-1:0] v, input logic [7:0] rs, input logic [6:0] rexp,
                                   input logic [1:0] t);
    logic [9:0]  pt;   // the product's bits 15..6 (the lower ones never matter)
    logic [9:0]  lv;
    logic        top9;
    pt   = 10'(({8'd0, 1'b1, v[6:0]} * {8'd0, rs}) >> 6);
    lv   = 10'({2'b00, v[14:7]} - 10'd134 + {{3{rexp[6]}}, rexp} + (pt[9] ? 10'd15 : 10'd14));
    top9 = pt[9] ? (pt[9:1] == 9'h1FF) : (pt[8:0] == 9'h1FF);
    if (v[14:7] == 8'd0) ge_pow2 = 1'b0;   // zero or subnormal: far below 2 for every REC
    else ge_pow2 = ($signed(lv) >= $signed({8'd0, t})) ||
                   (CMP && ($signed(lv) == $signed({8'd0, t}) - 10'sd1) && top9);
  endfunction

  // ------------------------------------------------------------------------------------
  // Stage 1 (combinational): q1, the peaks.
  // ------------------------------------------------------------------------------------
  logic [WPEAK-1:0] q1_peak;
  logic [1:0]       q1_flags;   // {nan, inf}
  always_comb begin
    logic [WV-1:0] m, v16, v8, vmax;
    logic          nan, inf;
    nan  = 1'b0;
    inf  = 1'b0;
    vmax = '0;
    for (int i = 0; i < 8; i++) begin
      v8 = '0;
      for (int jj = 0; jj < 2; jj++) begin
        v16 = '0;
        for (int k = 8*i + 4*jj; k < 8*i + 4*jj + 4; k++) begin
          m   = x[16*k +: WV];
          nan = nan | (m > 15'h7F80);
          inf = inf | (m == 15'h7F80);
          if (m > v16) v16 = m;
        end
        q1_peak[WV*(2*i+jj) +: WV] = v16;
        if (v16 > v8) v8 = v16;
      end
      q1_peak[16*WV + WV*i +: WV] = v8;
      if (v8 > vmax) vmax = v8;
    end
    q1_peak[WPEAK-1 -: WV] = vmax;
    q1_flags = {nan, inf};
  end

  localparam int W_C1 = 2 + WPEAK + WX;
  logic            c1_valid, c1_ready;
  logic [W_C1-1:0] c1_data;
  hifsim_pipe_reg #(.W(W_C1), .EN(CUT_Q1)) u_cut_q1 (
    .clk, .rst_n,
    .up_valid(in_valid), .up_ready(in_ready), .up_data({q1_flags, q1_peak, x}),
    .dn_valid(c1_valid), .dn_ready(c1_ready), .dn_data(c1_data)
  );

  // ------------------------------------------------------------------------------------
  // Stage 2 (combinational): q2, the E6M2 scale and the reciprocal.
  // ------------------------------------------------------------------------------------
  logic [WSC-1:0] q2_scale;  // {rexp (7), RS (8), E6M2 (8)}
  logic           q2_nan;
  always_comb begin
    logic [WV-1:0] vmax;
    logic [15:0]   pm;
    logic [7:0]    kept, sf8;
    logic          g, st, inc, cy, g2, st2, inc2;
    logic [8:0]    sf9;
    logic [8:0]    es;        // signed exponent of SF = sf8/128 * 2^es
    logic [1:0]    mant;      // the E6M2 mantissa after rounding
    logic          cy2;       // its carry into the exponent (1.11|1 -> 10.00)
    logic [8:0]    ee;        // E6M2 exponent (unbiased) after the mantissa rounding
    logic [7:0]    code, rs;
    logic [6:0]    rexp;
    vmax = c1_data[WX + WPEAK - 1 -: WV];
    // SF = RNE_bf16(Vmax * C7): the 16-bit significand product, rounded to 8 bits.
    pm   = {8'd0, 1'b1, vmax[6:0]} * 16'(hifsim_pkg::HIF4Q_C7_SIG);
    kept = pm[15] ? pm[15:8] : pm[14:7];
    g    = pm[15] ? pm[7] : pm[6];
    st   = pm[15] ? (pm[6:0] != 7'd0) : (pm[5:0] != 6'd0);
    inc  = g && (st || kept[0]);
    sf9  = {1'b0, kept} + 9'(inc);
    cy   = sf9[8];
    sf8  = cy ? 8'h80 : sf9[7:0];
    // es = (E - 134) + (-10) + lead + carry
    es   = 9'({1'b0, vmax[14:7]} - 9'd144 + (pm[15] ? 9'd15 : 9'd14) + 9'(cy));
    // E6M2: RNE of the 2-bit mantissa (sf8 = 1.xx|xxxxx), carry into the exponent.
    g2   = sf8[4];
    st2  = sf8[3:0] != 4'd0;
    inc2 = g2 && (st2 || sf8[5]);
    {cy2, mant} = {1'b0, sf8[6:5]} + 3'(inc2);
    ee   = cy2 ? es + 9'd1 : es;
    if (vmax[14:7] == 8'd0 || $signed(es) < $signed(9'(hifsim_pkg::HIF4Q_SF_MIN_EXP)))
      code = 8'h00;                                       // zero / tiny block: SF clamps to 2^-48
    else if ($signed(es) > 15 || ($signed(es) == 15 && sf8 > 8'd192))
      code = hifsim_pkg::E6M2_MAX;                        // SF > 49152 (also Inf): 0xFE
    else
      code = {6'(ee + 9'(hifsim_pkg::E6M2_BIAS)), mant};
    case (code[1:0])
      2'd0:    rs = 8'(hifsim_pkg::HIF4Q_REC_SIG0);
      2'd1:    rs = 8'(hifsim_pkg::HIF4Q_REC_SIG1);
      2'd2:    rs = 8'(hifsim_pkg::HIF4Q_REC_SIG2);
      default: rs = 8'(hifsim_pkg::HIF4Q_REC_SIG3);
    endcase
    rexp = 7'(((code[1:0] == 2'd0) ? 7'd48 : 7'd47) - {1'b0, code[7:2]} - 7'd7);
    q2_scale = {rexp, rs, code};
    q2_nan   = c1_data[W_C1-1] || ((INF_TO_NAN != 0) && c1_data[W_C1-2]);
  end

  localparam int W_C2 = 1 + WSC + 24*WV + WX;   // {nan, scale, V8, V16, x}
  logic            c2_valid, c2_ready;
  logic [W_C2-1:0] c2_data;
  hifsim_pipe_reg #(.W(W_C2), .EN(CUT_Q2)) u_cut_q2 (
    .clk, .rst_n,
    .up_valid(c1_valid), .up_ready(c1_ready),
    .up_data({q2_nan, q2_scale, c1_data[WX +: 24*WV], c1_data[WX-1:0]}),
    .dn_valid(c2_valid), .dn_ready(c2_ready), .dn_data(c2_data)
  );

  // ------------------------------------------------------------------------------------
  // Stage 3 (combinational): q3, the level-2 and level-3 bits.
  // ------------------------------------------------------------------------------------
  logic [23:0] q3_e1;   // {E1_16, E1_8}
  always_comb begin
    logic [7:0]  rs;
    logic [6:0]  rexp;
    logic [7:0]  e18;
    logic [15:0] e116;
    rs   = c2_data[W_C2-1-1-7 -: 8];
    rexp = c2_data[W_C2-1-1 -: 7];
    for (int i = 0; i < 8; i++) begin
      e18[i] = ge_pow2(c2_data[WX + 16*WV + WV*i +: WV], rs, rexp, 2'd2);
    end
    for (int j = 0; j < 16; j++) begin
      e116[j] = ge_pow2(c2_data[WX + WV*j +: WV], rs, rexp, e18[j/2] ? 2'd2 : 2'd1);
    end
    if (A6 && c2_data[WX + 24*WV +: 8] == 8'h00) q3_e1 = '0;   // A6: code 0x00 = 0, REC = 0
    else q3_e1 = {e116, e18};
  end

  localparam int W_C3 = 1 + WSC + 24 + WX;   // {nan, scale, E1 bits, x}
  logic            c3_valid, c3_ready;
  logic [W_C3-1:0] c3_data;
  hifsim_pipe_reg #(.W(W_C3), .EN(CUT_Q3)) u_cut_q3 (
    .clk, .rst_n,
    .up_valid(c2_valid), .up_ready(c2_ready),
    .up_data({c2_data[W_C2-1 -: 1+WSC], q3_e1, c2_data[WX-1:0]}),
    .dn_valid(c3_valid), .dn_ready(c3_ready), .dn_data(c3_data)
  );

  // ------------------------------------------------------------------------------------
  // Stage 4 (combinational): q4, the 64 elements.
  // ------------------------------------------------------------------------------------
  logic [287:0] q4_unit;
  always_comb begin
    logic [7:0]  code, rs, e18;
    logic [6:0]  rexp;
    logic [15:0] e116;
    logic        nan;
    logic [15:0] xk, pe;
    logic [16:0] pr;      // pe, or (A6) pe rounded to 8 significant bits
    logic [8:0]  pk;      // A6: the kept 8 bits plus the rounding increment
    logic [9:0]  sh;      // signed: 4y = pe * 2^sh
    logic [9:0]  t;       // A6: sh + 148 (the product is 0 in BF16 iff pe * 2^t <= 2^16 + 1)
    logic        pzero;
    logic [3:0]  rr;      // -sh - 1, when 5 <= -sh <= 16
    logic [16:0] q;
    logic        guard, sticky, inc;
    logic [16:0] mq;
    logic [2:0]  m;
    logic [255:0] nibs;
    {nan, rexp, rs, code} = c3_data[W_C3-1 -: 1+WSC];
    {e116, e18} = c3_data[WX +: 24];
    for (int k = 0; k < NE; k++) begin
      xk = c3_data[16*k +: 16];
      pe = {8'd0, xk[14:7] != 8'd0, xk[6:0]} * {8'd0, rs};
      // sh = ((E ? E : 1) - 134) + rexp + 2 - E1_8 - E1_16
      sh = 10'({2'b00, (xk[14:7] != 8'd0) ? xk[14:7] : 8'd1} - 10'd132 + {{3{rexp[6]}}, rexp}
               - 10'(e18[k/8]) - 10'(e116[k/4]));
      // A6: RNE of pe to 8 significant bits. pe >= 2^14 for a normal x; a subnormal x lies
      // below 2^-126 and its element is 0 whatever this rounding does.
      pk = pe[15] ? 9'(pe[15:8]) + 9'(pe[7] && ((pe[6:0] != 7'd0) || pe[8]))
                  : 9'(pe[14:7]) + 9'(pe[6] && ((pe[5:0] != 6'd0) || pe[7]));
      pr = !A6 ? {1'b0, pe} : pe[15] ? {pk, 8'd0} : {1'b0, pk, 7'd0};
      t  = sh + 10'd148;
      pzero = (pe == 16'd0) || $signed(t) < 0 || ($signed(t) <= 9 && (26'(pe) << t[3:0]) <= 26'd65537);
      rr = 4'(10'd0 - sh - 10'd1);
      q  = pr >> ({1'b0, rr} + 5'd1);
      guard  = pr[{1'b0, rr}];
      sticky = (pr & ~(17'h1FFFF << rr)) != 17'd0;
      inc    = RNE ? (guard && (sticky || q[0])) : guard;
      mq     = q + 17'(inc);
      if (pe == 16'd0)                   m = 3'd0;
      else if ($signed(sh) >= -4)        m = 3'd7;   // 4y >= 8: saturates
      else if ($signed(sh) < -16)        m = 3'd0;   // 4y < 1/2 (A6: <= 1/2, a tie to even 0)
      else if (mq >= 17'd8)              m = 3'd7;
      else                               m = mq[2:0];
      if (A6 && code == 8'h00) nibs[4*k +: 4] = 4'd0;   // code 0x00 = 0: the unit is all +0
      else nibs[4*k +: 4] = {xk[15] && (xk[14:0] != 15'd0) && !(A6 && pzero), m};
    end
    if (nan) q4_unit = {256'd0, 24'd0, hifsim_pkg::E6M2_NAN};
    else     q4_unit = {nibs, e116, e18, code};
  end

  hifsim_pipe_reg #(.W(288), .EN(CUT_Q4)) u_cut_q4 (
    .clk, .rst_n,
    .up_valid(c3_valid), .up_ready(c3_ready), .up_data(q4_unit),
    .dn_valid(out_valid), .dn_ready(out_ready), .dn_data(unit)
  );
endmodule
