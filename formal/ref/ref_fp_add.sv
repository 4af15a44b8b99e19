// ref_fp_add: the formal reference for hifsim_fp_add -- r = round_P(x + y) -- written from IEEE
// 754-2019 (6.1 infinities, 6.2 NaNs, 6.3 the sign of a zero sum, "the exact result rounded
// once"), not from the RTL. NaN operand or Inf - Inf -> the canonical NaN 0x7FC00000;
// Inf + finite -> that Inf; x + y == 0 exactly -> +0, except (-0) + (-0) = -0 (both modes).
//
// The sum, every pair of binary32 operands: both operands are placed in one field that follows
// the larger exponent E = max(ex, ey) (subnormals at 1): operand k is m_k * 2^(e_k - 150) =
// (m_k << KEEP) >> (E - e_k) in units of 2^(E - 150 - KEEP), so an operand up to KEEP binades
// below E keeps every bit and the sum is exact; below that the bits shifted out of the field are
// OR-ed into one sticky bit appended under it (units 2^(E - 151 - KEEP)). The field is symmetric
// in x and y (no magnitude swap, no jamming into the lsb, unlike the RTL) and ref_round rounds it once.
//
// Why the sticky bit is exact enough (the far-operand case, d = E - e_small > KEEP >= 3): the
// sum is then at least |x_large| / 2, so its rounding boundaries (representable values and
// midpoints at P <= 24 bits, the overflow threshold) are multiples of 2^(E - 150 - 2), a multiple
// of the field unit 2^(E - 150 - KEEP); the large operand is one too. With the truncated small
// operand T (field units) and nonzero bits lost, the exact sum lies strictly between x +- T and
// x +- (T + 1), an open interval with no boundary inside, and so does the appended-sticky value
// x +- (T + 1/2): both round to the same result. KEEP = 27 (2 x 24 + 3 bits in the field) keeps
// every case with any cancellation exact; the far case never cancels more than one bit.
module ref_fp_add #(
  parameter int MANT_BITS = 23,
  parameter int ROUND_RZ  = 0,
  parameter int KEEP      = 27
) (
  input  logic [31:0] x,
  input  logic [31:0] y,
  output logic [31:0] r
);
  localparam int WM = 24 + KEEP;        // one operand in the field
  localparam int WS = WM + 3;           // + sticky bit, carry, two's complement sign
  logic [WS-1:0] s;
  logic [9:0]    lsb_exp;
  logic [31:0]   rounded;

  // operand k aligned to E: its field value with the sticky bit appended
  function automatic logic [WM:0] place(input logic [23:0] m, input logic [7:0] shift);
    logic [WM-1:0] f, lost;
    f    = WM'(m) << KEEP;
    lost = f & ~({WM{1'b1}} << shift);       // shift <= 253: a shift >= WM loses everything
    place = {f >> shift, lost != 0};
  endfunction

  always_comb begin
    logic [7:0]  ex, ey, e;
    logic [23:0] mx, my;
    logic [WS-1:0] ix, iy;
    ex = (x[30:23] == 0) ? 8'd1 : x[30:23];
    ey = (y[30:23] == 0) ? 8'd1 : y[30:23];
    mx = {x[30:23] != 0, x[22:0]};
    my = {y[30:23] != 0, y[22:0]};
    e  = (ex > ey) ? ex : ey;
    ix = WS'(place(mx, e - ex));
    iy = WS'(place(my, e - ey));
    if (x[31]) ix = -ix;
    if (y[31]) iy = -iy;
    s = ix + iy;
    lsb_exp = 10'(e) - 10'(151 + KEEP);
  end
  ref_round #(.WS(WS), .WE(10), .P(MANT_BITS + 1), .RZ(ROUND_RZ)) u_round (
    .sum(s), .lsb_exp(lsb_exp), .out(rounded)
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
