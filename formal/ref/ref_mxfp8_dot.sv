// ref_mxfp8_dot: the formal reference for mxfp8_dot32, written from the MXFP8 definition (OCP MX
// v1.0: one 32-element block, an E8M0 scale per operand; OCP OFP8 for the elements; docs/formats.md,
// docs/datapath.md section 3), not from the RTL:
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
// beside it does not matter); an exactly zero finite dot is +0.
// Formal-only: never synthesised.
module ref_mxfp8_dot #(
  parameter int E5M2 = 0
) (
  input  logic [255:0] a,
  input  logic [255:0] b,
  input  logic [7:0]   sa,
  input  logic [7:0]   sb,
  output logic [31:0]  out
);
  localparam int EMIN = (E5M2 != 0) ? -16 : -9;
  localparam int WT   = 80;    // |sum| < 32 x 15^2 x 2^28 (E4M3) / 32 x 7^2 x 2^58 (E5M2) < 2^70
  // one element: {nan, inf, sign, sig (4 bits), sh (5 bits)}
  function automatic logic [11:0] decode(input logic [7:0] c);
    logic [4:0] e;
    logic [3:0] m;
    logic       nan, inf;
    if (E5M2 != 0) begin
      e = {c[6:2]};
      m = {2'b00, c[1:0]};
      nan = (e == 5'd31) && (m != 0);
      inf = (e == 5'd31) && (m == 0);
      decode = {nan, inf, c[7], (e == 0) ? m : (4'd4 + m), (e == 0) ? 5'd0 : e - 5'd1};
    end else begin
      e = {1'b0, c[6:3]};
      m = {1'b0, c[2:0]};
      nan = (c[6:0] == 7'h7F);
      inf = 1'b0;
      decode = {nan, inf, c[7], (e == 0) ? m : (4'd8 + m), (e == 0) ? 5'd0 : e - 5'd1};
    end
  endfunction
  logic signed [WT-1:0] t;
  logic                 nan, pinf, ninf;
  logic [10:0]          lsb;
  always_comb begin
    logic [11:0] da, db;
    logic        za, zb;
    logic [7:0]  pm;
    logic signed [WT-1:0] p;
    t    = '0;
    nan  = (sa == 8'hFF) || (sb == 8'hFF);
    pinf = 1'b0;
    ninf = 1'b0;
    for (int k = 0; k < 32; k++) begin
      da = decode(a[8*k +: 8]);
      db = decode(b[8*k +: 8]);
      za = !da[11] && !da[10] && (da[8:5] == 0);
      zb = !db[11] && !db[10] && (db[8:5] == 0);
      if (da[11] || db[11]) nan = 1'b1;                         // NaN x anything
      else if ((da[10] && zb) || (db[10] && za)) nan = 1'b1;    // Inf x 0
      else if (da[10] || db[10]) begin                          // Inf x nonzero
        if (da[9] ^ db[9]) ninf = 1'b1;
        else               pinf = 1'b1;
      end else begin                                            // finite x finite, exact
        pm = 8'(da[8:5]) * 8'(db[8:5]);
        p  = WT'(pm) << (7'(da[4:0]) + 7'(db[4:0]));
        t  = (da[9] ^ db[9]) ? t - p : t + p;
      end
    end
    // 2^(xa-127) 2^(xb-127) x the sum's unit 2^(2 EMIN)
    lsb = 11'(12'(sa) + 12'(sb) - 12'd254 + 12'(2*EMIN));
  end
  logic [31:0] rounded;
  ref_round #(.WS(WT), .WE(11), .P(24), .RZ(0)) u_round (.sum(t), .lsb_exp(lsb), .out(rounded));
  assign out = (nan || (pinf && ninf)) ? 32'h7FC00000 :
               pinf ? 32'h7F800000 : ninf ? 32'hFF800000 : rounded;
endmodule
