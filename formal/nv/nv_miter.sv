// nv_miter: nvfp4_dot64 at STAGES = 0 (the datapath; the other depths are the same logic with
// register ranks between, covered by ctrl.nvfp4_dot64.*) against ref_nvfp4_dot, whole or split at
// the s2 -> s4 boundary, the four sub-block sums c2_data[51:0] = S[3..0] (docs/datapath.md s. 2):
//   PART = 0  the whole unit: out = ref_nvfp4_dot(a, b, sa, sb) for every input
//   PART = 1  the front: the unit's S[j] (read through `tap`, which formal/jobs.py connects to
//             dut.c2_data[51:0] after flattening) = ref_nvfp4_front(a, b) for every a, b
//   PART = 2  the tail: dut.c2_data[51:0] cut and driven by the free input s (jobs.py); the scale
//             side (decode of sa, sb) stays the unit's own; out = ref_nvfp4_tail(s, sa, sb) for
//             EVERY sa, sb and every s with |S[j]| <= 2304 (the front's range: 16 x 144)
// PART 1 and PART 2 together give PART 0.
module nv_miter #(
  parameter int PART = 0
) (
  input logic [255:0] a,
  input logic [255:0] b,
  input logic [31:0]  sa,
  input logic [31:0]  sb,
  input logic [51:0]  s
);
  logic [31:0] out_rtl;
  logic [51:0] tap;   // PART 1: connected to the unit's boundary by formal/jobs.py
  logic        in_ready, out_valid;
  nvfp4_dot64 #(.STAGES(0)) dut (.clk(1'b0), .rst_n(1'b1), .in_valid(1'b1), .in_ready, .a, .b, .sa, .sb,
                                 .out_valid, .out_ready(1'b1), .out(out_rtl));
  if (PART == 0) begin : g_whole
    logic [31:0] out_ref;
    ref_nvfp4_dot ref_model (.a, .b, .sa, .sb, .out(out_ref));
    always_comb assert (out_rtl == out_ref);
  end else if (PART == 1) begin : g_front
    // tap (below): driven by dut.c2_data[51:0] (formal/jobs.py)
    logic [51:0] s_ref;
    ref_nvfp4_front ref_front (.a, .b, .s(s_ref));
    always_comb assert (tap == s_ref);
  end else begin : g_tail
    logic [31:0] out_ref;
    ref_nvfp4_tail ref_tail (.s, .sa, .sb, .out(out_ref));
    // the range written into the property (no constraint in the AIG: `&fraig -x` sweeps it
    // without `fold`)
    always_comb begin
      logic ok;
      ok = 1'b1;
      for (int j = 0; j < 4; j++) ok = ok && $signed(s[13*j +: 13]) >= -2304 && $signed(s[13*j +: 13]) <= 2304;
      assert (!ok || out_rtl == out_ref);
    end
  end
endmodule
