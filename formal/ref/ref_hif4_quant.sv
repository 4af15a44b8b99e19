// ref_hif4_quant: the formal reference of the BF16 -> HiF4 quantizer, written from
// ../shared/reference/hif4.md section 2 (steps 1-11) and 2.1 (NaN, Inf, zero block), not from
// the RTL. Formal-only: never synthesised. Every value is an integer significand times a power
// of two, every compare and rounding an integer operation on it:
//   x (BF16)  = sig * 2^(e - 134), sig = E ? 128 + frac : frac, e = E ? E : 1 (subnormals exact)
//   SF        = RNE to 8 significant bits of Vmax * C7, C7 = 0x3E12 = 146 * 2^-10 (step 2), then
//               clamped to [2^-48, 49152] (step 3), then t = SF / 2^floor(log2 SF) * 4 rounded to
//               an integer ties-to-even, 8 -> 4 with a carry into the exponent (step 4)
//   REC       = RNE_bf16(1 / value(E6M2)) (step 5), its significand computed here by an integer
//               division (8 / (1 + M/4) * 128, rounded; 128 for M = 0), not read from a table
//   E1 bits   = the exact product V * REC compared with 4 or 2 * 2^E1_8 as P >= 2^d on the
//               integer significand product P (steps 6, 7); CMP_BF16: P first rounded to 8
//               significant bits (hif4.md 2 step 6 [DISAGREE]: the PTO A6 golden's compare)
//   element   = 4y = |x| * REC * 2^(2 - E1_8 - E1_16) as a fixed-point number with 40 fraction
//               bits, rounded half away (or ties to even, ELEM_RNE), saturated at 7 (steps 8-11)
// ASCEND_A6 (docs/formats.md 3.1, rules A1-A9 of the PTO A6 golden): the compares as CMP_BF16
// (A5), code 0x00 = 0 so the unit is all +0 (A3), the element p = BF16(FP32(|x| * scale))
// rounded to the nearest code with ties to even (A7, A9) and its sign kept only if p != 0 (A8).

