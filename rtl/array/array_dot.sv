// array_dot: the dot unit of one PE of the calibration matrix unit, chosen by the PE type, with
// the wiring from a memory block (matrix_unit_pkg: the packed records, little-endian) to the
// unit's ports. The units are the verified ones of rtl/ (each cosimulated against its C++
// model); nothing here computes, it only routes bits (array_records splits the scaled records):
//   NVFP4  record j = bits [72j +: 72]: E4M3 scale [72j +: 8], 16 codes [72j + 8 +: 64]
//   MXFP4  record i = bits [136i +: 136]: E8M0 scale [136i +: 8], 32 codes [136i + 8 +: 128]
//   MXFP8  E8M0 scale [7:0], 32 codes [263:8]
//   HiF4, HiF8, BF16: the block is the unit's operand as is.
// PE_HIF4_SPARSE: main blocks go to hif4_dot64; residual blocks (`res`) to sparse_residual_add,
// whose residual operand is the block compressed 2:4 on the way in (array_compress24) and whose
// weight operand is the dense B block. Only its exact dot output (out_dot) is used: the PE adds
// it into its own FP32 accumulator like a main dot product (fused residual, docs/datapath.md 7).
// Both units have STAGES register ranks, so one result leaves per cycle in issue order.
module array_dot #(
  parameter int PE          = 0,
  parameter int HIF8_N      = 64,
  parameter int HIF8_W      = 0,
  parameter int HIF8_STICKY = 0,
  parameter int STAGES      = 3,
  parameter int WB          = 288
) (
  input  logic          clk,
  input  logic          rst_n,
  input  logic          in_valid,
  input  logic          res,       // residual block (PE_HIF4_SPARSE only)
  input  logic [WB-1:0] a,
  input  logic [WB-1:0] b,
  output logic          out_valid,
  output logic [31:0]   out
);
  logic in_ready_unused;

  if (PE == matrix_unit_pkg::PE_HIF4) begin : g_hif4
    hif4_dot64 #(.STAGES(STAGES)) u (
      .clk, .rst_n, .in_valid, .in_ready(in_ready_unused), .a, .b, .out_valid, .out_ready(1'b1), .out);
  end else if (PE == matrix_unit_pkg::PE_HIF8) begin : g_hif8
    hif8_dot #(.N(HIF8_N), .W(HIF8_W), .STICKY(HIF8_STICKY), .STAGES(STAGES)) u (
      .clk, .rst_n, .in_valid, .in_ready(in_ready_unused), .a, .b, .out_valid, .out_ready(1'b1), .out);
  end else if (PE == matrix_unit_pkg::PE_NVFP4) begin : g_nvfp4
    logic [255:0] ca, cb;
    logic [31:0]  sa, sb;
    array_records #(.N(4), .CODE_BITS(64)) u_ra (.block(a), .scales(sa), .codes(ca));
    array_records #(.N(4), .CODE_BITS(64)) u_rb (.block(b), .scales(sb), .codes(cb));
    nvfp4_dot64 #(.STAGES(STAGES)) u (
      .clk, .rst_n, .in_valid, .in_ready(in_ready_unused), .a(ca), .b(cb), .sa, .sb, .out_valid,
      .out_ready(1'b1), .out);
  end else if (PE == matrix_unit_pkg::PE_MXFP4) begin : g_mxfp4
    logic [255:0] ca, cb;
    logic [15:0]  sa, sb;
    array_records #(.N(2), .CODE_BITS(128)) u_ra (.block(a), .scales(sa), .codes(ca));
    array_records #(.N(2), .CODE_BITS(128)) u_rb (.block(b), .scales(sb), .codes(cb));
    mxfp4_dot64 #(.STAGES(STAGES)) u (
      .clk, .rst_n, .in_valid, .in_ready(in_ready_unused), .a(ca), .b(cb), .sa, .sb, .out_valid,
      .out_ready(1'b1), .out);
  end else if (PE == matrix_unit_pkg::PE_MXFP8) begin : g_mxfp8
    mxfp8_dot32 #(.E5M2(0), .STAGES(STAGES)) u (
      .clk, .rst_n, .in_valid, .in_ready(in_ready_unused), .a(a[263:8]), .b(b[263:8]), .sa(a[7:0]),
      .sb(b[7:0]), .out_valid, .out_ready(1'b1), .out);
  end else if (PE == matrix_unit_pkg::PE_BF16) begin : g_bf16
    bf16_dot64 #(.W(64), .STICKY(1), .STAGES(STAGES)) u (
      .clk, .rst_n, .in_valid, .in_ready(in_ready_unused), .a, .b, .out_valid, .out_ready(1'b1), .out);
  end else begin : g_hif4_sparse
    logic        main_valid, res_valid, res_ready_unused;
    logic [31:0] main_out, res_out, res_acc_unused, res_reg_unused;
    logic [223:0] r24;
    hif4_dot64 #(.STAGES(STAGES)) u_main (
      .clk, .rst_n, .in_valid(in_valid && !res), .in_ready(in_ready_unused), .a, .b,
      .out_valid(main_valid), .out_ready(1'b1), .out(main_out));
    array_compress24 u_cmp (.dense(a), .sparse(r24));
    sparse_residual_add #(.STAGES(STAGES)) u_res (
      .clk, .rst_n, .in_valid(in_valid && res), .in_ready(res_ready_unused), .r(r24), .w(b),
      .acc_start(1'b1), .init_value(32'h0000_0000), .out_valid(res_valid), .out_ready(1'b1),
      .out_dot(res_out), .out_acc(res_acc_unused), .acc(res_reg_unused));
    assign out_valid = main_valid || res_valid;
    assign out       = res_valid ? res_out : main_out;
    logic unused_ok;
    assign unused_ok = &{1'b0, res_ready_unused, res_acc_unused, res_reg_unused};
  end

  // Never back-pressured (out_ready = 1), so in_ready is always 1.
  logic unused_common;
  assign unused_common = &{1'b0, in_ready_unused, res};
endmodule
