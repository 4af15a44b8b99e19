// ref_aligned_dot: the formal reference of the dot products with hierarchical alignment (hif8_dot,
// bf16_dot64), written from docs/datapath.md sections 4-5 and the element formats (HiF8:
// docs/formats.md section 2; BF16: the upper half of IEEE binary32), not from the RTL.
//
// The definition, with every element a value sig * 2^e (datapath.md s0):
//   HiF8  normal 2^E (1 + M / 2^mw) as sig = 8 + M * 2^(3 - mw) (8..15), e = E - 3;
//         denormal 2^(M - 23) as sig = 8, e = M - 26; zero 0x00; NaN 0x80; Inf 0x6F / 0xEF
//   BF16  normal (128 + f) 2^(x - 134), subnormal f 2^-133; x = 255: Inf (f = 0) or NaN (its sig
//         and e, outside the contract, are the normal formula's)
//   s1  psig = sigA sigB (P = 8 / 16 bits), pexp = eA + eB
//   s2  Emax = max(pexp + P) over the nonzero (finite) products
//   s3  L = Emax - W; trunc t = floor(psig 2^(pexp - L)); sticky t = floor(psig 2^(pexp - L + 1)),
//       its lsb ORed with "a nonzero bit lies below 2^(L - 1)"
//   s4  S = sum of the nonzero products' +-t
//   s5  out = RNE_fp32(S 2^L) (sticky: S 2^(L - 1)): ref_round; S = 0 -> +0
//   specials: a NaN element, or Inf x 0 -> NaN; +Inf and -Inf products both -> NaN; else an
//   infinite product's sign gives +-Inf (datapath.md, "Specials"); NaN = 0x7FC00000.
//
// Two modules split at the stage contract s2 -> s3 (docs/datapath.md: the hardware keeps the
// product exponent biased, u = pexp - 2 EMIN >= 0, EMIN = -25 HiF8 / -133 BF16), so that a formal
// job can check the unit's two halves separately (formal/aligned/aligned_miter.sv). The contract,
// packed as c2 = {any, E, nan, pinf, ninf, lane[N-1], ..., lane[0]}, lane = {nz, neg, psig, u}:
//   nz = the product is finite and nonzero; for those lanes neg, psig, u = pexp - 2 EMIN;
//   any = some lane has nz; then E = max u over those lanes (so Emax = E + 2 EMIN + P).
// The other lanes' neg / psig / u are not part of the contract (the tail must ignore them).
package ref_aligned_pkg;
  // One element: {nan, inf, neg, sig (8 bits; HiF8 uses 4), e (10-bit signed)}
  function automatic logic [20:0] hif8_elem(input logic [7:0] c);
    logic [6:0] m;
    int d, mw, tail_bits, emag, ebits;
    logic eneg;
    logic [2:0] mant;
    logic [7:0] sig;
    int e;
    m = c[6:0];
    // the prefix after the sign selects D (formats.md section 2 table)
    if (m[6:5] == 2'b11)      d = 4;
    else if (m[6:5] == 2'b10) d = 3;
    else if (m[6:5] == 2'b01) d = 2;
    else if (m[6:4] == 3'b001) d = 1;
    else if (m[6:3] == 4'b0001) d = 0;
    else d = -1;  // 0000: denormal
    mw = (d >= 2) ? 5 - d : 3;         // mantissa bits: 1, 2, 3, 3, 3
    // Em: the D bits above M; first = exponent sign, the other D-1 = low bits of |E|
    ebits = 0; eneg = 1'b0; tail_bits = 0; emag = 0;
    if (d >= 1) begin
      ebits = (32'(m) >> mw) & ((1 << d) - 1);
      eneg = ((ebits >> (d - 1)) & 1) != 0;
      tail_bits = ebits & ((1 << (d - 1)) - 1);
      emag = (1 << (d - 1)) + tail_bits;   // |E| = 2^(D-1) + tail
    end
    mant = 3'(32'(m) & ((1 << mw) - 1));
    if (d >= 0) begin
      sig = 8'(8 + (32'(mant) << (3 - mw)));
      e = (eneg ? -emag : emag) - 3;
    end else begin
      sig = (mant != 0) ? 8'd8 : 8'd0;    // 2^(M-23) = 8 x 2^(M-26); M = 0: zero (or NaN)
      e = 32'(mant) - 26;
    end
    hif8_elem = {c == 8'h80, m == 7'h6F, c[7], sig, 10'(e)};
  endfunction

  function automatic logic [20:0] bf16_elem(input logic [15:0] c);
    logic [7:0] x;
    logic [6:0] f;
    x = c[14:7];
    f = c[6:0];
    // x = 255 (Inf, NaN): sig and e lie outside the contract (nz excludes every product with a
    // non-finite factor, the flags carry them); they take the normal formula's values so that a
    // lane's product is one formula of the fields whatever x is (not the 0 written before, which
    // made the 64 products of al.bf.*.front differ from the unit's on those lanes, unmergeable)
    if (x == 8'h00) bf16_elem = {2'b00, c[15], {1'b0, f}, 10'(-133)};
    else                 bf16_elem = {x == 8'hFF && f != 0, x == 8'hFF && f == 0, c[15], {1'b1, f}, 10'(32'(x) - 134)};
  endfunction
endpackage

module ref_aligned_front #(
  parameter int FMT = 0,   // 0 HiF8, 1 BF16
  parameter int N   = 16,
  // Emax: 0 = one scan in element order; 1 = pairwise maxima of neighbours, then of their pairs
  // (a balanced tree; max is associative and commutative, so the same value). SAT sweeping finds
  // no common internal node between a 64-lane scan and the unit's comparator tree (al.bf.*.front
  // did not close in 5 CPU-minutes with the scan); with the tree each level's maxima are shared.
  parameter int EMAX_TREE = 0
) (
  input  logic [N*((FMT != 0) ? 16 : 8)-1:0] a,
  input  logic [N*((FMT != 0) ? 16 : 8)-1:0] b,
  // the contract c2 (see the header)
  output logic [N-1:0]       nz,
  output logic [N-1:0]       neg,
  output logic [N*16-1:0]    psig,     // lane k at [16k +: 16] (HiF8 uses the low 8 bits)
  output logic [N*10-1:0]    u,        // pexp - 2 EMIN
  output logic               any,
  output logic [9:0]         e_max,    // max u over nz lanes (0 when none)
  output logic               nan,
  output logic               pinf,
  output logic               ninf
);
  localparam int EW   = (FMT != 0) ? 16 : 8;
  localparam int EMIN = (FMT != 0) ? -133 : -25;
  always_comb begin
    logic [20:0] da, db;
    logic        za, zb, fa, fb;
    logic [15:0] p;
    int          pe;
    nan = 1'b0; pinf = 1'b0; ninf = 1'b0; any = 1'b0; e_max = '0;
    for (int k = 0; k < N; k++) begin
      if (FMT != 0) begin
        da = ref_aligned_pkg::bf16_elem(a[EW*k +: 16]);
        db = ref_aligned_pkg::bf16_elem(b[EW*k +: 16]);
      end else begin
        da = ref_aligned_pkg::hif8_elem(a[EW*k +: 8]);
        db = ref_aligned_pkg::hif8_elem(b[EW*k +: 8]);
      end
      fa = !da[20] && !da[19];
      fb = !db[20] && !db[19];
      za = fa && da[17:10] == 0;
      zb = fb && db[17:10] == 0;
      // specials of the product (IEEE 754 7.2: Inf x 0 invalid)
      if (da[20] || db[20] || (da[19] && zb) || (db[19] && za)) nan = 1'b1;
      else if (da[19] || db[19]) begin
        if (da[18] != db[18]) ninf = 1'b1; else pinf = 1'b1;
      end
      p  = 16'(da[17:10]) * 16'(db[17:10]);
      pe = $signed(da[9:0]) + $signed(db[9:0]);
      nz[k]   = fa && fb && p != 0;
      neg[k]  = da[18] ^ db[18];
      psig[16*k +: 16] = p;
      u[10*k +: 10] = 10'(pe - 2 * EMIN);
      // Emax over the nonzero products, in element order (the unit: a comparator tree)
      if (nz[k] && (!any || 10'(pe - 2 * EMIN) > e_max)) e_max = 10'(pe - 2 * EMIN);
      if (nz[k]) any = 1'b1;
    end
    if (EMAX_TREE != 0) begin
      logic [10:0] v [N];   // {nz, u}: a lane without a nonzero product never wins
      logic [10:0] x, y;
      // a lane without a nonzero product enters as {0, 0} ("none"), so that every node of the tree
      // is a function of the nz lanes alone (with u kept there, a node's value for "none" depended
      // on the u of products outside the contract and no node matched the unit's)
      for (int k = 0; k < N; k++) v[k] = nz[k] ? {1'b1, u[10*k +: 10]} : 11'd0;
      for (int w = N; w > 1; w = w / 2) begin
        for (int j = 0; j < w / 2; j++) begin
          x = v[2*j];
          y = v[2*j+1];
          if (!x[10])                 v[j] = y;
          else if (!y[10])            v[j] = x;
          else if (y[9:0] > x[9:0])   v[j] = y;
          else                        v[j] = x;
        end
      end
      e_max = v[0][10] ? v[0][9:0] : 10'd0;
    end
  end
endmodule

module ref_aligned_tail #(
  parameter int FMT    = 0,
  parameter int N      = 16,
  parameter int W      = 24,   // the window (HiF8 exact mode: its 82-bit window, see the miter)
  parameter int STICKY = 0
) (
  input  logic [N-1:0]    nz,
  input  logic [N-1:0]    neg,
  input  logic [N*16-1:0] psig,
  input  logic [N*10-1:0] u,
  input  logic [9:0]      e_max,   // the contract: max u over the nz lanes (when any)
  input  logic            nan,
  input  logic            pinf,
  input  logic            ninf,
  output logic [31:0]     out
);
  localparam int P    = (FMT != 0) ? 16 : 8;
  localparam int EMIN = (FMT != 0) ? -133 : -25;
  localparam int SB   = (STICKY != 0) ? 1 : 0;
  localparam int TW   = W + SB;                      // |t| < 2^(W + SB): psig < 2^P, pexp + P <= Emax
  localparam int WS   = TW + $clog2(N) + 1;          // |S| <= N (2^TW - 1), signed
  logic signed [WS-1:0] s;
  logic signed [11:0]   lsb;
  logic [31:0]          rounded;
  always_comb begin
    int          lsb_int, k_sh;     // L - SB; the scale of lane k: t = floor(psig 2^k_sh)
    logic [TW+P-1:0] t;
    logic [P-1:0]    ps;
    logic            dropped;
    // Emax = e_max + 2 EMIN + P, L = Emax - W
    lsb_int = 32'(e_max) + 2 * EMIN + P - W - SB;
    s = '0;
    for (int k = 0; k < N; k++) begin
      ps = P'(psig[16*k +: 16]);
      // pexp - (L - SB) = u + 2 EMIN - lsb_int
      k_sh = 32'(u[10*k +: 10]) + 2 * EMIN - lsb_int;
      if (k_sh >= 0) begin
        t = (TW+P)'(ps) << k_sh;
        dropped = 1'b0;
      end else if (k_sh > -P) begin
        t = (TW+P)'(ps >> (-k_sh));
        dropped = (ps & P'((1 << (-k_sh)) - 1)) != 0;
      end else begin
        t = '0;
        dropped = ps != 0;
      end
      if (SB != 0) t[0] = t[0] | dropped;
      if (nz[k]) s = s + (neg[k] ? -$signed(WS'(t)) : $signed(WS'(t)));
    end
    lsb = 12'(lsb_int);
  end
  ref_round #(.WS(WS), .WE(12), .P(24), .RZ(0)) u_round (.sum(s), .lsb_exp(lsb), .out(rounded));
  always_comb begin
    if (nan || (pinf && ninf)) out = 32'h7FC0_0000;
    else if (pinf)             out = 32'h7F80_0000;
    else if (ninf)             out = 32'hFF80_0000;
    else                       out = rounded;
  end
endmodule