package ref_hif4_quant_pkg;
  // RNE of a nonzero integer p (< 2^17) to 8 significant bits; the result may be 2^(lead+1).
  function automatic logic [17:0] round8(input logic [16:0] p);
    int lead;
    logic [17:0] q;
    logic g, st;
    lead = 0;
    for (int b = 0; b < 17; b++) if (p[b]) lead = b;
    if (lead <= 7) round8 = {1'b0, p};
    else begin
      q  = 18'(p >> (lead - 7));
      g  = p[lead - 8];
      st = (p & ((17'd1 << (lead - 8)) - 17'd1)) != 17'd0;
      round8 = (q + 18'(g && (st || q[0]))) << (lead - 7);
    end
  endfunction

  // The significand of RNE_bf16(1 / (1 + M/4)) with 7 fraction bits (no ties: 5, 6, 7 divide
  // no power of two).
  function automatic int rec_sig(input int m);
    rec_sig = (m == 0) ? 128 : (2048 / (4 + m) + 1) / 2;
  endfunction

  // REC = rs * 2^rexp for the scale code (value(E6M2) = (4 + M)/4 * 2^(E - 48)): the exponent
  // of 1 / value is 48 - E for M = 0, 47 - E otherwise (1/(1 + M/4) in (0.5, 1)).
  function automatic logic [7:0] rec_rs(input logic [1:0] m);
    case (m)
      2'd0: rec_rs = 8'(rec_sig(0));
      2'd1: rec_rs = 8'(rec_sig(1));
      2'd2: rec_rs = 8'(rec_sig(2));
      default: rec_rs = 8'(rec_sig(3));
    endcase
  endfunction
  function automatic int rec_exp(input logic [7:0] code);
    rec_exp = 48 - $signed(32'(code[7:2])) - ((code[1:0] != 0) ? 1 : 0) - 7;
  endfunction
endpackage

// The meta word {E1_16, E1_8, E6M2} of the unit for the 64 BF16 inputs x (element k at
// x[16k +: 16]); NaN anywhere (or Inf with INF_TO_NAN) -> 0x000000FF (hif4.md 2.1).
module ref_hif4_meta #(
  parameter int CMP_BF16   = 0,
  parameter int INF_TO_NAN = 0,
  parameter int ASCEND_A6  = 0
) (
  input  logic [1023:0] x,
  output logic [31:0]   meta
);
  // V * REC >= 2^t, V a BF16 magnitude (Inf: true), REC = rs * 2^rexp.
  function automatic logic reaches(input logic [14:0] v, input logic [7:0] rs, input int rexp, input int t);
    logic [16:0] p;
    logic [17:0] pr;
    int          ev, d;
    ev = (v[14:7] != 0) ? $signed(32'(v[14:7])) : 1;
    p  = 17'({(v[14:7] != 0), v[6:0]}) * 17'(rs);
    pr = ((CMP_BF16 != 0 || ASCEND_A6 != 0) && p != 0) ? ref_hif4_quant_pkg::round8(p) : {1'b0, p};
    d  = t - (ev - 134 + rexp);
    if (v == 15'h7F80)  reaches = 1'b1;
    else if (pr == 0)   reaches = 1'b0;
    else if (d <= 0)    reaches = 1'b1;
    else if (d > 17)    reaches = 1'b0;
    else                reaches = pr >= (18'd1 << d);
  endfunction

  always_comb begin
    logic [14:0] m, vmax;
    logic [16*15-1:0] v16;   // V16[j] at [15j +: 15]
    logic [8*15-1:0]  v8;
    logic        nan, inf;
    logic [16:0] p;
    logic [17:0] r;
    int          lead, e, ev;
    logic [7:0]  sig8;
    logic [2:0]  tint;
    logic [3:0]  tr;
    logic [7:0]  code, rs;
    int          rexp;
    logic [7:0]  e18;
    logic [15:0] e116;
    // step 1: peaks (BF16 magnitudes order as integers; Inf is the largest non-NaN)
    nan = 1'b0;
    inf = 1'b0;
    for (int j = 0; j < 16; j++) begin
      v16[15*j +: 15] = '0;
      for (int k = 4*j; k < 4*j + 4; k++) begin
        m = x[16*k +: 15];
        nan = nan || (m[14:7] == 8'hFF && m[6:0] != 0);
        inf = inf || (m == 15'h7F80);
        v16[15*j +: 15] = (m > v16[15*j +: 15]) ? m : v16[15*j +: 15];
      end
    end
    vmax = '0;
    for (int i = 0; i < 8; i++) begin
      v8[15*i +: 15] = (v16[30*i +: 15] > v16[30*i+15 +: 15]) ? v16[30*i +: 15] : v16[30*i+15 +: 15];
      vmax = (v8[15*i +: 15] > vmax) ? v8[15*i +: 15] : vmax;
    end
    // step 2: SF = RNE_bf16(Vmax * C7) = r * 2^(ev - 144) (the BF16 rounding: 8 significant bits)
    ev = (vmax[14:7] != 0) ? $signed(32'(vmax[14:7])) : 1;
    p  = 17'({(vmax[14:7] != 0), vmax[6:0]}) * 17'd146;
    r  = (p != 0) ? ref_hif4_quant_pkg::round8(p) : 18'd0;
    lead = 0;
    for (int b = 0; b < 18; b++) if (r[b]) lead = b;
    sig8 = 8'(r >> (lead - 7));            // r has at most 8 significant bits and lead >= 7 when r != 0
    e    = ev - 144 + lead;                // SF = sig8/128 * 2^e
    // step 3: clamp to [2^-48, 49152 = 1.5 * 2^15]
    if (vmax == 15'h7F80 || e > 15 || (e == 15 && sig8 > 8'd192)) begin
      sig8 = 8'd192;
      e = 15;
    end else if (r == 0 || e < -48) begin
      sig8 = 8'd128;
      e = -48;
    end
    // step 4: t = sig8 / 32 in [4, 8), rounded to an integer, ties to even; 8 -> 4 and e + 1
    tint = 3'(sig8 >> 5);
    tr   = {1'b0, tint} + 4'((sig8[4:0] > 5'd16) || (sig8[4:0] == 5'd16 && tint[0]));
    if (tr == 4'd8) begin
      tr = 4'd4;
      e  = e + 1;
    end
    code = 8'(((e + 48) << 2) | ($signed(32'(tr)) - 4));
    // step 5: REC = rs * 2^rexp, value(E6M2) = (4 + M)/4 * 2^(E - 48)
    rs   = ref_hif4_quant_pkg::rec_rs(code[1:0]);
    rexp = ref_hif4_quant_pkg::rec_exp(code);
    // steps 6, 7: E1_8[i] = V8[i] * REC >= 4; E1_16[j] = V16[j] * REC * 2^-E1_8[j/2] >= 2
    for (int i = 0; i < 8; i++) e18[i] = reaches(v8[15*i +: 15], rs, rexp, 2);
    for (int j = 0; j < 16; j++) e116[j] = reaches(v16[15*j +: 15], rs, rexp, 1 + $signed(32'(e18[j/2])));
    if (ASCEND_A6 != 0 && code == 8'h00) {e116, e18} = '0;   // A3: REC = 1/0 taken as 0
    meta = (nan || (INF_TO_NAN != 0 && inf)) ? 32'h000000FF : {e116, e18, code};
  end
endmodule

// One element (hif4.md 2 steps 8-11): the S1P2 nibble of BF16 x against the unit's scale code
// and its two level bits; code 0xFF (a NaN unit) -> 0.
module ref_hif4_elem #(
  parameter int ELEM_RNE  = 0,
  parameter int ASCEND_A6 = 0
) (
  input  logic [15:0] x,
  input  logic [7:0]  code,
  input  logic        e8,
  input  logic        e16,
  output logic [3:0]  nib
);
  always_comb begin
    logic [7:0]  rs;
    logic [15:0] pe;
    logic [16:0] pr;    // pe, or (A6) pe rounded to 8 significant bits
    logic        keep_sign;
    logic [59:0] w;     // 4y with 40 fraction bits
    logic [19:0] n;
    logic [39:0] rem;
    logic        up;
    logic [20:0] mr;
    logic [2:0]  m;
    int          ex, z;
    w = '0; n = '0; rem = '0; up = 1'b0; mr = '0; keep_sign = 1'b1;
    rs = ref_hif4_quant_pkg::rec_rs(code[1:0]);
    ex = (x[14:7] != 0) ? $signed(32'(x[14:7])) : 1;
    pe = 16'({(x[14:7] != 0), x[6:0]}) * 16'(rs);
    // 4y = pe * 2^z: x = sig * 2^(ex-134), REC = rs * 2^(48 - E - 7 - (M != 0)), 4 = 2^2
    z  = ex - 134 + ref_hif4_quant_pkg::rec_exp(code) + 2 - $signed(32'(e8)) - $signed(32'(e16));
    // A6 (A7): the product |x| * scale = pe * 2^(z-2) is exact in FP32 when it is at least 2^-126
    // (16 significant bits) and then rounds to BF16 as pe to 8 bits; below 2^-126, 4|p| < 2^-123
    // gives the code 0 either way. The sign (A8): FP32 then BF16 round it to 0 (ties to even)
    // exactly when pe * 2^(z-2) <= 2^-134 + 2^-150, i.e. pe * 2^(z+148) <= 2^16 + 1.
    pr = (ASCEND_A6 != 0 && pe != 0) ? 17'(ref_hif4_quant_pkg::round8({1'b0, pe})) : {1'b0, pe};
    if (ASCEND_A6 != 0 && x[14:0] != 15'h7F80)
      keep_sign = (pe != 0) && (z + 148 >= 17 || (z + 148 >= 0 && (34'(pe) << (z + 148)) > 34'd65537));
    if (x[14:0] == 15'h7F80 || (pr != 0 && z >= 4)) m = 3'd7;     // Inf, or 4y >= 16
    else if (pr == 0 || z < -40) m = 3'd0;                        // 4y < 2^17 * 2^-41
    else begin
      w   = 60'(pr) << (z + 40);
      n   = w[59:40];
      rem = w[39:0];
      up  = (ELEM_RNE != 0 || ASCEND_A6 != 0) ? (rem > 40'h8000000000 || (rem == 40'h8000000000 && n[0]))
                                             : rem[39];
      mr  = {1'b0, n} + 21'(up);
      m   = (mr > 21'd7) ? 3'd7 : mr[2:0];
    end
    if (code == 8'hFF || (ASCEND_A6 != 0 && code == 8'h00)) nib = 4'd0;   // NaN unit; A3: all +0
    else nib = {x[15] && x[14:0] != 15'd0 && keep_sign, m};
  end
endmodule
