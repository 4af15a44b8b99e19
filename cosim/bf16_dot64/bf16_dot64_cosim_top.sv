// bf16_dot64_cosim_top: NV parameter sets of rtl/bf16_dot64.sv side by side, in lockstep on one
// valid/ready handshake (cosim/bf16_dot64/main.cpp). Not synthesised.
// cfg[16v +: 16] = {STICKY, 7'b0, W[7:0]} of variant v (read by the harness).
// NV = 1 by default: each 64-lane BF16 variant adds ~25 s (idle machine) of model compile time;
// the trunc policy and narrow windows of the shared core (hifsim_aligned_dot) are simulated
// through hif8_dot_cosim_top. -GNV=2 adds the second set (W = 28, trunc).
module bf16_dot64_cosim_top #(
  parameter int NV     = 1,
  parameter int STAGES = 4
) (
  input  logic             clk,
  input  logic             rst_n,
  input  logic             in_valid,
  output logic             in_ready,
  input  logic [1023:0]    a,
  input  logic [1023:0]    b,
  output logic             out_valid,
  input  logic             out_ready,
  output logic [NV*32-1:0] out,
  output logic [NV*16-1:0] cfg
);
  function automatic int w_of(int v);
    case (v)
      0:       w_of = 64;   // the model's default_align: W = 64, sticky
      default: w_of = 28;
    endcase
  endfunction
  function automatic int sticky_of(int v);
    sticky_of = (v == 0) ? 1 : 0;
  endfunction

  logic [NV-1:0] rdy, vld;
  for (genvar v = 0; v < NV; v++) begin : g_var
    localparam int W  = w_of(v);
    localparam int ST = sticky_of(v);
    bf16_dot64 #(.W(W), .STICKY(ST), .STAGES(STAGES)) u_dot (
      .clk, .rst_n, .in_valid, .in_ready(rdy[v]), .a, .b,
      .out_valid(vld[v]), .out_ready, .out(out[32*v +: 32])
    );
    assign cfg[16*v +: 16] = {ST[0], 7'd0, W[7:0]};
  end
  assign in_ready  = &rdy;
  assign out_valid = &vld;
endmodule
