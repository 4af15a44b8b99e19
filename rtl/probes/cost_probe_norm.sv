// cost_probe_norm: a normalizer, leading-zero count of a W-bit value and a left shift that puts
// the leading one at bit W-1 (y = a << lzc(a); lzc = W when a == 0, y = 0). Area probe for the
// cost model (docs/cost.md); fits the LZC + normalizer coefficient. Not part of the matrix unit.
module cost_probe_norm #(
  parameter int W = 16
) (
  input  logic [W-1:0]           a,
  output logic [W-1:0]           y,
  output logic [$clog2(W+1)-1:0] lzc
);
  localparam int CW = $clog2(W + 1);
  always_comb begin
    logic found;
    found = 1'b0;
    lzc   = CW'(W);
    for (int i = W - 1; i >= 0; i--) begin
      if (!found && a[i]) begin
        lzc   = CW'(W - 1 - i);
        found = 1'b1;
      end
    end
    y = a << lzc;
  end
endmodule
