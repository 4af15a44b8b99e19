// wide_lemma_miter: ref_round_wide (log-depth normalisation, for the wide exact fields of the dot
// references) = ref_round for every sum and lsb_exp of the width: the two references agree.
module wide_lemma_miter #(
  parameter int WS = 64,
  parameter int WE = 12
) (
  input logic [WS-1:0] sum,
  input logic [WE-1:0] lsb_exp
);
  logic [31:0] out_a, out_b;
  ref_round      #(.WS(WS), .WE(WE), .P(24), .RZ(0)) u_a (.sum, .lsb_exp, .out(out_a));
  ref_round_wide #(.WS(WS), .WE(WE), .P(24), .RZ(0)) u_b (.sum, .lsb_exp, .out(out_b));
  always_comb assert (out_a == out_b);
endmodule
