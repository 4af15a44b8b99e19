// front_miter: hif4_dot64's front end (s0, s1, s5 of rtl/hif4_dot64.sv) against its contract,
// written from the HiF4 unit definition (../shared/reference/hif4.md sections 1.2-1.4, layout (A)
// of section 2; docs/datapath.md section 1), for every pair of 288-bit units:
//   p[k]  = (-1)^(sA[k] ^ sB[k]) * (mA[k] * 2^E1_16A[k>>2]) * (mB[k] * 2^E1_16B[k>>2])
//   e18   = {E1_8B, E1_8A}
//   SS    = (4 + MA) * (4 + MB),  X = EA + EB - 104,  nan = either E6M2 code is 0xFF
// The unit at STAGES = 0 must equal that front end followed by the unit's own tail
// (hif4_dot_tail, the same module on both sides). With hif4.s6_tail (the tail against its stage
// contracts for every input inside the bounds asserted below) this composes to the whole
// datapath against the definition:
//   out = RNE_fp32(sum_i (sum_{k in group i} p[k]) * 2^(E1_8A[i] + E1_8B[i]) * SS * 2^X)
//       = the exact dot product of the two units, rounded once (NaN, zero as the definition).
// The same tail on both sides makes the miter cheap: once the 64 lanes are proven equal, the
// two tails are one structure (the full miter hif4.dot_full has to relate two different adder
// trees instead).
module front_miter (
  input logic [287:0] a,
  input logic [287:0] b
);
  logic [31:0] out_rtl, out_ref;
  logic        in_ready, out_valid, up_ready, dn_valid, x_out;
  hif4_dot64 #(.STAGES(0)) dut (.clk(1'b0), .rst_n(1'b1), .in_valid(1'b1), .in_ready, .a, .b,
                                .out_valid, .out_ready(1'b1), .out(out_rtl));

  logic [64*9-1:0] prod;
  logic [15:0]     e18;
  logic [14:0]     side;   // {nan, X (8 bits), SS (6 bits)}
  always_comb begin
    logic [4:0]  va, vb;   // |A[k]|, |B[k]| = m * 2^E1_16 <= 14
    logic [8:0]  mag;      // |p[k]| <= 196
    logic signed [9:0] x;
    for (int k = 0; k < 64; k++) begin
      va  = 5'(a[32 + 4*k +: 3]) << a[16 + k/4];
      vb  = 5'(b[32 + 4*k +: 3]) << b[16 + k/4];
      mag = 9'(va * vb);
      prod[9*k +: 9] = (a[32 + 4*k + 3] ^ b[32 + 4*k + 3]) ? -mag : mag;
      // the tail's contract (hif4.s6_tail) holds for |p| <= 196
      assert (mag <= 196);
    end
    e18 = {b[15:8], a[15:8]};
    x   = 10'(a[7:2]) + 10'(b[7:2]) - 10'sd104;
    side[5:0]  = 6'((4 + a[1:0]) * (4 + b[1:0]));
    side[13:6] = 8'(x);
    side[14]   = a[7:0] == 8'hFF || b[7:0] == 8'hFF;
    // ... and SS in [16, 49], X in [-104, 22]: true of every pair of E6M2 codes
    assert (side[5:0] >= 16 && side[5:0] <= 49);
    assert (x >= -104 && x <= 22);
  end
  hif4_dot_tail #(.CUT_S1(1'b0), .CUT_S2(1'b0), .CUT_S4(1'b0), .CUT_S6(1'b0), .CUT_S7(1'b0)) tail (
    .clk(1'b0), .rst_n(1'b1), .up_valid(1'b1), .up_ready, .prod, .e18, .side, .x_in(1'b0),
    .dn_valid, .dn_ready(1'b1), .out(out_ref), .x_out);
  always_comb assert (out_rtl == out_ref);
endmodule
