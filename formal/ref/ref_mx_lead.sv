// ref_mx_lead: the MX two-term sum S[0] 2^X[0] + S[1] 2^X[1] rounded once to FP32 (roundTiesToEven,
// ref_round_wide), with the two terms placed in one field that follows the LEADING term -- the
// nonzero term with the larger exponent E (block 0 when the exponents are equal; when both sums
// are zero the field is 0 and the result +0 whichever term leads). The leading term is S_h << KEEP,
// so the field's lsb weighs 2^(E - KEEP); the other term, d = E - X_l >= 0 binades below, is
//   d <= KEEP:  S_l << (KEEP - d)      -- exact
//   d >  KEEP:  +1 or -1 (the sign of S_l) in the field's lsb, a jam bit
// The field has WS + KEEP + 1 bits (S_h << KEEP plus a carry).
//
// Two uses (formal/jobs.py), which is why the low term's jam is a parameter and not a design:
//   KEEP >= XMAX - XMIN  (510 for MXFP4): every pair of exponents has d <= KEEP, the jam branch is
//     a constant-false condition (EXACT) that elaboration removes, and the field holds the sum exactly: the MXFP4 definition
//     (OCP MX 5.3.3 / 5.4.1, the exact sum rounded once) framed at the larger exponent instead of
//     ref_mx_two_term's smaller one -- the same value, so the same rounded result.
//   KEEP = 40: the jammed field of docs/datapath.md section 3 (s4a). Its correctness is NOT assumed:
//     mx4.jam_lemma proves KEEP = 40 equal to KEEP = 510 for every block-sum and exponent pair in
//     the front's range (|S| <= 4608, X in [XMIN, XMAX]). Why it holds (the solver checks it
//     instead of this prose): with d > 40 the low term and the jam have the same sign and
//     magnitudes below 4608 x 2^(E-41) < 2^(E-28), while v = S_h 2^E is a multiple of 2^E. Every
//     rounding boundary (a representable value or a midpoint, the overflow threshold) near the
//     result is a multiple of 2^(E-25) when E >= -125 (the result is then normal, at least
//     2^(E-1)) and of 2^-150 otherwise; no such multiple lies within 2^(E-28) of v other than v
//     itself, so the exact and the jammed sums lie on the same side of every boundary.
// Formal-only: never synthesised.
module ref_mx_lead #(
  parameter int WS   = 14,     // block sum, two's complement
  parameter int WX   = 10,     // block exponent, two's complement
  parameter int XMIN = -256,
  parameter int XMAX = 254,
  parameter int KEEP = XMAX - XMIN
) (
  input  logic [WS-1:0] s0,
  input  logic [WS-1:0] s1,
  input  logic [WX-1:0] x0,
  input  logic [WX-1:0] x1,
  output logic [31:0]   out
);
  localparam int  WF    = WS + KEEP + 1;
  localparam int  WD    = 12;                    // exponents, distances and the lsb weight, signed
  localparam bit  EXACT = KEEP >= XMAX - XMIN;   // no pair of exponents is more than KEEP apart
  logic [WF-1:0]        f;
  logic signed [WD-1:0] lsb;
  always_comb begin
    logic                 lead1;   // block 1 leads
    logic [WS-1:0]        sh, sl;
    logic signed [WD-1:0] e0, e1, eh, d;
    logic [WF-1:0]        hi, lo;
    e0 = WD'($signed(x0));
    e1 = WD'($signed(x1));
    // the leading term: the nonzero one with the larger exponent (a zero sum never leads)
    if (s0 == '0)      lead1 = 1'b1;
    else if (s1 == '0) lead1 = 1'b0;
    else               lead1 = e1 > e0;
    sh  = lead1 ? s1 : s0;
    sl  = lead1 ? s0 : s1;
    eh  = lead1 ? e1 : e0;
    d   = eh - (lead1 ? e0 : e1);
    hi  = WF'($signed(sh)) << KEEP;
    if (sl == '0)                  lo = '0;
    else if (EXACT || d <= KEEP)   lo = WF'($signed(sl)) << (KEEP - d);
    else                           lo = $signed(sl) < 0 ? {WF{1'b1}} : WF'(1);
    f   = hi + lo;
    lsb = eh - WD'(KEEP);
  end
  ref_round_wide #(.WS(WF), .WE(WD), .P(24), .RZ(0)) u_round (.sum(f), .lsb_exp(lsb), .out(out));
endmodule
