// hifsim_round_fp32: the one rounding of the dot units -- a signed integer times a power of two,
// rounded once to FP32, bit-exact with hifsim::dp::round_to_float(ExactValue::from_int(S, L))
// (model/datapath/exact.cpp; precision 24, RNE). Combinational.
//
//   value = S * 2^L        S = `sum` (WS-bit two's complement), L = `lsb_exp` (WE-bit signed)
//   out   = RNE_fp32(value): subnormals kept, overflow -> +-Inf, S == 0 -> +0,
//           a nonzero value that rounds to zero keeps its sign (-0 for a tiny negative value)
//
// Datapath: |S| and its leading-one position n; exponent of the leading bit e = L + n; the
// weight of the last kept bit q = max(e, -126) - 23; the field {|S|, 24 zero bits} shifted right
// by q - L + 24 (>= 1) gives the kept integer K (< 2^24), the guard bit and the sticky OR of
// everything below; K + (guard && (sticky || K[0])) is added to the packed {exponent field,
// mantissa} (a normal result has K[23] = 1 and exponent field e + 127; a subnormal one K < 2^23
// and field 0), so a rounding carry walks into the exponent (subnormal -> normal, 2^128 -> Inf).
// Specials (NaN, Inf operands) are the caller's: it muxes them in front of `out`.
//
// A caller whose bounds (hifsim_pkg) prove that every value is an exact normal FP32 says so with
// MAG_BITS / LSB_EXP_MIN / LSB_EXP_MAX: |S| < 2^MAG_BITS <= 2^24 (at most 24 significant bits,
// never rounds) and, for every L in [LSB_EXP_MIN, LSB_EXP_MAX], L >= -126 (never subnormal) and
// L + MAG_BITS - 1 <= 127 (never overflows). Then only the leading-one detector, the normalising
// left shift and the exponent add are built (g_exact): same outputs, none of the shifter, guard,
// sticky, increment, subnormal and overflow logic that synthesis cannot remove by itself (it does
// not know the operands' ranges). The defaults claim nothing (the full rounding, g_round).
module hifsim_round_fp32 #(
  parameter int WS = 32,   // width of `sum`, >= 2
  parameter int WE = 11,   // width of `lsb_exp`, 2..31
  parameter int MAG_BITS    = WS,                 // |sum| < 2^MAG_BITS, 2..WS
  parameter int LSB_EXP_MIN = -(2 ** (WE - 1)),   // lsb_exp in [LSB_EXP_MIN, LSB_EXP_MAX]
  parameter int LSB_EXP_MAX = 2 ** (WE - 1) - 1
) (
  input  logic [WS-1:0] sum,
  input  logic [WE-1:0] lsb_exp,
  output logic [31:0]   out
);
  localparam bit EXACT = (MAG_BITS <= 24) && (LSB_EXP_MIN >= -126) && (LSB_EXP_MAX + MAG_BITS - 1 <= 127);

  if (WS < 2 || WE < 2 || WE > 31 || MAG_BITS < 2 || MAG_BITS > WS) begin : g_bad_params
    $error("hifsim_round_fp32: WS >= 2, WE in 2..31 and MAG_BITS in 2..WS");
  end

  if (EXACT) begin : g_exact
    // value = +-mag * 2^L with mag < 2^MAG_BITS: FP32 {sign, L + n + 127, mag normalised} exactly.
    localparam int WL = $clog2(MAG_BITS);  // leading-one position 0..MAG_BITS-1
    always_comb begin
      logic                neg;
      logic [MAG_BITS-1:0] mag;
      logic [WL-1:0]       lead;  // position of the leading one of mag
      logic [MAG_BITS-2:0] frac;  // mag << (MAG_BITS - 1 - lead) without its leading one
      logic [22:0]         mant;
      logic [7:0]          expo;  // L + lead + 127, in 1..254 by the bounds: 8-bit arithmetic is exact
      neg  = sum[WS-1];
      mag  = neg ? MAG_BITS'(-sum) : sum[MAG_BITS-1:0];
      lead = '0;
      for (int i = 0; i < MAG_BITS; i++) begin
        if (mag[i]) lead = WL'(i);
      end
      frac = (MAG_BITS-1)'(mag << (WL'(MAG_BITS - 1) - lead));
      mant = '0;
      mant[22 -: MAG_BITS-1] = frac;
      expo = 8'($signed(lsb_exp)) + 8'(lead) + 8'd127;
      out  = (mag == '0) ? 32'h0000_0000 : {neg, expo, mant};
    end
  end else begin : g_round
    localparam int WN = $clog2(WS);                          // leading-one position 0..WS-1
    localparam int WX = ((WE > WN + 1) ? WE : WN + 1) + 3;  // signed exponent arithmetic, no overflow
    localparam int WF = WS + 25;                             // {0, |S|, 24 zero bits}
    localparam int WH = $clog2(WF + 1);                      // shift amounts 1..WF
    localparam int SHMAX = WF;                               // shifting by WF drops every bit
    always_comb begin
      logic          neg;
      logic [WS-1:0] mag;
      logic [WN-1:0] n;
      logic [WX-1:0] l, e, q, sh_wide;
      logic          normal;
      logic [WH-1:0] sh;
      logic [WF-1:0] field, lost;
      logic [22:0]   k;       // the kept bits below the hidden bit (K[23] is implied by `normal`)
      logic          guard, sticky, inc;
      logic [WX-1:0] ef_wide;  // e + 127 for a normal result
      logic          ovf;
      logic [30:0]   packed_mag, rounded;

      neg = sum[WS-1];
      mag = neg ? (WS'(0) - sum) : sum;  // -(-2^(WS-1)) = 2^(WS-1) as an unsigned magnitude
      n = '0;
      for (int i = 0; i < WS; i++) begin
        if (mag[i]) n = WN'(i);
      end
      l = {{(WX-WE){lsb_exp[WE-1]}}, lsb_exp};
      e = l + WX'(n);
      normal = $signed(e) >= -126;
      q = (normal ? e : WX'(-126)) - WX'(23);
      sh_wide = q - l + WX'(24);  // >= 1
      sh = ($signed(sh_wide) > $signed(WX'(SHMAX))) ? WH'(SHMAX) : sh_wide[WH-1:0];

      field  = {1'b0, mag, 24'd0};
      k      = 23'(field >> sh);
      guard  = (field & (WF'(1) << (sh - WH'(1)))) != '0;
      lost   = field & ~({WF{1'b1}} << (sh - WH'(1)));
      sticky = lost != '0;
      inc    = guard && (sticky || k[0]);

      ef_wide = e + WX'(127);
      ovf     = normal && ($signed(ef_wide) > 254);
      packed_mag = {normal ? ef_wide[7:0] : 8'd0, k};
      rounded    = packed_mag + 31'(inc);

      if (mag == '0)                     out = 32'h0000_0000;
      else if (ovf || rounded[30:23] == 8'hFF) out = {neg, hifsim_pkg::FP32_POS_INF[30:0]};
      else                               out = {neg, rounded};
    end
  end
endmodule
