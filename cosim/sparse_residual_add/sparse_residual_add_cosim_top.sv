// sparse_residual_add_cosim_top: the Verilated models of rtl/sparse_residual_add.sv
// (cosim/sparse_residual_add/main.cpp). Not synthesised. One instance per group.
//   SWEEP = 0: STAGES = 5 (every cut point), FP32 RNE accumulator (`fp32`).
//   SWEEP = 1: groups at STAGES 0..4, each with another accumulator: fp32-m10-rz, fp32-m23-rz,
//              fp32-m13-rne, fp32 (the RTL default, STAGES = 3), fp32-m7-rz; run one group after
//              the other through `sel` (cosim_group_sel). The reduced registers exercise the
//              narrowed register and the ignored low init_value bits, RZ the other rounding.
// cfg[32i +: 32] = {group, STAGES, 16'b0, ROUND_RZ, MANT_BITS[6:0]} of instance i: the harness
// reads the parameter sets from the model, so this list is the only place they are written down.
module sparse_residual_add_cosim_top #(
  parameter int SWEEP = 0
) (
  input  logic             clk,
  input  logic             rst_n,
  input  logic [3:0]       sel,
  input  logic             in_valid,
  output logic             in_ready,
  input  logic [223:0]     r,
  input  logic [287:0]     w,
  input  logic             acc_start,
  input  logic [31:0]      init_value,
  output logic             out_valid,
  input  logic             out_ready,
  output logic [31:0]      out_dot,
  output logic [31:0]      out_acc,
  output logic [31:0]      acc,
  output logic [NI*32-1:0] cfg
);
  localparam int NI = (SWEEP != 0) ? 5 : 1;

  // {ROUND_RZ, MANT_BITS} of instance i.
  function automatic int acc_of(int i);
    if (SWEEP == 0) acc_of = 23;
    else begin
      case (i)
        0:       acc_of = 128 | 10;
        1:       acc_of = 128 | 23;
        2:       acc_of = 13;
        3:       acc_of = 23;
        default: acc_of = 128 | 7;
      endcase
    end
  endfunction

  logic [NI-1:0]    iv, ir, ov, orr;
  logic [NI*96-1:0] o;
  for (genvar i = 0; i < NI; i++) begin : g_inst
    localparam int MB = acc_of(i) & 127;
    localparam int RZ = acc_of(i) >> 7;
    localparam int ST = (SWEEP != 0) ? i : 5;
    sparse_residual_add #(.STAGES(ST), .MANT_BITS(MB), .ROUND_RZ(RZ)) u_add (
      .clk, .rst_n, .in_valid(iv[i]), .in_ready(ir[i]), .r, .w, .acc_start, .init_value,
      .out_valid(ov[i]), .out_ready(orr[i]),
      .out_dot(o[96*i +: 32]), .out_acc(o[96*i+32 +: 32]), .acc(o[96*i+64 +: 32])
    );
    assign cfg[32*i +: 32] = {4'(i), 4'(ST), 16'd0, RZ[0], MB[6:0]};
  end
  cosim_group_sel #(.NI(NI), .PG(1), .OW(96)) u_sel (
    .sel, .in_valid, .in_ready, .out_valid, .out_ready, .out({acc, out_acc, out_dot}),
    .inst_in_valid(iv), .inst_in_ready(ir), .inst_out_valid(ov), .inst_out_ready(orr), .inst_out(o)
  );
endmodule
