// array_compress24: a dense HiF4 unit whose every group of 4 elements has at most 2 nonzero
// codes (a 2:4-sparsified residual, stored dense like A: docs/tlm.md section 4) -> the
// compressed unit of sparse_residual_add, as hifsim::dp::compress_24 (model/datapath/residual.cpp)
// builds it: per group the nonzero positions in order, filled up with the lowest zero positions,
// the two indices ascending.
//   dense   [287:0] layout (A): meta [31:0], element k at [32 + 4k +: 4]
//   sparse  [223:0] meta [31:0], val[j] at [32 + 4j +: 4], idx[j] at [160 + 2j +: 2]
// A code is zero when its magnitude bits [2:0] are 0 (+0 and -0). A group with more than two
// nonzero codes is not a 2:4 residual; it keeps its first two (the C++ model rejects it).
module array_compress24 (
  input  logic [287:0] dense,
  output logic [223:0] sparse
);
  always_comb begin
    sparse = '0;
    sparse[31:0] = dense[31:0];
    for (int g = 0; g < 16; g++) begin
      logic [1:0] k0, k1;
      logic [1:0] n;
      logic       nz;
      k0 = 2'd0;
      k1 = 2'd0;
      n = 2'd0;
      for (int i = 0; i < 4; i++) begin
        nz = dense[32 + 4 * (4 * g + i) +: 3] != 3'd0;
        if (nz && n == 2'd0) begin
          k0 = 2'(i);
          n = 2'd1;
        end else if (nz && n == 2'd1) begin
          k1 = 2'(i);
          n = 2'd2;
        end
      end
      for (int i = 0; i < 4; i++) begin
        nz = dense[32 + 4 * (4 * g + i) +: 3] != 3'd0;
        if (!nz && n == 2'd0) begin
          k0 = 2'(i);
          n = 2'd1;
        end else if (!nz && n == 2'd1 && k0 != 2'(i)) begin
          k1 = 2'(i);
          n = 2'd2;
        end
      end
      if (k0 > k1) begin
        sparse[32 + 4 * (2 * g) +: 4]      = dense[32 + 4 * (4 * g + 32'(k1)) +: 4];
        sparse[32 + 4 * (2 * g + 1) +: 4]  = dense[32 + 4 * (4 * g + 32'(k0)) +: 4];
        sparse[160 + 2 * (2 * g) +: 2]     = k1;
        sparse[160 + 2 * (2 * g + 1) +: 2] = k0;
      end else begin
        sparse[32 + 4 * (2 * g) +: 4]      = dense[32 + 4 * (4 * g + 32'(k0)) +: 4];
        sparse[32 + 4 * (2 * g + 1) +: 4]  = dense[32 + 4 * (4 * g + 32'(k1)) +: 4];
        sparse[160 + 2 * (2 * g) +: 2]     = k0;
        sparse[160 + 2 * (2 * g + 1) +: 2] = k1;
      end
    end
  end
endmodule
