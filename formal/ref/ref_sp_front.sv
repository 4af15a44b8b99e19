// ref_sp_front: the front end of the 2:4 select-and-multiply unit (docs/datapath.md section 7),
// written from the definition, not from rtl/sparse_residual_add.sv: the compressed residual r
// (Hif4Sparse24: meta word [31:0] as layout (A) of ../shared/reference/hif4.md section 1.5,
// val[j] at [32+4j +: 4], idx[j] at [160+2j +: 2]) against the dense weight unit w (layout (A)):
//   slot j = 0..31 lies in L3 group g = j >> 1 (two kept values per group of 4 elements);
//   its residual value  rv[j] = (-1)^sr[j] * mr[j] * 2^E1_16r[g]
//   its weight element  k = 4g + idx[j],  wv = (-1)^s[k] * m[k] * 2^E1_16w[k >> 2]
//   p[j] = rv[j] * wv (the L1 scales and the E1_8 bits left out: they are per L2 group)
//   e18 = {E1_8w, E1_8r};  SS = (4 + Mr)(4 + Mw);  X = Er + Ew - 104;  nan = either E6M2 is 0xFF
// Products as 9-bit two's complement at prod[9j +: 9] (|p| <= 196), side = {nan, X, SS}.
module ref_sp_front (
  input  logic [223:0]    r,
  input  logic [287:0]    w,
  output logic [32*9-1:0] prod,
  output logic [15:0]     e18,
  output logic [14:0]     side,
  output logic signed [9:0] x_wide   // X before it is cut to 8 bits (for the range check)
);
  always_comb begin
    logic [4:0] vr, vw;    // |rv|, |wv| = m * 2^E1_16 <= 14
    logic [8:0] mag;       // |p| <= 196
    logic [5:0] k;         // the selected weight element
    logic [3:0] wn;        // its nibble
    logic       wl3;       // its E1_16 bit
    for (int j = 0; j < 32; j++) begin
      k   = 6'(4 * (j >> 1)) + 6'(r[160 + 2*j +: 2]);
      vr  = 5'(r[32 + 4*j +: 3]) << r[16 + (j >> 1)];
      // element k read by comparing it with each element of the group (a variable part-select
      // of the 288-bit unit cost Yosys a minute of elaboration)
      wn  = '0;
      wl3 = 1'b0;
      for (int e = 4 * (j >> 1); e < 4 * (j >> 1) + 4; e++)
        if (k == 6'(e)) begin
          wn  = w[32 + 4*e +: 4];
          wl3 = w[16 + (e >> 2)];
        end
      vw  = 5'(wn[2:0]) << wl3;
      mag = 9'(vr * vw);
      prod[9*j +: 9] = (r[32 + 4*j + 3] ^ wn[3]) ? -mag : mag;
    end
    e18    = {w[15:8], r[15:8]};
    x_wide = 10'(r[7:2]) + 10'(w[7:2]) - 10'sd104;
    side[5:0]  = 6'((4 + r[1:0]) * (4 + w[1:0]));
    side[13:6] = 8'(x_wide);
    side[14]   = r[7:0] == 8'hFF || w[7:0] == 8'hFF;
  end
endmodule
