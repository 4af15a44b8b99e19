// ref_round_wide: the same function as ref_round (S x 2^L rounded once to P significant bits with
// binary32's exponent range, IEEE 754-2019 4.3.1 / 4.3.2 / 7.4; see formal/ref/ref_round.sv) for
// WIDE exact fields (hundreds of bits: the exact two-term sums of formal/ref/ref_mxfp4_dot.sv).
// ref_round finds the leading one and normalises with one case per bit position (a WS x WF mux
// chain: about 300k multiplexer bits at WS = 525, which Yosys did not elaborate in 8 minutes);
// here the leading one is a priority encoder to an integer and the normalisation one variable left
// shift (a log-depth shifter). Everything after the normalisation is ref_round's method:
// denormalise below 2^-126, guard and sticky, ties to even, carry-out renormalisation, overflow.
// `round.wide_lemma.*` (formal/jobs.py) proves it equal to ref_round for every input at a
// smaller width. Formal-only: never synthesised.
module ref_round_wide #(
  parameter int WS = 32,
  parameter int WE = 11,
  parameter int P  = 24,
  parameter int RZ = 0
) (
  input  logic [WS-1:0] sum,
  input  logic [WE-1:0] lsb_exp,
  output logic [31:0]   out
);
  localparam int WF = WS + P + 3;
  localparam int WB = 40;
  localparam int WL = $clog2(WF + 1) + 1;   // a bit position 0 .. WF, unsigned
  localparam logic [22:0] MAX_MANT = 23'h7FFFFF << (24 - P);
  always_comb begin
    logic                 neg, found;
    logic [WS:0]          mag;
    logic [WL-1:0]        lead_u;
    logic signed [WB-1:0] lead, e_unb, dn, biased;
    logic [WF-1:0]        f, f2, lost_mask;
    logic                 any_lost;
    logic [P-1:0]         sig;
    logic                 guard, sticky, up;
    logic [P:0]           sig_r;
    logic [22:0]          mant;

    neg = sum[WS-1];
    mag = neg ? ({1'b0, ~sum} + 1'b1) : {1'b0, sum};
    // leading one: scanning upwards, the last one found wins
    found  = 1'b0;
    lead_u = '0;
    for (int i = 0; i <= WS; i++) begin
      if (mag[i]) begin
        lead_u = WL'(i);
        found  = 1'b1;
      end
    end
    lead = found ? WB'(lead_u) : -1;
    // F: mag shifted so that its leading one is bit WF-1 (one variable shift)
    f = found ? (WF'(mag) << (WL'(WF - 1) - lead_u)) : '0;
    e_unb = $signed({{(WB-WE){lsb_exp[WE-1]}}, lsb_exp}) + lead;
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
    if (dn > 0) biased = sig_r[P-1] ? 1 : 0;
    else        biased = e_unb + 127 + (sig_r[P] ? 1 : 0);
    if (sig_r[P]) sig_r = sig_r >> 1;
    mant = '0;
    if (P > 1) mant[22 -: P-1] = sig_r[P-2:0];
    if (!found)            out = 32'h0000_0000;
    else if (biased > 254) out = (RZ != 0) ? {neg, 8'hFE, MAX_MANT} : {neg, 8'hFF, 23'd0};
    else                   out = {neg, biased[7:0], mant};
  end
endmodule
