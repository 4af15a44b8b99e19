// cost_probe_mux: an N:1 multiplexer of W-bit values (N a power of two), y = x[sel]. Area probe
// for the cost model (docs/cost.md); fits the multiplexer coefficient. Not part of the matrix unit.
module cost_probe_mux #(
  parameter int W = 8,
  parameter int N = 4
) (
  input  logic [N*W-1:0]         x,   // input i at [W*i +: W]
  input  logic [$clog2(N)-1:0]   sel,
  output logic [W-1:0]           y
);
  assign y = x[W*sel +: W];
endmodule
