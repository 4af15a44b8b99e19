// cost_probe_add: a W-bit adder with carry out, y = a + b (W+1 bits). Area probe for the cost
// model (docs/cost.md); fits the adder coefficient. Not part of the matrix unit.
module cost_probe_add #(
  parameter int W = 8
) (
  input  logic [W-1:0] a,
  input  logic [W-1:0] b,
  output logic [W:0]   y
);
  assign y = {1'b0, a} + {1'b0, b};
endmodule
