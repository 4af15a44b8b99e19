// mx8_miter: mxfp8_dot32 at STAGES = 0 (the datapath; the other depths are the same logic with
// register ranks between, covered by ctrl.mxfp8_dot32.*) against ref_mxfp8_dot, for every pair of
// 32-element blocks and every pair of E8M0 scales (E4M3 or E5M2 elements, parameter E5M2).
module mx8_miter #(
  parameter int E5M2 = 0
) (
  input logic [255:0] a,
  input logic [255:0] b,
  input logic [7:0]   sa,
  input logic [7:0]   sb
);
  logic [31:0] out_rtl, out_ref;
  logic        in_ready, out_valid;
  mxfp8_dot32 #(.E5M2(E5M2), .STAGES(0)) dut (.clk(1'b0), .rst_n(1'b1), .in_valid(1'b1), .in_ready, .a, .b, .sa, .sb,
                                             .out_valid, .out_ready(1'b1), .out(out_rtl));
  ref_mxfp8_dot #(.E5M2(E5M2)) ref_model (.a, .b, .sa, .sb, .out(out_ref));
  always_comb assert (out_rtl == out_ref);
endmodule
