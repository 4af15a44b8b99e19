// hif4_dot64_cosim_top: the Verilated models of rtl/hif4_dot64.sv (cosim/hif4_dot64/main.cpp).
// Not synthesised. SWEEP = 0: the regression model, STAGES = 3 (the default). SWEEP = 1: every
// other pipeline depth, one instance per group (STAGES 0, 1, 2, 4, 5), run one group after the
// other through `sel` (cosim_group_sel). cfg[32i +: 32] = {group, STAGES, 24'b0} of instance i:
// the harness reads the instances (and their declared latency) from the model, so this list is
// the only place they are written down.
module hif4_dot64_cosim_top #(
  parameter int SWEEP = 0
) (
  input  logic             clk,
  input  logic             rst_n,
  input  logic [3:0]       sel,
  input  logic             in_valid,
  output logic             in_ready,
  input  logic [287:0]     a,
  input  logic [287:0]     b,
  output logic             out_valid,
  input  logic             out_ready,
  output logic [31:0]      out,
  output logic [NI*32-1:0] cfg
);
  localparam int NI = (SWEEP != 0) ? 5 : 1;
  function automatic int stages_of(int i);
    if (SWEEP == 0) stages_of = 3;
    else            stages_of = (i < 3) ? i : i + 1;   // 0 1 2 4 5
  endfunction

  logic [NI-1:0]    iv, ir, ov, orr;
  logic [NI*32-1:0] o;
  for (genvar i = 0; i < NI; i++) begin : g_inst
    localparam int ST = stages_of(i);
    hif4_dot64 #(.STAGES(ST)) u_dot (
      .clk, .rst_n, .in_valid(iv[i]), .in_ready(ir[i]), .a, .b,
      .out_valid(ov[i]), .out_ready(orr[i]), .out(o[32*i +: 32])
    );
    assign cfg[32*i +: 32] = {4'(i), 4'(ST), 24'd0};
  end
  cosim_group_sel #(.NI(NI), .PG(1), .OW(32)) u_sel (
    .sel, .in_valid, .in_ready, .out_valid, .out_ready, .out,
    .inst_in_valid(iv), .inst_in_ready(ir), .inst_out_valid(ov), .inst_out_ready(orr), .inst_out(o)
  );
endmodule
