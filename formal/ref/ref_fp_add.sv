// ref_fp_add: the formal reference for hifsim_fp_add -- r = round_P(x + y) -- written from IEEE
// 754-2019 (6.1 infinities, 6.2 NaNs, 6.3 the sign of a zero sum), not from the RTL: both binary32
// operands are exact integers in units of 2^(EB-150) (EB = max(EBASE, 1)), their sum is exact,
// and ref_round rounds it once (P = MANT_BITS + 1 bits, RNE or RZ).
// NaN operand or Inf - Inf -> the canonical NaN 0x7FC00000; Inf + finite -> that Inf;
// x + y == 0 exactly -> +0, except (-0) + (-0) = -0 (both rounding modes).
//
// Exponent window: the exact sum is held in WI = 24 + EWIN + 2 bits, so it is exact only for
// finite operands whose exponent fields (subnormals at 1) lie in [EB, EB + EWIN]; the miter
// (fpadd_miter.sv) assumes that. EBASE = 0 and EWIN = 254 is every pair (280 bits: Yosys 0.23 did
// not finish elaborating that miter in 30 min, docs/formal.md); the jobs prove windows of 32
// binades at the bottom (subnormals), the middle and the top (overflow) of the range.
module ref_fp_add #(
  parameter int MANT_BITS = 23,
  parameter int ROUND_RZ  = 0,
  parameter int EBASE     = 0,
  parameter int EWIN      = 254
) (
  input  logic [31:0] x,
  input  logic [31:0] y,
  output logic [31:0] r
);
  localparam int EB = (EBASE < 1) ? 1 : EBASE;
  localparam int WI = 24 + EWIN + 2;
  logic [WI-1:0] ix, iy, s;
  logic [31:0]   rounded;
  always_comb begin
    logic [23:0] mx, my;
    logic [7:0]  ex, ey;
    ex = x[30:23];
    ey = y[30:23];
    mx = {ex != 0, x[22:0]};
    my = {ey != 0, y[22:0]};
    // |x| = mx * 2^(max(ex,1) - 150) = (mx << (max(ex,1) - EB)) * 2^(EB-150)
    ix = WI'(mx) << (((ex == 0) ? 8'd1 : ex) - 8'(EB));
    iy = WI'(my) << (((ey == 0) ? 8'd1 : ey) - 8'(EB));
    if (x[31]) ix = -ix;
    if (y[31]) iy = -iy;
    s = ix + iy;
  end
  ref_round #(.WS(WI), .WE(10), .P(MANT_BITS + 1), .RZ(ROUND_RZ)) u_round (
    .sum(s), .lsb_exp(10'(EB - 150)), .out(rounded)
  );
  always_comb begin
    logic xnan, ynan, xinf, yinf;
    xnan = (x[30:23] == 8'hFF) && (x[22:0] != 0);
    ynan = (y[30:23] == 8'hFF) && (y[22:0] != 0);
    xinf = (x[30:0] == 31'h7F800000);
    yinf = (y[30:0] == 31'h7F800000);
    if (xnan || ynan || (xinf && yinf && x[31] != y[31])) r = 32'h7FC00000;
    else if (xinf)                                        r = x;
    else if (yinf)                                        r = y;
    else if (s == 0)                                      r = {x[31] & y[31], 31'd0};
    else                                                  r = rounded;
  end
endmodule
