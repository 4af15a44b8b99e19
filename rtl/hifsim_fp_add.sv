// hifsim_fp_add: combinational floating-point adder, bit-exact with hifsim::dp::fp_add
// (model/datapath/fp_add.cpp): r = round_P(x + y), P = MANT_BITS + 1 significant bits, FP32's
// exponent range, subnormals kept, the exact sum rounded once.
//
//   MANT_BITS = 23, ROUND_RZ = 0   IEEE-754 binary32 addition, round to nearest even
//   MANT_BITS = b < 23             reduced precision (b+1 bits): the result's low 23-b mantissa
//                                  bits are always 0; the subnormal LSB is 2^(-126-b)
//   ROUND_RZ = 1                   round toward zero; overflow gives the largest finite value
//                                  (2^P - 1) * 2^(128-P) instead of Inf
// Specials: a NaN operand or Inf - Inf gives 0x7FC00000; Inf + finite gives that Inf; an exact
// zero sum is +0 except (-0) + (-0) = -0 (both modes).
//
// Datapath: swap so |X| >= |Y| (exponent and mantissa compare), align Y right by
// d = eX - eY into a 27-bit field (24 significand bits + 3 extra) with the bits shifted out
// OR-ed into the field's LSB (sticky jamming), add or subtract in 28 bits (never negative),
// leading-zero count limited so the exponent does not go below the minimum (subnormal
// results), round at the fixed position P bits below the top, carry into the exponent
// through the packed {exponent, mantissa} add. Three extra bits are enough for a correctly
// rounded result: bits are only lost when d >= 4, and then the result loses at most one
// leading bit, so the jammed sum and the exact sum lie strictly inside the same interval
// between neighbouring midpoints of the result format.
module hifsim_fp_add #(
  parameter int MANT_BITS = 23,
  parameter int ROUND_RZ  = 0
) (
  input  logic [31:0] x,
  input  logic [31:0] y,
  output logic [31:0] r
);
  if (MANT_BITS < 1 || MANT_BITS > 23 || ROUND_RZ < 0 || ROUND_RZ > 1) begin : g_bad_params
    $error("hifsim_fp_add: MANT_BITS must be in 1..23 and ROUND_RZ 0 or 1");
  end

  localparam int P = MANT_BITS + 1;             // precision, 2..24
  localparam int DROP = 24 - P;                 // mantissa bits forced to zero
  localparam logic [22:0] MANT_MASK = 23'h7FFFFF << DROP;
  // Largest finite value of the precision: exponent 254, the top P-1 mantissa bits set.
  localparam logic [30:0] MAX_FINITE = {8'd254, MANT_MASK};

  always_comb begin
    logic        xs, ys, xnan, ynan, xinf, yinf, xzero, yzero;
    logic        swap, sx, sy, sub, neg;
    logic [30:0] mx, my;          // magnitudes
    logic [7:0]  ex, ey;          // biased exponents of the larger / smaller operand
    logic [7:0]  effx, effy;      // exponent with subnormals at 1
    logic [23:0] sigx, sigy;      // significands with the hidden bit
    logic [7:0]  d;               // exponent difference (0..253)
    logic [4:0]  dc;              // d clamped to 27
    logic [26:0] yfield, yshift, lost;
    logic        sticky_in;
    logic [27:0] xfield, yj, s;   // aligned operands and the sum, LSB weight 2^(effx-153)
    logic [4:0]  lz;              // leading zeros of s (28 bits)
    logic [4:0]  sh;              // normalising left shift, at most effx
    logic [27:0] t;               // s << sh: bit 27 is the hidden bit of a normal result
    logic [8:0]  epre;            // exponent field before rounding (0 = subnormal)
    logic        guard, sticky, lsb, inc;
    logic [22:0] mant;
    logic [30:0] packed_mag, rounded;
    logic        ovf;

    xs = x[31];
    ys = y[31];
    xnan  = (x[30:23] == 8'hFF) && (x[22:0] != '0);
    ynan  = (y[30:23] == 8'hFF) && (y[22:0] != '0);
    xinf  = (x[30:0] == 31'h7F800000);
    yinf  = (y[30:0] == 31'h7F800000);
    xzero = (x[30:0] == '0);
    yzero = (y[30:0] == '0);

    // Order by magnitude: X is the larger.
    swap = y[30:0] > x[30:0];
    mx = swap ? y[30:0] : x[30:0];
    my = swap ? x[30:0] : y[30:0];
    sx = swap ? ys : xs;
    sy = swap ? xs : ys;
    sub = sx ^ sy;
    ex = mx[30:23];
    ey = my[30:23];
    effx = (ex == 8'd0) ? 8'd1 : ex;
    effy = (ey == 8'd0) ? 8'd1 : ey;
    sigx = {ex != 8'd0, mx[22:0]};
    sigy = {ey != 8'd0, my[22:0]};
    d  = effx - effy;
    dc = (d > 8'd27) ? 5'd27 : d[4:0];

    // Align Y; the bits shifted out become the sticky bit jammed into the LSB.
    yfield    = {sigy, 3'b000};
    yshift    = yfield >> dc;
    lost      = yfield & ~(27'h7FFFFFF << dc);
    sticky_in = (lost != '0);
    xfield    = {1'b0, sigx, 3'b000};
    yj        = {1'b0, yshift[26:1], yshift[0] | sticky_in};
    s         = sub ? (xfield - yj) : (xfield + yj);

    // Normalise: left shift by the leading-zero count, but not below exponent 1.
    lz = 5'd28;
    for (int i = 0; i < 28; i++) begin
      if (s[i]) lz = 5'(27 - i);
    end
    sh   = ({3'b000, lz} > effx) ? effx[4:0] : lz;  // effx < lz <= 28 here, so it fits 5 bits
    t    = s << sh;
    epre = t[27] ? ({1'b0, effx} + 9'd1 - {4'd0, sh}) : 9'd0;

    // Round at P bits below bit 27.
    guard  = t[27 - P];
    sticky = (t & ~(28'hFFFFFFF << (27 - P))) != '0;
    lsb    = t[28 - P];
    inc    = (ROUND_RZ == 0) && guard && (sticky || lsb);  // ties to even
    mant       = t[26:4] & MANT_MASK;
    packed_mag = {epre[7:0], mant};
    rounded    = packed_mag + (31'(inc) << DROP);
    ovf        = epre[8] || (epre[7:0] == 8'hFF) || (rounded[30:23] == 8'hFF);
    neg        = sx;

    if (xnan || ynan || (xinf && yinf && (xs != ys))) r = hifsim_pkg::FP32_QNAN;
    else if (xinf)                                    r = x;
    else if (yinf)                                    r = y;
    else if (xzero && yzero)                          r = {xs & ys, 31'd0};
    else if (s == '0)                                 r = 32'd0;  // exact cancellation: +0
    else if (ovf)                                     r = (ROUND_RZ != 0) ? {neg, MAX_FINITE}
                                                                   : {neg, hifsim_pkg::FP32_POS_INF[30:0]};
    else                                              r = {neg, rounded};
  end
endmodule
