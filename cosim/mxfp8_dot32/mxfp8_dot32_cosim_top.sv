// mxfp8_dot32_cosim_top: the Verilated models of rtl/mxfp8_dot32.sv (cosim/mxfp8_dot32/main.cpp):
// groups of two instances in lockstep, E4M3 and E5M2 elements, each with its own operands, so
// one model checks both element formats. Not synthesised.
// SWEEP = 0: one group at STAGES = 3 (every cut point). SWEEP = 1: groups at STAGES 0, 1, 2, run
// one after the other through `sel` (cosim_group_sel). cfg[32i +: 32] = {group, STAGES, 23'b0,
// E5M2} of instance i (read by the harness: this list is the only place the instances are
// written down). out = {E5M2 result, E4M3 result} of the selected group.
module mxfp8_dot32_cosim_top #(
  parameter int SWEEP = 0
) (
  input  logic             clk,
  input  logic             rst_n,
  input  logic [3:0]       sel,
  input  logic             in_valid,
  output logic             in_ready,
  input  logic [255:0]     a4,
  input  logic [255:0]     b4,
  input  logic [7:0]       sa4,
  input  logic [7:0]       sb4,
  input  logic [255:0]     a5,
  input  logic [255:0]     b5,
  input  logic [7:0]       sa5,
  input  logic [7:0]       sb5,
  output logic             out_valid,
  input  logic             out_ready,
  output logic [63:0]      out,
  output logic [NI*32-1:0] cfg
);
  localparam int NI = (SWEEP != 0) ? 6 : 2;

  logic [NI-1:0]    iv, ir, ov, orr;
  logic [NI*32-1:0] o;
  for (genvar i = 0; i < NI; i++) begin : g_inst
    localparam int ST = (SWEEP != 0) ? i / 2 : 3;
    localparam int E5 = i % 2;
    mxfp8_dot32 #(.E5M2(E5), .STAGES(ST)) u_dot (
      .clk, .rst_n, .in_valid(iv[i]), .in_ready(ir[i]),
      .a(E5 != 0 ? a5 : a4), .b(E5 != 0 ? b5 : b4), .sa(E5 != 0 ? sa5 : sa4), .sb(E5 != 0 ? sb5 : sb4),
      .out_valid(ov[i]), .out_ready(orr[i]), .out(o[32*i +: 32])
    );
    assign cfg[32*i +: 32] = {4'(i / 2), 4'(ST), 23'd0, 1'(E5)};
  end
  cosim_group_sel #(.NI(NI), .PG(2), .OW(32)) u_sel (
    .sel, .in_valid, .in_ready, .out_valid, .out_ready, .out,
    .inst_in_valid(iv), .inst_in_ready(ir), .inst_out_valid(ov), .inst_out_ready(orr), .inst_out(o)
  );
endmodule
