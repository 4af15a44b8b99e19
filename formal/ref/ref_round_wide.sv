// ref_round_wide: the same function as ref_round (S x 2^L rounded once to P significant bits with
// binary32's exponent range, IEEE 754-2019 4.3.1 / 4.3.2 / 7.4; see formal/ref/ref_round.sv) for
// WIDE exact fields (hundreds of bits: the exact two-term sums of formal/ref/ref_mxfp4_dot.sv).
// ref_round finds the leading one and normalises with one case per bit position (a WS x WF mux
// chain: about 300k multiplexer bits at WS = 525, which Yosys did not elaborate in 8 minutes);
// here the leading one is a priority encoder to an integer and the normalisation one variable left
// shift (a log-depth shifter). Everything after the normalisation is ref_round's own step
// (ref_round_step in formal/ref/ref_round.sv, which a job using this file lists too): denormalise
// below 2^-126, guard and sticky, ties to even, carry-out renormalisation, overflow.
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
  logic                 neg, found;
  logic [WS:0]          mag;
  logic [WL-1:0]        lead_u;
  logic signed [WB-1:0] lead;
  logic [WF-1:0]        f;
  always_comb begin
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
  end
  ref_round_step #(.WF(WF), .WE(WE), .P(P), .RZ(RZ)) step (.neg, .found, .lead, .f, .lsb_exp, .out);
endmodule
