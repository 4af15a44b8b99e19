// hadamard16: the 16 x 16 Hadamard transform of the random Hadamard transform (RHT) on one row
// block of 16 FP32 values, bit-exact with hifsim::dp::Hadamard16 (model/datapath/hadamard16.cpp),
// which is fmt::rht_rows_reference with N = 16 (docs/training.md "Random Hadamard transform")
// with every NaN the canonical 0x7FC00000.
//
// Ports:
//   x      [511:0]  16 FP32 values, element j at [32j+31 : 32j]
//   signs  [15:0]   bit j set: element j is negated first. The GEMM's sign vector
//                   rht_sign_bits(seed) (Threefry-2x32-20, formats/hadamard.cpp) is a per-GEMM
//                   constant the controller loads; it travels with each row so the unit needs no
//                   state and the generator is defined once, in the model.
//   y      [511:0]  the transformed values, element j at [32j+31 : 32j]
//
// Datapath:
//   s0      v0[j] = x[j] with bit 31 XOR signs[j] (exact)
//   b1..b4  butterfly stage h = 1, 2, 4, 8: for i with (i & h) == 0, (v[i], v[i+h]) <=
//           (v[i] + v[i+h], v[i] - v[i+h]): 16 hifsim_fp_add (FP32, RNE; a - b = a + (b with its
//           sign flipped), exact in IEEE arithmetic including the signs of zeros)
//   sc      y[j] = v[j] * 2^-2 (the RHT's c_16 = 0.25): the significand with its sign as a
//           25-bit integer at weight 2^(e - 152) rounded once by hifsim_round_fp32 (it rounds
//           only when the result is subnormal); +-0 and +-Inf pass through, NaN -> 0x7FC00000
//
// Pipeline: STAGES register ranks (hifsim_pipe_reg), the handshake of hif4_dot64, at the cut points
// after b1, b2, b3, b4 and sc (the output register) that hifsim_pkg::hadamard16_cut selects
// (hadamard16_stages_ok: the range); both are generated from the unit's description.
module hadamard16 #(
  parameter int STAGES = 2
) (
  input  logic         clk,
  input  logic         rst_n,
  input  logic         in_valid,
  output logic         in_ready,
  input  logic [511:0] x,
  input  logic [15:0]  signs,
  output logic         out_valid,
  input  logic         out_ready,
  output logic [511:0] y
);
  localparam int N = 16;
  localparam int W = 32 * N;

  if (!hifsim_pkg::hadamard16_stages_ok(STAGES)) begin : g_bad_stages
    $error("hadamard16: STAGES must be in 0..5");
  end

  // ---- s0: the sign flips ----
  logic [W-1:0] v0;
  for (genvar j = 0; j < N; j++) begin : g_sign
    assign v0[32*j +: 32] = {x[32*j+31] ^ signs[j], x[32*j +: 31]};
  end

  // ---- b1..b4: the butterfly stages, each followed by its candidate rank ----
  logic [W-1:0] b1, b2, b3, b4;           // stage outputs
  logic [W-1:0] r1, r2, r3, r4;           // after the ranks
  logic         rv1, rv2, rv3, rv4, rr1, rr2, rr3, rr4;
  logic [4*W-1:0] lvl_in, lvl_out;         // level l reads lvl_in[W*l +: W], writes lvl_out[W*l +: W]
  assign lvl_in = {r3, r2, r1, v0};
  assign {b4, b3, b2, b1} = lvl_out;
  for (genvar l = 0; l < 4; l++) begin : g_level
    localparam int H = 1 << l;
    for (genvar i = 0; i < N; i++) begin : g_lane
      localparam int LO = i & ~H;
      localparam bit SUB = (i & H) != 0;
      hifsim_fp_add #(.MANT_BITS(23), .ROUND_RZ(0)) u_add (
        .x(lvl_in[W*l + 32*LO +: 32]),
        .y({lvl_in[W*l + 32*(LO+H)+31] ^ SUB, lvl_in[W*l + 32*(LO+H) +: 31]}),
        .r(lvl_out[W*l + 32*i +: 32])
      );
    end
  end

  hifsim_pipe_reg #(.W(W), .EN(hifsim_pkg::hadamard16_cut(STAGES, 1))) u_cut_b1 (
    .clk, .rst_n, .up_valid(in_valid), .up_ready(in_ready), .up_data(b1), .dn_valid(rv1), .dn_ready(rr1), .dn_data(r1));
  hifsim_pipe_reg #(.W(W), .EN(hifsim_pkg::hadamard16_cut(STAGES, 2))) u_cut_b2 (
    .clk, .rst_n, .up_valid(rv1), .up_ready(rr1), .up_data(b2), .dn_valid(rv2), .dn_ready(rr2), .dn_data(r2));
  hifsim_pipe_reg #(.W(W), .EN(hifsim_pkg::hadamard16_cut(STAGES, 3))) u_cut_b3 (
    .clk, .rst_n, .up_valid(rv2), .up_ready(rr2), .up_data(b3), .dn_valid(rv3), .dn_ready(rr3), .dn_data(r3));
  hifsim_pipe_reg #(.W(W), .EN(hifsim_pkg::hadamard16_cut(STAGES, 4))) u_cut_b4 (
    .clk, .rst_n, .up_valid(rv3), .up_ready(rr3), .up_data(b4), .dn_valid(rv4), .dn_ready(rr4), .dn_data(r4));

  // ---- sc: the scaling by 2^-2 ----
  logic [W-1:0] sc_y;
  for (genvar j = 0; j < N; j++) begin : g_scale
    logic [31:0] v, rnd;
    logic [24:0] sig;      // {sign-extended} two's complement significand
    logic [8:0]  lsb;      // weight of its LSB after the scaling: max(e, 1) - 150 - 2
    logic        is_zero, is_inf, is_nan;
    assign v       = r4[32*j +: 32];
    assign is_zero = v[30:0] == 31'd0;
    assign is_inf  = v[30:23] == 8'hFF && v[22:0] == 23'd0;
    assign is_nan  = v[30:23] == 8'hFF && v[22:0] != 23'd0;
    assign sig     = v[31] ? -{1'b0, v[30:23] != 8'd0, v[22:0]} : {1'b0, v[30:23] != 8'd0, v[22:0]};
    assign lsb     = 9'({1'b0, (v[30:23] == 8'd0) ? 8'd1 : v[30:23]}) - 9'd152;
    hifsim_round_fp32 #(.WS(25), .WE(9)) u_round (.sum(sig), .lsb_exp(lsb), .out(rnd));
    assign sc_y[32*j +: 32] = is_nan ? hifsim_pkg::FP32_QNAN : (is_zero || is_inf) ? v : rnd;
  end

  hifsim_pipe_reg #(.W(W), .EN(hifsim_pkg::hadamard16_cut(STAGES, 5))) u_cut_sc (
    .clk, .rst_n, .up_valid(rv4), .up_ready(rr4), .up_data(sc_y), .dn_valid(out_valid), .dn_ready(out_ready), .dn_data(y));
endmodule
