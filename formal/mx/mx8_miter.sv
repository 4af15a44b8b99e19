// mx8_miter: mxfp8_dot32 at STAGES = 0 (the datapath; the other depths are the same logic with
// register ranks between, covered by ctrl.mxfp8_dot32.*) against ref_mxfp8_dot (E4M3 or E5M2
// elements, parameter E5M2), whole or split at the unit's s2 boundary (docs/datapath.md section 3)
//   c2_data = {scale_nan, nan, pinf, ninf, lsb (11 bits), sum (WT bits)}:
//   PART = 0  the whole unit: out = ref_mxfp8_dot(a, b, sa, sb) for every input
//   PART = 1  the front (decode, products, alignment, the exact sum, the lsb exponent, the NaN and
//             Inf flags): the unit's own c2_data (read through `tap`, which formal/jobs.py
//             connects to dut.c2_data after flattening) = ref_mxfp8_front(a, b, sa, sb) for every
//             pair of blocks and every pair of scales
//   PART = 2  the tail (the rounding and the specials): dut.c2_data cut and driven by the free
//             input c2 (jobs.py); out = ref_mxfp8_tail(c2) for EVERY c2 (every WT-bit sum, every
//             11-bit lsb, every flag combination: no range to assume, so the front's range is
//             inside it whatever it is)
// PART 1 and PART 2 together give PART 0: the unit's output is a function of c2_data alone, PART 1
// proves c2_data = the reference front of the inputs, PART 2 proves the output on that c2_data =
// the reference tail of it, and ref_mxfp8_dot is the front followed by the tail.
module mx8_miter #(
  parameter int E5M2 = 0,
  parameter int PART = 0
) (
  input logic [255:0] a,
  input logic [255:0] b,
  input logic [7:0]   sa,
  input logic [7:0]   sb,
  input logic [((E5M2 != 0) ? 70 : 42) + 14:0] c2
);
  localparam int WT = (E5M2 != 0) ? 70 : 42;
  logic [31:0]   out_rtl;
  logic [WT+14:0] tap;   // PART 1: connected to the unit's boundary by formal/jobs.py
  logic          in_ready, out_valid;
  mxfp8_dot32 #(.E5M2(E5M2), .STAGES(0)) dut (.clk(1'b0), .rst_n(1'b1), .in_valid(1'b1), .in_ready, .a, .b, .sa, .sb,
                                             .out_valid, .out_ready(1'b1), .out(out_rtl));
  if (PART == 0) begin : g_whole
    logic [31:0] out_ref;
    ref_mxfp8_dot #(.E5M2(E5M2)) ref_model (.a, .b, .sa, .sb, .out(out_ref));
    always_comb assert (out_rtl == out_ref);
  end else if (PART == 1) begin : g_front
    // tap (above): driven by dut.c2_data (formal/jobs.py: connect after flatten)
    logic [WT-1:0] sum;
    logic [10:0]   lsb;
    logic          scale_nan, nan, pinf, ninf;
    ref_mxfp8_front #(.E5M2(E5M2), .WT(WT)) ref_front (.a, .b, .sa, .sb, .sum, .lsb, .scale_nan, .nan, .pinf, .ninf);
    always_comb assert (tap == {scale_nan, nan, pinf, ninf, lsb, sum});
  end else begin : g_tail
    logic [31:0] out_ref;
    ref_mxfp8_tail #(.WT(WT)) ref_tail (.sum(c2[WT-1:0]), .lsb(c2[WT +: 11]), .ninf(c2[WT+11]), .pinf(c2[WT+12]),
                                        .nan(c2[WT+13]), .scale_nan(c2[WT+14]), .out(out_ref));
    always_comb assert (out_rtl == out_ref);
  end
endmodule
