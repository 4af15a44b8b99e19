// bf16_dot64_cosim_top: the Verilated models of rtl/bf16_dot64.sv (cosim/bf16_dot64/main.cpp). Not
// synthesised. One instance per group.
//   SWEEP = 0: W = 64 sticky (the model's default_align) at STAGES = 4 (every cut point).
//   SWEEP = 1: groups at STAGES 0, 1, 2, 3 with the other parameter sets of scripts/synth.sh and
//              of the lint checks (rtl/CMakeLists.txt): W = 16 trunc, 32 sticky, 120 sticky,
//              64 trunc; run one group after the other through `sel` (cosim_group_sel).
// cfg[32i +: 32] = {group, STAGES, 8'b0, STICKY, 7'b0, W[7:0]} of instance i: the harness reads
// the parameter sets from the model, so this list is the only place they are written down.
module bf16_dot64_cosim_top #(
  parameter int SWEEP = 0
) (
  input  logic             clk,
  input  logic             rst_n,
  input  logic [3:0]       sel,
  input  logic             in_valid,
  output logic             in_ready,
  input  logic [1023:0]    a,
  input  logic [1023:0]    b,
  output logic             out_valid,
  input  logic             out_ready,
  output logic [31:0]      out,
  output logic [NI*32-1:0] cfg
);
  localparam int NI = (SWEEP != 0) ? 4 : 1;

  // {W, STICKY} of instance i.
  function automatic int set_of(int i);
    if (SWEEP == 0) set_of = (64 << 8) | 1;
    else begin
      case (i)
        0:       set_of = (16 << 8) | 0;
        1:       set_of = (32 << 8) | 1;
        2:       set_of = (120 << 8) | 1;
        default: set_of = (64 << 8) | 0;
      endcase
    end
  endfunction

  logic [NI-1:0]    iv, ir, ov, orr;
  logic [NI*32-1:0] o;
  for (genvar i = 0; i < NI; i++) begin : g_inst
    localparam int W  = set_of(i) >> 8;
    localparam int SK = set_of(i) & 1;
    localparam int ST = (SWEEP != 0) ? i : 4;
    bf16_dot64 #(.W(W), .STICKY(SK), .STAGES(ST)) u_dot (
      .clk, .rst_n, .in_valid(iv[i]), .in_ready(ir[i]), .a, .b,
      .out_valid(ov[i]), .out_ready(orr[i]), .out(o[32*i +: 32])
    );
    assign cfg[32*i +: 32] = {4'(i), 4'(ST), 8'd0, SK[0], 7'd0, W[7:0]};
  end
  cosim_group_sel #(.NI(NI), .PG(1), .OW(32)) u_sel (
    .sel, .in_valid, .in_ready, .out_valid, .out_ready, .out,
    .inst_in_valid(iv), .inst_in_ready(ir), .inst_out_valid(ov), .inst_out_ready(orr), .inst_out(o)
  );
endmodule
