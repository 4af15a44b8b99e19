// sp_decomp_lemma: references only (no RTL); the case split is at the end of the file. docs/datapath.md section 7 defines the sparse unit's
// result as Hif4Dot64 of the decompressed residual: group g of the dense residual unit holds
// val[2g] at position idx[2g], val[2g+1] at position idx[2g+1] and +0 elsewhere, with the
// residual's own E6M2 / E1_8 / E1_16. The select-and-multiply front end (ref_sp_front, which
// sp.front proves the unit equal to) sums 4 products per level-2 group instead of the dense
// unit's 8. This miter proves, for every r and w, that for each L3 group g whose two indices
// differ (so for each level-2 group i = g >> 1 whose two L3 groups are well formed)
//   p_sel[2g] + p_sel[2g+1]  =  sum_{k = 4g..4g+3} (-1)^(sR[k] ^ sW[k]) mR[k] mW[k] 2^(E1_16R[g] + E1_16W[g])
// with R the decompressed residual, the dense products written from hif4.md section 1.4 (the
// per-element decode of ref_hif4_dot.sv without the E1_8 bits and the E6M2 scales, which are
// per group and per unit and the same fields on both sides). So the tail contract of the sparse
// unit (sp.tail) and the dense HiF4 dot (hif4.s6_tail, ref_hif4_dot) give the same sum for
// these inputs. Equal indices (two values at one position) decompress to no dense unit; the
// unit then adds both products, as the select-and-multiply definition says (sp.front).
module sp_decomp_case (
  input logic [223:0] r,
  input logic [287:0] w
);
  logic [32*9-1:0] prod;
  logic [15:0]     e18;
  logic [14:0]     side;
  logic signed [9:0] x_wide;
  ref_sp_front front (.r, .w, .prod, .e18, .side, .x_wide);

  // per L3 group g (elements 4g..4g+3, slots 2g and 2g+1): the two selected products against the
  // four dense products of the decompressed group. Each L2 group is two L3 groups, so its sums
  // are the sums of these
  always_comb begin
    logic [1:0] i0, i1;
    logic [3:0] code;       // the decompressed residual's element code at 4g + c
    logic [2:0] ma, mb;
    logic signed [15:0] gs, gd, p;
    for (int g = 0; g < 16; g++) begin
      i0 = r[160 + 2*(2*g) +: 2];
      i1 = r[160 + 2*(2*g + 1) +: 2];
      gs = 16'($signed(prod[9*(2*g) +: 9])) + 16'($signed(prod[9*(2*g + 1) +: 9]));
      gd = '0;
      for (int c = 0; c < 4; c++) begin
        code = (i0 == 2'(c)) ? r[32 + 4*(2*g) +: 4] : (i1 == 2'(c)) ? r[32 + 4*(2*g + 1) +: 4] : 4'h0;
        ma = code[2:0];
        mb = w[32 + 4*(4*g + c) +: 3];
        p  = 16'(ma * mb) << (2'(r[16 + g]) + 2'(w[16 + g]));
        gd = (code[3] ^ w[32 + 4*(4*g + c) + 3]) ? gd - p : gd + p;
      end
      // (two values at one position decompress to no dense unit)
      assert (i0 == i1 || gs == gd);
    end
  end
endmodule

// The case split. Group g's comparison reads only group g's fields (its two slots, their two
// indices, E1_16r[g], the weight elements 4g..4g+3 and E1_16w[g]), so it holds for every unit
// when it holds, for each ordered pair (a, b) of different indices, for every unit whose
// indices are (a, b) in every group: 12 copies, each with its index fields tied to constants
// and every other bit of r and w free. With free indices (one copy, the per-group sums compared
// directly) ABC gave no answer: 4 CPU-minutes of dprove per L2 group form, 2 of dprove and 36 s
// each of dsat / iprove per L3 group form (the mux in front of each multiplier on one side,
// behind it on the other); with constant indices the selection folds away and the solver is
// left with the decompression, the signs and the sums.
module sp_decomp_lemma (
  input logic [223:0] r,
  input logic [287:0] w
);
  for (genvar a = 0; a < 4; a++) begin : g_a
    for (genvar b = 0; b < 4; b++) begin : g_b
      if (a != b) begin : g_case
        logic [223:0] rc;
        always_comb begin
          rc = r;
          for (int g = 0; g < 16; g++) begin
            rc[160 + 2*(2*g) +: 2]     = 2'(a);
            rc[160 + 2*(2*g + 1) +: 2] = 2'(b);
          end
        end
        sp_decomp_case c (.r(rc), .w);
      end
    end
  end
endmodule
