// mxfp8_dot32_cosim_top: rtl/mxfp8_dot32.sv with E4M3 and with E5M2 elements side by side, in
// lockstep on one valid/ready handshake, each with its own operands, so one Verilated model checks
// both element formats (cosim/mxfp8_dot32/main.cpp). Not synthesised.
module mxfp8_dot32_cosim_top #(
  parameter int STAGES = 3
) (
  input  logic         clk,
  input  logic         rst_n,
  input  logic         in_valid,
  output logic         in_ready,
  input  logic [255:0] a4,
  input  logic [255:0] b4,
  input  logic [7:0]   sa4,
  input  logic [7:0]   sb4,
  input  logic [255:0] a5,
  input  logic [255:0] b5,
  input  logic [7:0]   sa5,
  input  logic [7:0]   sb5,
  output logic         out_valid,
  input  logic         out_ready,
  output logic [63:0]  out   // {E5M2 result, E4M3 result}
);
  logic r4, r5, v4, v5;
  mxfp8_dot32 #(.E5M2(0), .STAGES(STAGES)) u_e4m3 (
    .clk, .rst_n, .in_valid, .in_ready(r4), .a(a4), .b(b4), .sa(sa4), .sb(sb4),
    .out_valid(v4), .out_ready, .out(out[31:0])
  );
  mxfp8_dot32 #(.E5M2(1), .STAGES(STAGES)) u_e5m2 (
    .clk, .rst_n, .in_valid, .in_ready(r5), .a(a5), .b(b5), .sa(sa5), .sb(sb5),
    .out_valid(v5), .out_ready, .out(out[63:32])
  );
  // Identical pipelines stay in lockstep; a divergence would stall or reorder (and be caught).
  assign in_ready  = r4 && r5;
  assign out_valid = v4 && v5;
endmodule
