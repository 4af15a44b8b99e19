// cost_probe_smmul: a sign-magnitude product converted to two's complement, the element
// multiplier of the block-scaled dot units (HiF4, NVFP4, MXFP4): |a|, |b| are W-bit magnitudes,
// y = (sa ^ sb) ? -(|a|*|b|) : |a|*|b| as a (2W+1)-bit two's complement value. Area probe for the
// cost model (docs/cost.md); fits the sign-conversion coefficient. Not part of the matrix unit.
module cost_probe_smmul #(
  parameter int W = 4
) (
  input  logic           sa,
  input  logic [W-1:0]   a,
  input  logic           sb,
  input  logic [W-1:0]   b,
  output logic [2*W:0]   y
);
  logic [2*W-1:0] m;
  assign m = (2*W)'(a) * (2*W)'(b);
  assign y = (sa ^ sb) ? ((2*W+1)'(0) - {1'b0, m}) : {1'b0, m};
endmodule
