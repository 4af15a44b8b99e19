// ref_round: the formal reference rounding -- S * 2^L rounded once to a binary format with P
// significant bits and binary32's exponent range -- written from IEEE 754-2019 (sections 3.3,
// 4.3.1 roundTiesToEven and 4.3.2 roundTowardZero, 7.4 overflow), not from the RTL. P = 24 is
// binary32 (the reference for hifsim_round_fp32); P < 24 is the fp32-m<P-1> register format of
// fp32_acc (formal/ref/ref_fp_add.sv): subnormal quantum 2^(-126-(P-1)), result packed in
// binary32 bits with the low 24-P mantissa bits zero.
//
//   S: WS-bit two's complement, L: WE-bit signed. out = the format's value nearest to S * 2^L
//   (RZ = 0: ties to the even significand; |result| beyond the largest finite -> +-Inf)
//   (RZ = 1: toward zero; overflow -> +-largest finite). S == 0 -> +0; a nonzero value that
//   rounds to zero keeps its sign.
//
// Method (textbook normalise-then-denormalise, deliberately unlike the RTL's single right
// shift): put |S|'s leading one at the top of a wide field F; E = L + (its position), unbounded;
// below the normal range shift F right by -126 - E more places (lost bits become sticky); the
// top P bits of F are the significand, the next bit the guard, the OR of the rest the sticky;
// round; a carry out of P bits renormalises (E + 1), a subnormal reaching 2^(P-1) becomes the
// smallest normal; a biased exponent above 254 overflows. Formal-only: never synthesised.
module ref_round #(
  parameter int WS = 32,
  parameter int WE = 11,
  parameter int P  = 24,
  parameter int RZ = 0
) (
  input  logic [WS-1:0] sum,
  input  logic [WE-1:0] lsb_exp,
  output logic [31:0]   out
);
  localparam int WF = WS + P + 3;  // |S| normalised to the top, room for guard and sticky below
  localparam int WB = 40;          // signed exponent arithmetic (|E| < 2^32)
  logic                 neg;
  logic [WS:0]          mag;       // |S|, one bit wider: |-2^(WS-1)| fits
  logic signed [WB-1:0] lead;
  logic [WF-1:0]        f;
  always_comb begin
    neg = sum[WS-1];
    mag = neg ? ({1'b0, ~sum} + 1'b1) : {1'b0, sum};
    // leading one, scanning from the top down: the first one found wins
    lead = -1;
    for (int i = WS; i >= 0; i--) begin
      if (lead < 0 && mag[i]) lead = i;
    end
    // F: mag shifted so that its leading one is bit WF-1
    f = '0;
    for (int i = 0; i <= WS; i++) begin
      if (lead == i) f = WF'(mag) << (WF - 1 - i);
    end
  end
  ref_round_step #(.WF(WF), .WE(WE), .P(P), .RZ(RZ)) step (
    .neg, .found(lead >= 0), .lead, .f, .lsb_exp, .out);
endmodule

// ref_round_step: everything after the normalisation, shared by ref_round and ref_round_wide
// (which differ only in how they find the leading one and normalise: `round.wide_lemma.*` proves
// the two equal). f holds |S| with its leading one at bit WF-1 (WF >= P + 2), lead that one's
// position in S (E = lsb_exp + lead), found = (S != 0).
module ref_round_step #(
  parameter int WF = 59,
  parameter int WE = 11,
  parameter int P  = 24,
  parameter int RZ = 0
) (
  input  logic                neg,
  input  logic                found,
  input  logic signed [39:0]  lead,
  input  logic [WF-1:0]       f,
  input  logic [WE-1:0]       lsb_exp,
  output logic [31:0]         out
);
  localparam int WB = 40;
  localparam logic [22:0] MAX_MANT = 23'h7FFFFF << (24 - P);
  always_comb begin
    logic signed [WB-1:0] e_unb, dn, biased;
    logic [WF-1:0]        f2, lost_mask;
    logic                 any_lost;
    logic [P-1:0]         sig;
    logic                 guard, sticky, up;
    logic [P:0]           sig_r;
    logic [22:0]          mant;

    e_unb = $signed({{(WB-WE){lsb_exp[WE-1]}}, lsb_exp}) + lead;
    // denormalise: dn more places right when E < -126 (dn >= WF drops everything into sticky)
    dn = (e_unb < -126) ? (-126 - e_unb) : 0;
    lost_mask = '0;
    if (dn >= WF) begin
      any_lost = (f != '0);
      f2 = '0;
    end else begin
      lost_mask = ~({WF{1'b1}} << dn);
      any_lost = (f & lost_mask) != '0;
      f2 = f >> dn;
    end
    sig    = f2[WF-1 -: P];
    guard  = f2[WF-1-P];
    sticky = ((f2 & ~({WF{1'b1}} << (WF - 1 - P))) != '0) || any_lost;
    up     = (RZ == 0) && guard && (sticky || sig[0]);
    sig_r  = {1'b0, sig} + up;
    if (dn > 0) biased = sig_r[P-1] ? 1 : 0;        // subnormal, or rounded up to the smallest normal
    else        biased = e_unb + 127 + (sig_r[P] ? 1 : 0);
    if (sig_r[P]) sig_r = sig_r >> 1;
    mant = '0;
    if (P > 1) mant[22 -: P-1] = sig_r[P-2:0];
    if (!found)            out = 32'h0000_0000;
    else if (biased > 254) out = (RZ != 0) ? {neg, 8'hFE, MAX_MANT} : {neg, 8'hFF, 23'd0};
    else                   out = {neg, biased[7:0], mant};
  end
endmodule
