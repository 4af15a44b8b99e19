// mx4_miter: mxfp4_dot64 at STAGES = 0 (the datapath; other STAGES values are the same logic with
// register ranks between, covered by ctrl.mxfp4_dot64.*) against ref_mxfp4_dot, whole or split at
// the unit's stage contract, the s2 -> s4a boundary c2_data = {nan, X[1], X[0], S[1], S[0]}
// (docs/datapath.md section 3):
//   PART = 0  the whole unit: out = ref_mxfp4_dot(a, b, sa, sb) for every input
//   PART = 1  the front (decode, products, block sums, exponents, NaN flag): the unit's own
//             c2_data (read through `tap`, which formal/jobs.py connects to dut.c2_data after
//             flattening) = ref_mxfp4_front(a, b, sa, sb) for every input
//   PART = 2  the tail (alignment with its jam bit, rounding, NaN): dut.c2_data cut and driven by
//             the free input c2 (jobs.py); out = NaN or ref_mx_two_term(S, X) for EVERY
//             c2 in the front's range, |S| <= 4608 and X in [-256, 254] (with DMAX < 510: the
//             pairs |X[0] - X[1]| <= DMAX only, a cheaper exact field)
//   PART = 3  the tail as in PART 2, against ref_mx_lead (formal/ref/ref_mx_lead.sv) with KEEP:
//             the field framed at the leading term, the low term jammed beyond KEEP binades
//             (KEEP = 40: the jammed field of docs/datapath.md s4a, which mx4.jam_lemma proves
//             equal to the exact KEEP = 510 field). The range is written into the property, not
//             assumed (no constraint in the AIG)
// PART 1 and PART 2 together give PART 0 (and PART 1, PART 3 at KEEP = 40 and mx4.jam_lemma): the tail sees only c2_data, which PART 1 proves equal to
// the reference front, whose values lie in PART 2's range (|S| <= 32 x 144, X = xa + xb - 256).
module mx4_miter #(
  parameter int PART = 0,
  parameter int DMAX = 510,  // PART 2: the exponent pairs at most DMAX apart (510: every pair)
  parameter int KEEP = 40    // PART 3: ref_mx_lead's field depth below the leading term
) (
  input logic [255:0] a,
  input logic [255:0] b,
  input logic [15:0]  sa,
  input logic [15:0]  sb,
  input logic [48:0]  c2
);
  logic [31:0] out_rtl;
  logic [48:0] tap;   // PART 1: connected to the unit's boundary by formal/jobs.py
  logic        in_ready, out_valid;
  mxfp4_dot64 #(.STAGES(0)) dut (.clk(1'b0), .rst_n(1'b1), .in_valid(1'b1), .in_ready, .a, .b, .sa, .sb,
                                 .out_valid, .out_ready(1'b1), .out(out_rtl));
  if (PART == 0) begin : g_whole
    logic [31:0] out_ref;
    ref_mxfp4_dot ref_model (.a, .b, .sa, .sb, .out(out_ref));
    always_comb assert (out_rtl == out_ref);
  end else if (PART == 1) begin : g_front
    // tap (below): driven by dut.c2_data (formal/jobs.py: connect after flatten)
    logic [13:0] s0, s1;
    logic [9:0]  x0, x1;
    logic        nan;
    ref_mxfp4_front ref_front (.a, .b, .sa, .sb, .s0, .s1, .x0, .x1, .nan);
    always_comb assert (tap == {nan, x1, x0, s1, s0});
  end else if (PART == 3) begin : g_tail_lead
    logic [31:0] sum;
    ref_mx_lead #(.WS(14), .WX(10), .XMIN(-256), .XMAX(254), .KEEP(KEEP)) ref_sum (
      .s0(c2[13:0]), .s1(c2[27:14]), .x0(c2[37:28]), .x1(c2[47:38]), .out(sum));
    always_comb begin
      logic ok;
      ok = $signed(c2[13:0]) >= -4608 && $signed(c2[13:0]) <= 4608 &&
           $signed(c2[27:14]) >= -4608 && $signed(c2[27:14]) <= 4608 &&
           $signed(c2[37:28]) >= -256 && $signed(c2[37:28]) <= 254 &&
           $signed(c2[47:38]) >= -256 && $signed(c2[47:38]) <= 254;
      assert (!ok || out_rtl == (c2[48] ? 32'h7FC00000 : sum));
    end
  end else begin : g_tail
    logic [31:0] sum;
    ref_mx_two_term #(.WS(14), .WX(10), .XMIN(-256), .XMAX(254), .DMAX(DMAX)) ref_sum (
      .s0(c2[13:0]), .s1(c2[27:14]), .x0(c2[37:28]), .x1(c2[47:38]), .out(sum));
    always_comb begin
      assume ($signed(c2[13:0]) >= -4608 && $signed(c2[13:0]) <= 4608);
      assume ($signed(c2[27:14]) >= -4608 && $signed(c2[27:14]) <= 4608);
      assume ($signed(c2[37:28]) >= -256 && $signed(c2[37:28]) <= 254);
      assume ($signed(c2[47:38]) >= -256 && $signed(c2[47:38]) <= 254);
      assume ($signed(c2[37:28]) - $signed(c2[47:38]) <= DMAX && $signed(c2[47:38]) - $signed(c2[37:28]) <= DMAX);
      assert (out_rtl == (c2[48] ? 32'h7FC00000 : sum));
    end
  end
endmodule
