// ref_mxfp8_dot: the formal reference for mxfp8_dot32, written from the MXFP8 definition (OCP MX
// v1.0: one 32-element block, an E8M0 scale per operand; OCP OFP8 for the elements; docs/formats.md,
// docs/datapath.md section 3, ../shared/reference/mx-nvfp4-fp8.md sections 2, 3.2, 3.5), not from
// the RTL:
//   E4M3 (E5M2 = 0; E4M3FN, bias 7):  e = 0: (-1)^s m 2^-9;  e > 0: (-1)^s (8 + m) 2^(e - 10);
//                                     S.1111.111 = NaN; no infinity
//   E5M2 (E5M2 = 1; bias 15):         e = 0: (-1)^s m 2^-16; 0 < e < 31: (-1)^s (4 + m) 2^(e - 17);
//                                     e = 31: m = 0 +-Inf, m != 0 NaN
//   each written as sig x 2^(sh + EMIN), sh = max(e - 1, 0), EMIN = -9 / -16
//   E8M0 scale: 2^(code - 127), 0xFF = NaN
//   dot = 2^(xa-127) 2^(xb-127) sum_k a[k] b[k], the sum exact in units of 2^(2 EMIN)
// out = that exact value rounded once to FP32 (ref_round: roundTiesToEven, subnormals, overflow to
// Inf). Specials as IEEE 754 arithmetic gives them (6.1, 6.2, 7.2): a NaN scale or element, or an
// infinite element times a zero one, gives NaN (the canonical 0x7FC00000); infinities of both signs
// among the products give NaN; otherwise an infinite product gives that infinity (a finite sum
// beside it does not matter); an exactly zero finite dot is +0 (the project's convention).
//
// Split in two modules (formal/mx/mx8_miter.sv proves the unit's s2 boundary c2_data against the
// front and the unit after it against the tail; ref_mxfp8_dot is the two in series):
//   ref_mxfp8_front: codes -> {scale_nan, nan, pinf, ninf, lsb, sum}
//     sum  the finite products summed exactly, in units of 2^(2 EMIN), WT bits two's complement.
//          WT from the bound, not from the RTL: the largest finite magnitude is 14 x 2^14 (E4M3
//          S.1111.110 = 448 = 14 x 2^(14-9)) / 7 x 2^29 (E5M2 S.11110.11 = 57344 = 7 x 2^(29-16)),
//          so |sum| <= 32 x 196 x 2^28 = 6272 x 2^28 < 2^41 (E4M3) and 32 x 49 x 2^58 =
//          1568 x 2^58 < 2^69 (E5M2): 42 / 70 bits hold every sum exactly. Computed in 80 bits,
//          the low WT bits output (exact by the bound).
//     lsb  the sum's unit: (xa - 127) + (xb - 127) + 2 EMIN, in [-272, 238] / [-286, 224]: exact
//          in 11 bits (0xFF codes included; they make the result NaN anyway)
//     scale_nan  a scale is 0xFF; nan  a product is NaN (NaN element, or Inf x 0);
//     pinf / ninf  a product that is not NaN is +Inf / -Inf
//   ref_mxfp8_tail: that record -> FP32 (the specials' priority above, else ref_round(sum, lsb))
// Formal-only: never synthesised.
module ref_mxfp8_front #(
  parameter int E5M2 = 0,
  parameter int WT   = (E5M2 != 0) ? 70 : 42
) (
  input  logic [255:0]  a,
  input  logic [255:0]  b,
  input  logic [7:0]    sa,
  input  logic [7:0]    sb,
  output logic [WT-1:0] sum,
  output logic [10:0]   lsb,
  output logic          scale_nan,
  output logic          nan,
  output logic          pinf,
  output logic          ninf
);
  localparam int EMIN = (E5M2 != 0) ? -16 : -9;
  localparam int WW   = 80;    // the running sum, wider than any partial sum can reach
  // one element: {nan, inf, sign, sig (4 bits), sh (5 bits)}
  function automatic logic [11:0] decode(input logic [7:0] c);
    logic [4:0] e;
    logic [3:0] m;
    logic       isnan, isinf;
    if (E5M2 != 0) begin
      e = {c[6:2]};
      m = {2'b00, c[1:0]};
      isnan = (e == 5'd31) && (m != 0);
      isinf = (e == 5'd31) && (m == 0);
      decode = {isnan, isinf, c[7], (e == 0) ? m : (4'd4 + m), (e == 0) ? 5'd0 : e - 5'd1};
    end else begin
      e = {1'b0, c[6:3]};
      m = {1'b0, c[2:0]};
      isnan = (c[6:0] == 7'h7F);
      isinf = 1'b0;
      decode = {isnan, isinf, c[7], (e == 0) ? m : (4'd8 + m), (e == 0) ? 5'd0 : e - 5'd1};
    end
  endfunction
  // (the lane loop uses expressions only, no if/else: Yosys's `proc` did not finish the same loop
  // written with nested if/else in 5 minutes)
  always_comb begin
    logic [11:0] da, db;
    logic        za, zb, sg, lnan, linf, fin;
    logic [7:0]  pm;
    logic signed [WW-1:0] p, t;
    t    = '0;
    nan  = 1'b0;
    pinf = 1'b0;
    ninf = 1'b0;
    for (int k = 0; k < 32; k++) begin
      da = decode(a[8*k +: 8]);
      db = decode(b[8*k +: 8]);
      za = !da[11] && !da[10] && (da[8:5] == 0);
      zb = !db[11] && !db[10] && (db[8:5] == 0);
      sg = da[9] ^ db[9];
      // NaN x anything, Inf x 0: NaN; else Inf x nonzero: the signed infinity; else finite, exact
      lnan = da[11] || db[11] || (da[10] && zb) || (db[10] && za);
      linf = !lnan && (da[10] || db[10]);
      fin  = !da[11] && !db[11] && !da[10] && !db[10];
      nan  = nan || lnan;
      ninf = ninf || (linf && sg);
      pinf = pinf || (linf && !sg);
      pm = 8'(da[8:5]) * 8'(db[8:5]);
      p  = WW'(pm) << (7'(da[4:0]) + 7'(db[4:0]));
      t  = !fin ? t : sg ? t - p : t + p;
    end
    sum = WT'(t);
    scale_nan = (sa == 8'hFF) || (sb == 8'hFF);
    // 2^(xa-127) 2^(xb-127) x the sum's unit 2^(2 EMIN)
    lsb = 11'(12'(sa) + 12'(sb) - 12'd254 + 12'(2*EMIN));
  end
endmodule

module ref_mxfp8_tail #(
  parameter int WT = 42
) (
  input  logic [WT-1:0] sum,
  input  logic [10:0]   lsb,
  input  logic          scale_nan,
  input  logic          nan,
  input  logic          pinf,
  input  logic          ninf,
  output logic [31:0]   out
);
  logic [31:0] rounded;
  ref_round #(.WS(WT), .WE(11), .P(24), .RZ(0)) u_round (.sum, .lsb_exp(lsb), .out(rounded));
  assign out = (scale_nan || nan || (pinf && ninf)) ? 32'h7FC00000 :
               pinf ? 32'h7F800000 : ninf ? 32'hFF800000 : rounded;
endmodule

module ref_mxfp8_dot #(
  parameter int E5M2 = 0
) (
  input  logic [255:0] a,
  input  logic [255:0] b,
  input  logic [7:0]   sa,
  input  logic [7:0]   sb,
  output logic [31:0]  out
);
  localparam int WT = (E5M2 != 0) ? 70 : 42;
  logic [WT-1:0] sum;
  logic [10:0]   lsb;
  logic          scale_nan, nan, pinf, ninf;
  ref_mxfp8_front #(.E5M2(E5M2), .WT(WT)) u_front (.a, .b, .sa, .sb, .sum, .lsb, .scale_nan, .nan, .pinf, .ninf);
  ref_mxfp8_tail #(.WT(WT)) u_tail (.sum, .lsb, .scale_nan, .nan, .pinf, .ninf, .out);
endmodule
