// cost_probe_mul: an unsigned WA x WB multiplier, y = a * b (WA+WB bits). Area probe for the
// cost model (docs/cost.md, "Area"): synthesised by scripts/cost_synth.sh over several widths to
// fit the multiplier coefficient. Not part of the matrix unit.
module cost_probe_mul #(
  parameter int WA = 4,
  parameter int WB = 4
) (
  input  logic [WA-1:0]    a,
  input  logic [WB-1:0]    b,
  output logic [WA+WB-1:0] y
);
  assign y = (WA + WB)'(a) * (WA + WB)'(b);
endmodule
