// hif4_quantizer_cosim_top: NV option sets of rtl/hif4_quantizer.sv side by side on the same
// input, in lockstep on one valid/ready handshake (cosim/hif4_quantizer/main.cpp). Not
// synthesised. cfg[8v +: 8] = {5'b0, INF_TO_NAN, CMP_BF16, ELEM_RNE} of variant v (read by the
// harness).
module hif4_quantizer_cosim_top #(
  parameter int NV     = 2,
  parameter int STAGES = 4
) (
  input  logic              clk,
  input  logic              rst_n,
  input  logic              in_valid,
  output logic              in_ready,
  input  logic [1023:0]     x,
  output logic              out_valid,
  input  logic              out_ready,
  output logic [NV*288-1:0] unit,
  output logic [NV*8-1:0]   cfg
);
  // v0: the reference defaults (half-away elements, exact compares, Inf saturates);
  // v1: every option flipped (RNE elements, BF16-rounded compares "A6 golden", Inf -> NaN).
  function automatic int opt_of(int v);
    opt_of = (v == 0) ? 0 : 7;
  endfunction

  logic [NV-1:0] rdy, vld;
  for (genvar v = 0; v < NV; v++) begin : g_var
    localparam int OPT = opt_of(v);
    hif4_quantizer #(.STAGES(STAGES), .ELEM_RNE(OPT & 1), .CMP_BF16((OPT >> 1) & 1), .INF_TO_NAN((OPT >> 2) & 1)) u_q (
      .clk, .rst_n, .in_valid, .in_ready(rdy[v]), .x, .out_valid(vld[v]), .out_ready, .unit(unit[288*v +: 288])
    );
    assign cfg[8*v +: 8] = 8'(OPT);
  end
  assign in_ready  = &rdy;
  assign out_valid = &vld;
endmodule
