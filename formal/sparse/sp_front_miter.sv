// sp_front_miter: sparse_residual_add's front end (s0 with the 2:4 select, s1, s5) against the
// select-and-multiply definition (docs/datapath.md section 7; the HiF4 element and scale
// decode of ../shared/reference/hif4.md sections 1.2-1.4), for every compressed residual r and
// every weight unit w (all 224 + 288 bits free):
//   slot j = 0..31 lies in L3 group g = j >> 1 (two kept values per group of 4 elements);
//   its residual value  rv[j] = (-1)^sr[j] * mr[j] * 2^E1_16r[g]
//   its weight element  k = 4g + idx[j] (the position inside the group), wv = (-1)^s * m * 2^E1_16w[k >> 2]
//   p[j] = rv[j] * wv;  e18 = {E1_8w, E1_8r};  SS = (4 + Mr)(4 + Mw);  X = Er + Ew - 104;
//   nan = either E6M2 code is 0xFF
// The unit at STAGES = 0 must equal that front end followed by the unit's own tail instance
// (hif4_dot_tail at the sparse widths, the same module on both sides). With sp.tail (the tail
// = its stage contracts for every input inside the bounds asserted here) this composes to
//   out_dot = RNE_fp32(sum_i (sum_{j = 4i..4i+3} p[j]) * 2^(E1_8r[i] + E1_8w[i]) * SS * 2^X)
// i.e. the exact select-and-multiply dot product, rounded once (NaN, zero as the definition).
// Written from the definition: the weight element is addressed by its element number
// 4g + idx and its L3 bit by that element's group (k >> 2), not by the slot number.
module sp_front_miter (
  input logic [223:0] r,
  input logic [287:0] w
);
  logic [31:0] dot_rtl, dot_ref, acc_unused, out_acc_unused;
  logic        in_ready, out_valid, up_ready, dn_valid, x_out;
  sparse_residual_add #(.STAGES(0)) dut (
    .clk(1'b0), .rst_n(1'b1), .in_valid(1'b1), .in_ready, .r, .w, .acc_start(1'b1), .init_value(32'd0),
    .out_valid, .out_ready(1'b1), .out_dot(dot_rtl), .out_acc(out_acc_unused), .acc(acc_unused));

  logic [32*9-1:0] prod;
  logic [15:0]     e18;
  logic [14:0]     side;   // {nan, X (8 bits), SS (6 bits)}
  always_comb begin
    logic [4:0] vr, vw;    // |rv|, |wv| = m * 2^E1_16 <= 14
    logic [8:0] mag;       // |p| <= 196
    logic [5:0] k;         // the selected weight element
    logic [3:0] wn;        // its nibble
    logic       wl3;       // its E1_16 bit
    logic       sgn;
    logic signed [9:0] x;
    for (int j = 0; j < 32; j++) begin
      k   = 6'(4 * (j >> 1)) + 6'(r[160 + 2*j +: 2]);
      vr  = 5'(r[32 + 4*j +: 3]) << r[16 + (j >> 1)];
      // the weight element number k read as a compare against each element of the group (a
      // variable part-select of the 288-bit unit costs Yosys a minute of elaboration)
      wn  = '0;
      wl3 = 1'b0;
      for (int e = 4 * (j >> 1); e < 4 * (j >> 1) + 4; e++)
        if (k == 6'(e)) begin
          wn  = w[32 + 4*e +: 4];
          wl3 = w[16 + (e >> 2)];
        end
      vw  = 5'(wn[2:0]) << wl3;
      mag = 9'(vr * vw);
      sgn = r[32 + 4*j + 3] ^ wn[3];
      prod[9*j +: 9] = sgn ? -mag : mag;
      // the tail's contract (sp.tail) holds for |p| <= 196
      assert (mag <= 196);
    end
    e18 = {w[15:8], r[15:8]};
    x   = 10'(r[7:2]) + 10'(w[7:2]) - 10'sd104;
    side[5:0]  = 6'((4 + r[1:0]) * (4 + w[1:0]));
    side[13:6] = 8'(x);
    side[14]   = r[7:0] == 8'hFF || w[7:0] == 8'hFF;
    // ... and SS in [16, 49], X in [-104, 22]: true of every pair of E6M2 codes
    assert (side[5:0] >= 16 && side[5:0] <= 49);
    assert (x >= -104 && x <= 22);
  end
  hif4_dot_tail #(.PG(4), .WG(hifsim_pkg::SP_W_GROUP), .WQ(hifsim_pkg::SP_W_SHIFTED), .WI(hifsim_pkg::SP_W_I),
                  .WBIG(hifsim_pkg::SP_W_BIG), .MAX_BIG(hifsim_pkg::SP_MAX_BIG), .CUT_S1(1'b0), .CUT_S2(1'b0),
                  .CUT_S4(1'b0), .CUT_S6(1'b0), .CUT_S7(1'b0)) tail (
    .clk(1'b0), .rst_n(1'b1), .up_valid(1'b1), .up_ready, .prod, .e18, .side, .x_in(1'b0),
    .dn_valid, .dn_ready(1'b1), .out(dot_ref), .x_out);
  always_comb assert (dot_rtl == dot_ref);
endmodule
