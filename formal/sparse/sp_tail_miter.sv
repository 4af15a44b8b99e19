// sp_tail_miter: the HiF4 tail (rtl/hif4_dot_tail.sv) at sparse_residual_add's parameters -- 4
// products per level-2 group, the stage widths and the bound on big of hifsim_pkg's SP_* (the
// values the unit instantiates u_tail with) -- against the stage contracts of formal/hif4/
// tail_miter.sv, for every input the sparse front end can give (the bounds sp.front asserts:
// p in [-196, 196], SS in [16, 49], X in [-104, 22]):
//   I = sum_i (sum of p[4i..4i+3]) * 2^(E1_8r[i] + E1_8w[i]);  big = I * SS;
//   out = big * 2^X in FP32 (ref_round, 40-bit integers), NaN when nan.
module sp_tail_miter (
  input logic [32*9-1:0] prod,
  input logic [15:0]     e18,
  input logic [14:0]     side
);
  tail_miter #(.PG(4), .WG(hifsim_pkg::SP_W_GROUP), .WQ(hifsim_pkg::SP_W_SHIFTED), .WI(hifsim_pkg::SP_W_I),
               .WBIG(hifsim_pkg::SP_W_BIG), .MAX_BIG(hifsim_pkg::SP_MAX_BIG)) m (.prod, .e18, .side);
endmodule
