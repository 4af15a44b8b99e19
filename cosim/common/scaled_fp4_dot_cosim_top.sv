// scaled_fp4_dot_cosim_top: the Verilated models of the two block-scaled FP4 dot units, whose
// ports are alike (E2M1 codes a, b; block scales sa, sb; FP32 out): UNIT = 0 rtl/nvfp4_dot64.sv
// (4 E4M3 scales per operand), UNIT = 1 rtl/mxfp4_dot64.sv (2 E8M0 scales). Used by
// cosim/nvfp4_dot64/main.cpp and cosim/mxfp4_dot64/main.cpp; not synthesised.
// SWEEP = 0: the regression model at the unit's deepest pipeline (every cut point). SWEEP = 1:
// every other pipeline depth, one instance per group, run one group after the other through
// `sel` (cosim_group_sel). cfg[32i +: 32] = {group, STAGES, 24'b0} of instance i (read by the
// harness: this list is the only place the instances are written down).
module scaled_fp4_dot_cosim_top #(
  parameter int UNIT  = 0,
  parameter int SWEEP = 0
) (
  input  logic             clk,
  input  logic             rst_n,
  input  logic [3:0]       sel,
  input  logic             in_valid,
  output logic             in_ready,
  input  logic [255:0]     a,
  input  logic [255:0]     b,
  input  logic [SW-1:0]    sa,
  input  logic [SW-1:0]    sb,
  output logic             out_valid,
  input  logic             out_ready,
  output logic [31:0]      out,
  output logic [NI*32-1:0] cfg
);
  localparam int SW    = (UNIT == 0) ? 32 : 16;   // 4 E4M3 / 2 E8M0 scales
  localparam int DEPTH = (UNIT == 0) ? 5 : 4;     // the deepest pipeline (the unit's maximum STAGES)
  localparam int NI    = (SWEEP != 0) ? DEPTH : 1;

  logic [NI-1:0]    iv, ir, ov, orr;
  logic [NI*32-1:0] o;
  for (genvar i = 0; i < NI; i++) begin : g_inst
    localparam int ST = (SWEEP != 0) ? i : DEPTH;
    if (UNIT == 0) begin : g_nvfp4
      nvfp4_dot64 #(.STAGES(ST)) u_dot (
        .clk, .rst_n, .in_valid(iv[i]), .in_ready(ir[i]), .a, .b, .sa, .sb,
        .out_valid(ov[i]), .out_ready(orr[i]), .out(o[32*i +: 32])
      );
    end else begin : g_mxfp4
      mxfp4_dot64 #(.STAGES(ST)) u_dot (
        .clk, .rst_n, .in_valid(iv[i]), .in_ready(ir[i]), .a, .b, .sa, .sb,
        .out_valid(ov[i]), .out_ready(orr[i]), .out(o[32*i +: 32])
      );
    end
    assign cfg[32*i +: 32] = {4'(i), 4'(ST), 24'd0};
  end
  cosim_group_sel #(.NI(NI), .PG(1), .OW(32)) u_sel (
    .sel, .in_valid, .in_ready, .out_valid, .out_ready, .out,
    .inst_in_valid(iv), .inst_in_ready(ir), .inst_out_valid(ov), .inst_out_ready(orr), .inst_out(o)
  );
endmodule
