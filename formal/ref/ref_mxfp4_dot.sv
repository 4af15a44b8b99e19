// ref_mxfp4_dot: the formal reference for mxfp4_dot64, written from the MXFP4 definition (OCP MX
// v1.0 sections 5.3.3 E2M1 and 5.4.1 E8M0, docs/formats.md "Block", docs/datapath.md section 3),
// not from the RTL:
//   E2M1 element: (-1)^s x {0, 0.5, 1, 1.5, 2, 3, 4, 6}[code & 7]
//   E8M0 scale:   2^(code - 127), code 0xFF = NaN
//   dot = sum over blocks i = 0, 1 of 2^(xa[i]-127) 2^(xb[i]-127) sum_k a[k] b[k]
//       = sum_i S[i] 2^X[i],  S[i] = sum of the 32 products in quarter units (an integer),
//         X[i] = xa[i] + xb[i] - 256
// out = that exact value rounded once to FP32 (ref_round, roundTiesToEven, subnormals, overflow
// to Inf); NaN (0x7FC00000) when any of the four scales is 0xFF; an exactly zero dot is +0.
//
// Split in two modules at the unit's stage contract (formal/mx/mx_miter.sv):
//   ref_mxfp4_front: codes -> {nan, X[1], X[0], S[1], S[0]}
//   ref_mx_two_term: {S, X} pairs -> FP32, the exact two-term sum. No jam and no leading term:
//     both terms are placed in ONE field whose lsb weighs 2^min(X[0], X[1]), each S[i] shifted
//     up by X[i] - min, so the field holds the sum exactly for every pair of exponents
//     (WS + XMAX - XMIN + 1 bits: 525 for MXFP4), rounded by ref_round_wide (= ref_round).
// Formal-only: never synthesised.
module ref_mx_two_term #(
  parameter int WS   = 14,     // block sum, two's complement
  parameter int WX   = 10,     // block exponent, two's complement
  parameter int XMIN = -256,
  parameter int XMAX = 254,
  // the largest exponent distance |X[0] - X[1]| the field holds exactly: XMAX - XMIN (the default)
  // is every pair; a smaller DMAX is a cheaper reference for the pairs at most DMAX apart only
  // (the miter then assumes |X[0] - X[1]| <= DMAX)
  parameter int DMAX = XMAX - XMIN
) (
  input  logic [WS-1:0] s0,
  input  logic [WS-1:0] s1,
  input  logic [WX-1:0] x0,
  input  logic [WX-1:0] x1,
  output logic [31:0]   out
);
  localparam int WF = WS + DMAX + 1;   // S << DMAX, plus a bit for the sum's carry
  localparam int WD = 12;              // exponents and shift amounts, signed
  logic [WF-1:0]        f;
  logic signed [WD-1:0] lo;            // the field's lsb weight: the smaller exponent
  always_comb begin
    logic signed [WD-1:0] e0, e1;
    e0 = WD'($signed(x0));
    e1 = WD'($signed(x1));
    lo = (e0 < e1) ? e0 : e1;
    f  = ({{(WF-WS){s0[WS-1]}}, s0} << WD'(e0 - lo)) + ({{(WF-WS){s1[WS-1]}}, s1} << WD'(e1 - lo));
  end
  ref_round_wide #(.WS(WF), .WE(WD), .P(24), .RZ(0)) u_round (.sum(f), .lsb_exp(lo), .out(out));
endmodule

module ref_mxfp4_front (
  input  logic [255:0] a,
  input  logic [255:0] b,
  input  logic [15:0]  sa,
  input  logic [15:0]  sb,
  output logic [13:0]  s0, s1,   // S[i], quarter units
  output logic [9:0]   x0, x1,   // X[i]
  output logic         nan
);
  // E2M1 magnitude in half units (0.5 steps): the OCP value table times 2
  function automatic logic [3:0] e2m1_x2(input logic [2:0] m);
    case (m)
      3'd0: e2m1_x2 = 4'd0;    // 0
      3'd1: e2m1_x2 = 4'd1;    // 0.5 (subnormal)
      3'd2: e2m1_x2 = 4'd2;    // 1.0
      3'd3: e2m1_x2 = 4'd3;    // 1.5
      3'd4: e2m1_x2 = 4'd4;    // 2.0
      3'd5: e2m1_x2 = 4'd6;    // 3.0
      3'd6: e2m1_x2 = 4'd8;    // 4.0
      default: e2m1_x2 = 4'd12; // 6.0
    endcase
  endfunction
  // S[i]: the 32 products summed in element order into a 20-bit integer (|S| <= 32 x 144 = 4608)
  function automatic logic signed [19:0] block_sum(input logic [127:0] ca, input logic [127:0] cb);
    logic signed [19:0] s, p;
    s = '0;
    for (int k = 0; k < 32; k++) begin
      p = 20'(e2m1_x2(ca[4*k +: 3]) * e2m1_x2(cb[4*k +: 3]));
      s = (ca[4*k+3] ^ cb[4*k+3]) ? s - p : s + p;
    end
    block_sum = s;
  endfunction
  always_comb begin
    s0 = 14'(block_sum(a[127:0], b[127:0]));
    s1 = 14'(block_sum(a[255:128], b[255:128]));
    // 2^(xa-127) 2^(xb-127) x quarter units (2^-2)
    x0 = 10'(12'(sa[7:0]) + 12'(sb[7:0]) - 12'd256);
    x1 = 10'(12'(sa[15:8]) + 12'(sb[15:8]) - 12'd256);
    nan = (sa[7:0] == 8'hFF) || (sa[15:8] == 8'hFF) || (sb[7:0] == 8'hFF) || (sb[15:8] == 8'hFF);
  end
endmodule

module ref_mxfp4_dot (
  input  logic [255:0] a,
  input  logic [255:0] b,
  input  logic [15:0]  sa,
  input  logic [15:0]  sb,
  output logic [31:0]  out
);
  logic [13:0] s0, s1;
  logic [9:0]  x0, x1;
  logic        nan;
  logic [31:0] sum;
  ref_mxfp4_front u_front (.a, .b, .sa, .sb, .s0, .s1, .x0, .x1, .nan);
  ref_mx_two_term #(.WS(14), .WX(10), .XMIN(-256), .XMAX(254)) u_sum (.s0, .s1, .x0, .x1, .out(sum));
  assign out = nan ? 32'h7FC00000 : sum;
endmodule
