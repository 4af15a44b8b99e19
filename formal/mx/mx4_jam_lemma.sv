// mx4_jam_lemma: the MXFP4 tail reference's jam step checked by the solver, on the references
// alone (no RTL): ref_mx_lead with KEEP = 40 (the low term more than 40 binades below the leading
// one replaced by a jam bit, the datapath contract of docs/datapath.md section 3) against
// ref_mx_lead with KEEP = KBIG. KBIG = 510 = XMAX - XMIN: no jam, the field holds every sum
// exactly, i.e. the MXFP4 definition (the exact two-term sum rounded once). For every block-sum
// pair |S| <= 4608 and exponent pair X in [-256, 254] (the front's range, mx4.front): the case is
// written into the property (no constraint in the AIG, so no `fold`), as the adder miter does.
// Together with mx4.tail.lead40 (the unit's tail = the KEEP = 40 reference) the unit's tail is
// the definition; formal/jobs.py and docs/formal.md state the composition.
module mx4_jam_lemma #(
  parameter int KBIG = 510
) (
  input logic [13:0] s0,
  input logic [13:0] s1,
  input logic [9:0]  x0,
  input logic [9:0]  x1
);
  logic [31:0] r_jam, r_big;
  ref_mx_lead #(.KEEP(40))   jam (.s0, .s1, .x0, .x1, .out(r_jam));
  ref_mx_lead #(.KEEP(KBIG)) big (.s0, .s1, .x0, .x1, .out(r_big));
  always_comb begin
    logic ok;
    ok = $signed(s0) >= -4608 && $signed(s0) <= 4608 && $signed(s1) >= -4608 && $signed(s1) <= 4608 &&
         $signed(x0) >= -256 && $signed(x0) <= 254 && $signed(x1) >= -256 && $signed(x1) <= 254;
    assert (!ok || r_jam == r_big);
  end
endmodule
