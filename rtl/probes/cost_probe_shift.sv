// cost_probe_shift: an aligner, a W-bit value shifted left by 0 .. 2^S - 1 positions into a
// W + 2^S - 1 bit field (a logarithmic barrel shifter of S levels). Area probe for the cost
// model (docs/cost.md); fits the shifter coefficient. Not part of the matrix unit.
module cost_probe_shift #(
  parameter int W = 16,
  parameter int S = 3
) (
  input  logic [W-1:0]          a,
  input  logic [S-1:0]          sh,
  output logic [W+(1<<S)-2:0]   y
);
  localparam int WO = W + (1 << S) - 1;
  assign y = WO'(a) << sh;
endmodule
