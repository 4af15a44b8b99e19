// emax_lemma: ref_aligned_front's two ways to Emax agree -- the scan in element order (EMAX_TREE
// = 0, the definition written most directly) and the balanced tree of neighbour pairs (EMAX_TREE
// = 1, which al.bf.*.front compares with the unit) -- for every pair of input vectors: the same
// maximum of u over the nonzero products. References only (no RTL): max is associative and
// commutative, this checks that the two modules compute it.
module emax_lemma #(
  parameter int FMT = 1,
  parameter int N   = 64
) (
  input logic [N*((FMT != 0) ? 16 : 8)-1:0] a,
  input logic [N*((FMT != 0) ? 16 : 8)-1:0] b
);
  logic [N-1:0] nz0, neg0, nz1, neg1;
  logic [N*16-1:0] ps0, ps1;
  logic [N*10-1:0] u0, u1;
  logic any0, any1, nan0, nan1, pi0, pi1, ni0, ni1;
  logic [9:0] e0, e1;
  ref_aligned_front #(.FMT(FMT), .N(N), .EMAX_TREE(0)) scan (
    .a, .b, .nz(nz0), .neg(neg0), .psig(ps0), .u(u0), .any(any0), .e_max(e0), .nan(nan0), .pinf(pi0), .ninf(ni0));
  ref_aligned_front #(.FMT(FMT), .N(N), .EMAX_TREE(1)) tree (
    .a, .b, .nz(nz1), .neg(neg1), .psig(ps1), .u(u1), .any(any1), .e_max(e1), .nan(nan1), .pinf(pi1), .ninf(ni1));
  always_comb assert (any0 == any1 && e0 == e1);
endmodule
