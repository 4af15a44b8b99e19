// cost_probe_max: the maximum of N unsigned W-bit values (a chain of N-1 compare-and-select
// steps; the exponent-maximum tree of the aligned HiF8/BF16 dot units). Area probe for the cost
// model (docs/cost.md); fits the comparator coefficient. Not part of the matrix unit.
module cost_probe_max #(
  parameter int N = 8,
  parameter int W = 8
) (
  input  logic [N*W-1:0] x,   // value i at [W*i +: W]
  output logic [W-1:0]   y
);
  always_comb begin
    logic [W-1:0] m, v;
    m = x[W-1:0];
    for (int i = 1; i < N; i++) begin
      v = x[W*i +: W];
      if (v > m) m = v;
    end
    y = m;
  end
endmodule
