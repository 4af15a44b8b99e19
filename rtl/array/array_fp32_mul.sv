// array_fp32_mul: IEEE 754 binary32 multiplication, round to nearest even, subnormal inputs and
// results (no flush), as C++ `float * float` computes it -- the NVFP4 epilogue of the calibration
// matrix unit: C = fl(acc * fl(scale_A * scale_B)) (dp::epilogue, model/gemm/gemm.cpp).
// NaN results are the canonical 0x7FC00000 (the epilogue canonicalises NaN anyway).
//   p = sig_a * sig_b (48 bits), value = p * 2^(ea + eb - 46); t = index of p's leading one;
//   biased exponent e = ea + eb - 46 + t + 127. Normal (e >= 1): keep p[t -: 24], round at
//   p[t - 24] with the bits below as sticky; subnormal (e < 1): shift right by 1 - e more. A
//   rounding carry moves into the exponent field (to the smallest normal, or e + 1; e >= 255: Inf).
// Combinational.
module array_fp32_mul (
  input  logic [31:0] a,
  input  logic [31:0] b,
  output logic [31:0] r
);
  always_comb begin
    logic        sa, sb, s, nan_a, nan_b, inf_a, inf_b, zero_a, zero_b, guard, sticky;
    logic [23:0] ma, mb;
    logic [47:0] p;
    logic [95:0] wide;      // p << 48, shifted right: integer part in [95:48], fraction below
    int          ea, eb, t, e, sh;
    logic [24:0] q;         // the kept significand (+ a possible rounding carry)
    sa = a[31];
    sb = b[31];
    s = sa ^ sb;
    nan_a = a[30:23] == 8'hFF && a[22:0] != 23'd0;
    nan_b = b[30:23] == 8'hFF && b[22:0] != 23'd0;
    inf_a = a[30:23] == 8'hFF && a[22:0] == 23'd0;
    inf_b = b[30:23] == 8'hFF && b[22:0] == 23'd0;
    zero_a = a[30:0] == 31'd0;
    zero_b = b[30:0] == 31'd0;
    ma = {a[30:23] != 8'd0, a[22:0]};
    mb = {b[30:23] != 8'd0, b[22:0]};
    ea = (a[30:23] != 8'd0 ? 32'(a[30:23]) : 1) - 127;
    eb = (b[30:23] != 8'd0 ? 32'(b[30:23]) : 1) - 127;
    p = 48'(ma) * 48'(mb);
    t = 0;
    for (int i = 0; i < 48; i++) if (p[i]) t = i;
    e = ea + eb - 46 + t + 127;
    // Shift p right so that its kept bits are q: normal keeps t - 23 bits off, subnormal 1 - e more.
    sh = (e >= 1) ? t - 23 : t - 23 + (1 - e);
    wide = {p, 48'd0};
    if (sh >= 0) wide = (sh > 72) ? 96'd0 | {95'd0, p != 48'd0} : wide >> sh;
    else         wide = wide << (-sh);
    q = 25'(wide[95:48]);
    guard  = wide[47];
    sticky = wide[46:0] != 47'd0 || (sh > 72 && p != 48'd0);
    if (guard && (sticky || q[0])) q = q + 25'd1;
    if (nan_a || nan_b || (inf_a && zero_b) || (zero_a && inf_b)) r = 32'h7FC0_0000;
    else if (inf_a || inf_b)                                    r = {s, 8'hFF, 23'd0};
    else if (zero_a || zero_b)                                  r = {s, 31'd0};
    else if (e >= 1) begin
      if (q[24]) begin  // rounded up to 2^24: one more binade
        e = e + 1;
        q = 25'h0800000;
      end
      r = (e >= 255) ? {s, 8'hFF, 23'd0} : {s, 8'(e), q[22:0]};
    end else begin
      // subnormal: q < 2^23, or exactly 2^23 after rounding = the smallest normal (exponent field 1)
      r = {s, 8'(q[23]), q[22:0]};
    end
  end
endmodule
