// hif4_miter: hif4_dot64 at STAGES = 0 (the datapath; every other STAGES value is the same
// logic with register ranks between, which the ctrl.hif4_dot64.* jobs cover) against
// ref_hif4_dot, for every pair of 288-bit units.
module hif4_miter (
  input logic [287:0] a,
  input logic [287:0] b
);
  logic [31:0] out_rtl, out_ref;
  logic        in_ready, out_valid;
  hif4_dot64 #(.STAGES(0)) dut (.clk(1'b0), .rst_n(1'b1), .in_valid(1'b1), .in_ready, .a, .b,
                                .out_valid, .out_ready(1'b1), .out(out_rtl));
  ref_hif4_dot ref_model (.a, .b, .out(out_ref));
  always_comb assert (out_rtl == out_ref);
endmodule
