// hif4_quantizer_cosim_top: the Verilated models of rtl/hif4_quantizer.sv
// (cosim/hif4_quantizer/main.cpp), option sets side by side on the same input. Not synthesised.
//   SWEEP = 0: one group at STAGES = 4 (every cut point): the reference defaults (half-away
//              elements, exact compares, Inf saturates) and every option flipped (RNE elements,
//              BF16-rounded compares "A6 golden", Inf -> NaN).
//   SWEEP = 1: one instance per group, at STAGES 0, 1, 2 with one option alone each (ELEM_RNE,
//              CMP_BF16, INF_TO_NAN) and at STAGES 3 (the RTL default) with ELEM_RNE + CMP_BF16
//              (the second set of scripts/synth.sh); run one group after the other through `sel`
//              (cosim_group_sel).
// cfg[32i +: 32] = {group, STAGES, 21'b0, INF_TO_NAN, CMP_BF16, ELEM_RNE} of instance i: the
// harness reads the option sets from the model, so this list is the only place they are written.
module hif4_quantizer_cosim_top #(
  parameter int SWEEP = 0
) (
  input  logic             clk,
  input  logic             rst_n,
  input  logic [3:0]       sel,
  input  logic             in_valid,
  output logic             in_ready,
  input  logic [1023:0]    x,
  output logic             out_valid,
  input  logic             out_ready,
  output logic [PG*288-1:0] unit,
  output logic [NI*32-1:0] cfg
);
  localparam int PG = (SWEEP != 0) ? 1 : 2;      // instances per group
  localparam int NI = (SWEEP != 0) ? 4 : 2;

  // {INF_TO_NAN, CMP_BF16, ELEM_RNE} of instance i.
  function automatic int opt_of(int i);
    if (SWEEP == 0) opt_of = (i == 0) ? 0 : 7;
    else begin
      case (i)
        0:       opt_of = 1;
        1:       opt_of = 2;
        2:       opt_of = 4;
        default: opt_of = 3;
      endcase
    end
  endfunction

  logic [NI-1:0]     iv, ir, ov, orr;
  logic [NI*288-1:0] o;
  for (genvar i = 0; i < NI; i++) begin : g_inst
    localparam int OPT = opt_of(i);
    localparam int ST  = (SWEEP != 0) ? i / PG : 4;
    hif4_quantizer #(.STAGES(ST), .ELEM_RNE(OPT & 1), .CMP_BF16((OPT >> 1) & 1), .INF_TO_NAN((OPT >> 2) & 1)) u_q (
      .clk, .rst_n, .in_valid(iv[i]), .in_ready(ir[i]), .x, .out_valid(ov[i]), .out_ready(orr[i]),
      .unit(o[288*i +: 288])
    );
    assign cfg[32*i +: 32] = {4'(i / PG), 4'(ST), 21'd0, 3'(OPT)};
  end
  cosim_group_sel #(.NI(NI), .PG(PG), .OW(288)) u_sel (
    .sel, .in_valid, .in_ready, .out_valid, .out_ready, .out(unit),
    .inst_in_valid(iv), .inst_in_ready(ir), .inst_out_valid(ov), .inst_out_ready(orr), .inst_out(o)
  );
endmodule
