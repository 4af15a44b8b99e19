// quant_miter: hif4_quantizer (STAGES = 0: the datapath; the other depths add register ranks
// that ctrl.hif4_quantizer.* covers) against ref_hif4_quant (hif4.md section 2) for every 64 x
// BF16 input, one part of the 288-bit unit per job (the whole unit at once is too big for ABC
// here), so the proof is split at the unit's own stage contract:
//   PART = 0  the meta word {E1_16, E1_8, E6M2} = ref_hif4_meta(x): peaks, scale code (BF16
//             rounding, clamp, E6M2 rounding), reciprocal, the 24 threshold compares
//   PART = 1  elements K0 .. K1-1: nibble k = ref_hif4_elem(x[k], E6M2, E1_8[k/8], E1_16[k/4])
//             read from the unit's own meta word (which PART = 0 proves equal to the reference,
//             so together: every nibble = the reference of x)
module quant_miter #(
  parameter int ELEM_RNE   = 0,
  parameter int CMP_BF16   = 0,
  parameter int INF_TO_NAN = 0,
  parameter int ASCEND_A6  = 0,
  parameter int PART       = 0,
  parameter int K0         = 0,
  parameter int K1         = 64
) (
  input logic [1023:0] x
);
  logic [287:0] unit;
  logic         in_ready, out_valid;
  hif4_quantizer #(.STAGES(0), .ELEM_RNE(ELEM_RNE), .CMP_BF16(CMP_BF16), .INF_TO_NAN(INF_TO_NAN),
                   .ASCEND_A6(ASCEND_A6)) dut (
    .clk(1'b0), .rst_n(1'b1), .in_valid(1'b1), .in_ready, .x, .out_valid, .out_ready(1'b1), .unit);

  if (PART == 0) begin : g_meta
    logic [31:0] meta_ref;
    ref_hif4_meta #(.CMP_BF16(CMP_BF16), .INF_TO_NAN(INF_TO_NAN), .ASCEND_A6(ASCEND_A6)) ref_model (.x, .meta(meta_ref));
    always_comb assert (unit[31:0] == meta_ref);
  end else begin : g_elem
    for (genvar k = K0; k < K1; k++) begin : g_k
      logic [3:0] nib_ref;
      ref_hif4_elem #(.ELEM_RNE(ELEM_RNE), .ASCEND_A6(ASCEND_A6)) ref_model (
        .x(x[16*k +: 16]), .code(unit[7:0]), .e8(unit[8 + k/8]), .e16(unit[16 + k/4]), .nib(nib_ref));
      always_comb assert (unit[32 + 4*k +: 4] == nib_ref);
    end
  end
endmodule
