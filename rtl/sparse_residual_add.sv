// sparse_residual_add: the 2:4 sparse residual path of the matrix unit in fused mode
// (docs/datapath.md section 7): the select-and-multiply HiF4 dot product of a 2:4-compressed
// residual unit and a dense weight unit, bit-exact with hifsim::dp::SparseResidualHif4Dot
// (model/datapath/residual.cpp), feeding the FP32 accumulator register, bit-exact with
// hifsim::dp::Accumulator (`fp32`, or `fp32-m<MANT_BITS>-rne|rz`): out_acc = round_P(x + dot).
//
// Operands:
//   r  [223:0]  the compressed residual unit (hifsim::dp::Hif4Sparse24), little-endian:
//                 [7:0] E6M2   [15:8] E1_8   [31:16] E1_16        (the layout (A) meta word)
//                 [32+4j+3 : 32+4j]   val[j], j = 0..31 (S1P2 nibble; slot j is in group g = j>>1)
//                 [160+2j+1 : 160+2j] idx[j] (0..3: the position of val[j] inside its group of 4)
//   w  [287:0]  the dense weight unit, layout (A) (as hif4_dot64)
//   acc_start   1: this transaction starts a new accumulation: x = init_value;
//               0: x = the accumulator register
//   init_value  [31:0] the start value (+0 for a fresh sum, or the main-K accumulator in fused
//               mode). It must be a value of the register's precision: its low 23 - MANT_BITS
//               mantissa bits are ignored (Accumulator::reset would round it; a P-bit register
//               value is unchanged by that rounding)
// Outputs (valid with out_valid):
//   out_dot  [31:0]  the sparse dot product (exact FP32)
//   out_acc  [31:0]  round_P(x + out_dot): the accumulator after this add
//   acc      [31:0]  the accumulator register (takes out_acc when out_valid && out_ready;
//                    reset: +0)
//
// Datapath of the select-and-multiply dot (docs/datapath.md section 7 stage table):
//   s0  r[j] = +-(val[j] << E1_16r[g]); the 2:4 select w[j] = the weight element at 4g + idx[j],
//       +-(m << E1_16w[g])                                         |r|, |w| <= 14
//   s1  p[j] = r[j] * w[j]                       32 4x4 multiplies, 9-bit two's complement
//   s2  G[i] = p[4i] + .. + p[4i+3]              8 sums of 4 (one per level-2 group), 11-bit
//   s3  Q[i] = G[i] << (E1_8r[i] + E1_8w[i])     13-bit
//   s4  I = sum of Q[i]                          16-bit
//   s5  SS = (4+MR)(4+MW), X = ER + EW - 104, NaN (either E6M2 = 0xFF): in the first stage, carried
//   s6  big = I * SS                             16x6 multiply, 22-bit
//   s7  dot = big * 2^X, exact in FP32 (hifsim_round_fp32, which never rounds here); NaN ->
//       0x7FC00000; big == 0 -> +0
//   s2..s7 and every register rank are the shared HiF4 tail (hif4_dot_tail.sv, instance u_tail),
//       as in hif4_dot64
//   acc out_acc = hifsim_fp_add(x, dot) with MANT_BITS / ROUND_RZ, in the last combinational
//       segment, after the last cut
//
// Pipeline: STAGES (0..5) register ranks at the cut points of hif4_dot64 (hifsim_pipe_reg):
//   STAGES  after s1   after s2   after s4   after s6   after s7
//     0        -          -          -          -          -      (combinational to out_acc)
//     1        -          -          x          -          -
//     2        -          x          -          x          -
//     3        -          x          x          x          -
//     4        x          x          x          x          -
//     5        x          x          x          x          x
// Latency = STAGES cycles; one transaction per cycle; the handshake of hif4_dot64. The sideband
// {acc_start, init_value} travels with the data. The register is written only on an output
// transfer, so back-pressure never adds twice.
module sparse_residual_add #(
  parameter int STAGES    = 3,
  parameter int MANT_BITS = 23,   // accumulator mantissa bits, 1..23
  parameter int ROUND_RZ  = 0     // 0: RNE, 1: RZ
) (
  input  logic         clk,
  input  logic         rst_n,
  input  logic         in_valid,
  output logic         in_ready,
  input  logic [223:0] r,
  input  logic [287:0] w,
  input  logic         acc_start,
  input  logic [31:0]  init_value,
  output logic         out_valid,
  input  logic         out_ready,
  output logic [31:0]  out_dot,
  output logic [31:0]  out_acc,
  output logic [31:0]  acc
);
  localparam int NS   = hifsim_pkg::SP_SLOTS;
  localparam int WP   = hifsim_pkg::HIF4_W_P;
  localparam int WSS  = hifsim_pkg::HIF4_W_SS;
  localparam int WX   = hifsim_pkg::HIF4_W_X;
  localparam int WACC = 33;               // sideband {acc_start, init_value}
  localparam int WSIDE = WACC + 1 + WX + WSS;  // {acc sideband, nan, X, SS}
  localparam int DROP = 23 - MANT_BITS;

  if (!hifsim_pkg::sparse_residual_add_stages_ok(STAGES)) begin : g_bad_stages
    $error("sparse_residual_add: STAGES must be in 0..5");
  end
  if (MANT_BITS < 1 || MANT_BITS > 23 || ROUND_RZ < 0 || ROUND_RZ > 1) begin : g_bad_acc
    $error("sparse_residual_add: MANT_BITS must be in 1..23 and ROUND_RZ 0 or 1");
  end

  // Cut points selected by STAGES (the table above): hifsim_pkg::sparse_residual_add_cut, generated from the unit's
  // description in model/datapath (tests/hw checks the elaborated ranks against it).
  localparam bit CUT_S1 = hifsim_pkg::sparse_residual_add_cut(STAGES, 1);
  localparam bit CUT_S2 = hifsim_pkg::sparse_residual_add_cut(STAGES, 2);
  localparam bit CUT_S4 = hifsim_pkg::sparse_residual_add_cut(STAGES, 3);
  localparam bit CUT_S6 = hifsim_pkg::sparse_residual_add_cut(STAGES, 4);
  localparam bit CUT_S7 = hifsim_pkg::sparse_residual_add_cut(STAGES, 5);

  // ------------------------------------------------------------------------------------
  // Stage 1 (combinational): s0 (with the 2:4 select), s1 and s5.
  // ------------------------------------------------------------------------------------
  logic [NS*WP-1:0] s1_p;
  logic [15:0]      s1_e18;   // {E1_8w, E1_8r}
  logic [WSIDE-1:0] s1_side;
  always_comb begin
    logic [3:0] vr, vw, mag_r, mag_w;
    logic [1:0] ix;
    logic [7:0] prod;
    logic [7:0] sr, sw;
    for (int j = 0; j < NS; j++) begin
      vr = r[32 + 4*j +: 4];
      ix = r[160 + 2*j +: 2];
      vw = w[32 + 16*(j/2) + 4*ix +: 4];   // the 2:4 select: element 4g + idx[j]
      mag_r = r[16 + j/2] ? {vr[2:0], 1'b0} : {1'b0, vr[2:0]};
      mag_w = w[16 + j/2] ? {vw[2:0], 1'b0} : {1'b0, vw[2:0]};
      prod  = mag_r * mag_w;
      s1_p[WP*j +: WP] = (vr[3] ^ vw[3]) ? (9'd0 - {1'b0, prod}) : {1'b0, prod};
    end
    s1_e18 = {w[15:8], r[15:8]};
    sr = r[7:0];
    sw = w[7:0];
    s1_side[WSS-1:0]   = {1'b1, sr[1:0]} * {1'b1, sw[1:0]};
    s1_side[WSS +: WX] = 8'({2'b00, sr[7:2]} + {2'b00, sw[7:2]} - 8'(hifsim_pkg::HIF4_EXP_OFFSET));
    s1_side[WSS + WX]  = (sr == hifsim_pkg::E6M2_NAN) || (sw == hifsim_pkg::E6M2_NAN);
    s1_side[WSIDE-1 -: WACC] = {acc_start, init_value};
  end

  // ------------------------------------------------------------------------------------
  // s2..s7 and every rank (after s1, s2, s4, s6, s7): the shared HiF4 tail (hif4_dot_tail.sv) at
  // the sparse unit's narrower widths (4 products per group), with the accumulator sideband
  // {acc_start, init_value} alongside.
  // ------------------------------------------------------------------------------------
  logic            c7_valid;
  logic [31:0]     c7_dot;
  logic [WACC-1:0] c7_acc;
  hif4_dot_tail #(.PG(4), .WG(hifsim_pkg::SP_W_GROUP), .WQ(hifsim_pkg::SP_W_SHIFTED), .WI(hifsim_pkg::SP_W_I),
                  .WBIG(hifsim_pkg::SP_W_BIG), .MAX_BIG(hifsim_pkg::SP_MAX_BIG), .XW(WACC), .CUT_S1(CUT_S1),
                  .CUT_S2(CUT_S2), .CUT_S4(CUT_S4), .CUT_S6(CUT_S6), .CUT_S7(CUT_S7)) u_tail (
    .clk, .rst_n,
    .up_valid(in_valid), .up_ready(in_ready),
    .prod(s1_p), .e18(s1_e18), .side(s1_side[1+WX+WSS-1:0]), .x_in(s1_side[WSIDE-1 -: WACC]),
    .dn_valid(c7_valid), .dn_ready(out_ready), .out(c7_dot), .x_out(c7_acc)
  );

  // ------------------------------------------------------------------------------------
  // The accumulator: out_acc = round_P(x + dot); the register takes it on an output transfer.
  // ------------------------------------------------------------------------------------
  localparam int WREG = 32 - DROP;
  logic [WREG-1:0] acc_q;
  logic [31:0]     acc_full, init_full, op_x, sum;
  logic            start;

  assign start     = c7_acc[WACC-1];
  if (DROP > 0) begin : g_reduced
    assign acc_full  = {acc_q, {DROP{1'b0}}};
    assign init_full = {c7_acc[DROP +: WREG], {DROP{1'b0}}};
    logic unused_low;  // the ignored bits of init_value and the adder's always-zero low bits
    assign unused_low = |{c7_acc[DROP-1:0], sum[DROP-1:0]};
  end else begin : g_fp32
    assign acc_full  = acc_q;
    assign init_full = c7_acc[31:0];
  end
  assign op_x = start ? init_full : acc_full;

  hifsim_fp_add #(.MANT_BITS(MANT_BITS), .ROUND_RZ(ROUND_RZ)) u_add (
    .x(op_x), .y(c7_dot), .r(sum)
  );

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n)                       acc_q <= '0;
    else if (c7_valid && out_ready)   acc_q <= sum[31:DROP];
  end

  assign out_valid = c7_valid;
  assign out_dot   = c7_dot;
  assign out_acc   = sum;
  assign acc       = acc_full;
endmodule
