// cost_probe_tree: the sum of N signed W-bit terms, y = x[0] + ... + x[N-1] (W + clog2(N) bits,
// two's complement), written as the dot units write their group sums (a loop of additions; Yosys
// turns it into a carry-save tree and one final adder). Area probe for the cost model
// (docs/cost.md); fits the adder-tree coefficient. Not part of the matrix unit.
module cost_probe_tree #(
  parameter int N = 8,
  parameter int W = 9
) (
  input  logic [N*W-1:0]          x,   // term i at [W*i +: W]
  output logic [W+$clog2(N)-1:0]  y
);
  localparam int WO = W + $clog2(N);
  always_comb begin
    logic [WO-1:0] s;
    logic [W-1:0]  t;
    s = '0;
    for (int i = 0; i < N; i++) begin
      t = x[W*i +: W];
      s = s + {{(WO-W){t[W-1]}}, t};
    end
    y = s;
  end
endmodule
