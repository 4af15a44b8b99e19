// hifsim_aligned_dot: the floating-point dot product with hierarchical scale alignment of
// docs/datapath.md sections 4-5, bit-exact with hifsim::dp::aligned_sum (Hif8DotN, Bf16Dot64;
// model/datapath/aligned_dot.cpp). Shared by hif8_dot (FMT = 0) and bf16_dot64 (FMT = 1), which
// only fix the parameters and the port names; see those files for the operand layout.
//
//   s0  decode: element sig * 2^e or NaN / Inf        (hifsim_pkg::hif8_dec / bf16_dec)
//       HiF8 sig 8..15 (4 bits, denormal 8 * 2^(M-26)), e -25..12; BF16 sig 8 bits, e -133..120
//   s1  products psig = sigA * sigB (P = HIF8_PROD_BITS / BF16_PROD_BITS), pexp = eA + eB, kept as the biased
//       u = pexp - PEXP_MIN >= 0; specials: NaN in or Inf x 0 -> NaN, +Inf / -Inf flags
//   s2  Emax = max(u) over the nonzero products: a balanced comparator tree (the hierarchy)
//   s3  window of WW = W + STICKY bits with psig at its top (bits WW-1 .. WW-P), shifted right
//       by gap = Emax - u (clamped to WW): trunc keeps t = floor(psig * 2^(pexp - L)); sticky has
//       one extra bit below the window and ORs "a bit fell off" into it
//   s4  S = sum of +-t                                  WW + log2(N) + 1 bits, two's complement
//   s5  out = RNE_fp32(S * 2^(L - STICKY)), L = Emax + PEXP_MIN + P - W   (hifsim_round_fp32)
//       NaN -> 0x7FC00000; +-Inf; all products zero or S == 0 -> +0
//
// W = 0 is HiF8's exact mode: the window is hifsim_pkg::HIF8_EXACT_W bits, which never drops a
// bit (products span 2^-50 .. 2^32), so it equals the model's unbounded window (W = 0); STICKY is
// then irrelevant and ignored. Supported: HiF8 W = 0 or 8..120, BF16 16..120 (the model's W is at
// most 120; the RTL needs W >= P). BF16 has no exact mode in RTL: its exact window is BF16_EXACT_W bits.
//
// Pipeline: STAGES register ranks (hifsim_pipe_reg) at the cut points after s1, s2, s4 and s5
// (the output register) that hifsim_pkg::aligned_dot_cut selects for each STAGES
// (aligned_dot_stages_ok: the range); both are generated from the unit's description.
// Latency = STAGES cycles, one dot product per cycle, the handshake of hif4_dot64.
module hifsim_aligned_dot #(
  parameter int FMT    = 0,    // 0: HiF8, 1: BF16
  parameter int N      = 64,   // lanes (a power of two, 2..64)
  parameter int W      = 0,    // alignment window (0 = exact, HiF8 only)
  parameter int STICKY = 0,    // 0: trunc, 1: sticky
  parameter int STAGES = 3
) (
  input  logic           clk,
  input  logic           rst_n,
  input  logic           in_valid,
  output logic           in_ready,
  input  logic [N*((FMT != 0) ? 16 : 8)-1:0] a,   // element k at [EW*k +: EW]
  input  logic [N*((FMT != 0) ? 16 : 8)-1:0] b,
  output logic           out_valid,
  input  logic           out_ready,
  output logic [31:0]    out
);
  localparam int EW   = (FMT != 0) ? 16 : 8;                       // element code bits
  localparam int SIGW = (FMT != 0) ? 8 : 4;                        // element significand bits
  localparam int EXPW = (FMT != 0) ? 9 : 6;                        // element exponent bits (signed)
  localparam int P    = 2*SIGW;                                    // product significand bits
  localparam int EMIN = (FMT != 0) ? -133 : -25;                   // lowest element exponent
  localparam int PEXP_MIN = 2*EMIN;                                // lowest product exponent
  localparam int UW   = (FMT != 0) ? 9 : 7;                        // biased product exponent bits (0..506 / 0..74)
  localparam bit EXACT = (W == 0);
  localparam int SB   = EXACT ? 0 : ((STICKY != 0) ? 1 : 0);       // the sticky bit below the window
  localparam int WEFF = EXACT ? hifsim_pkg::HIF8_EXACT_W : W;
  localparam int WW   = WEFF + SB;                                 // aligned term bits
  localparam int GW   = $clog2(WW + 1);                            // clamped gap bits
  localparam int WSUM = WW + $clog2(N) + 1;
  localparam int WL   = 1 + 1 + P + UW;                            // lane: {nonzero, neg, psig, u}
  localparam int WXE  = 11;                                        // LSB exponent, signed
  localparam int WSP  = 3;                                         // {nan, pinf, ninf}

  if (FMT < 0 || FMT > 1) begin : g_bad_fmt
    $error("hifsim_aligned_dot: FMT must be 0 (HiF8) or 1 (BF16)");
  end
  if (N < 2 || N > 64 || (N & (N - 1)) != 0) begin : g_bad_n
    $error("hifsim_aligned_dot: N must be a power of two in 2..64");
  end
  if ((EXACT && FMT != 0) || (!EXACT && (W < P || W > 120))) begin : g_bad_w
    $error("hifsim_aligned_dot: W must be 0 (HiF8 only) or in P..120 (P = 8 for HiF8, 16 for BF16)");
  end
  if (!hifsim_pkg::aligned_dot_stages_ok(STAGES)) begin : g_bad_stages
    $error("hifsim_aligned_dot: STAGES must be in 0..4");
  end

  // Cut points selected by STAGES (see the header): hifsim_pkg::aligned_dot_cut, generated from the unit's
  // description in model/datapath (tests/hw checks the elaborated ranks against it).
  localparam bit CUT_S1 = hifsim_pkg::aligned_dot_cut(STAGES, 1);
  localparam bit CUT_S2 = hifsim_pkg::aligned_dot_cut(STAGES, 2);
  localparam bit CUT_S4 = hifsim_pkg::aligned_dot_cut(STAGES, 3);
  localparam bit CUT_S5 = hifsim_pkg::aligned_dot_cut(STAGES, 4);

  // Element decode in the common form {nan, inf, neg, sig (SIGW), exp (EXPW, signed)}.
  function automatic logic [3+SIGW+EXPW-1:0] dec(input logic [EW-1:0] c);
    if (FMT != 0) dec = (3+SIGW+EXPW)'(hifsim_pkg::bf16_dec(16'(c)));
    else          dec = (3+SIGW+EXPW)'(hifsim_pkg::hif8_dec(8'(c)));
  endfunction

  // ------------------------------------------------------------------------------------
  // Stage 1 (combinational): s0 and s1.
  // ------------------------------------------------------------------------------------
  logic [N*WL-1:0] s1_lane;
  logic [WSP-1:0]  s1_sp;
  always_comb begin
    logic [3+SIGW+EXPW-1:0] da, db;
    logic                   na, nb, ia, ib, sga, sgb, za, zb, num, pnan, pinf, ninf;
    logic [SIGW-1:0]        ga, gb;
    logic [EXPW-1:0]        ea, eb;
    logic [P-1:0]           ps;
    pnan = 1'b0;
    pinf = 1'b0;
    ninf = 1'b0;
    for (int k = 0; k < N; k++) begin
      da = dec(a[EW*k +: EW]);
      db = dec(b[EW*k +: EW]);
      {na, ia, sga, ga, ea} = da;
      {nb, ib, sgb, gb, eb} = db;
      za  = !na && !ia && (ga == '0);
      zb  = !nb && !ib && (gb == '0);
      num = !na && !nb && !ia && !ib;
      if (na || nb || (ia && zb) || (ib && za)) pnan = 1'b1;
      else if (ia || ib) begin
        if (sga ^ sgb) ninf = 1'b1;
        else           pinf = 1'b1;
      end
      ps = {{SIGW{1'b0}}, ga} * {{SIGW{1'b0}}, gb};
      // u = eA + eB - 2*EMIN (>= 0)
      s1_lane[WL*k +: WL] = {num && (ps != '0), sga ^ sgb, ps,
                             UW'({{(UW-EXPW){ea[EXPW-1]}}, ea} + {{(UW-EXPW){eb[EXPW-1]}}, eb} - UW'(PEXP_MIN))};
    end
    s1_sp = {pnan, pinf, ninf};
  end

  localparam int W_C1 = WSP + N*WL;
  logic            c1_valid, c1_ready;
  logic [W_C1-1:0] c1_data;
  hifsim_pipe_reg #(.W(W_C1), .EN(CUT_S1)) u_cut_s1 (
    .clk, .rst_n,
    .up_valid(in_valid), .up_ready(in_ready), .up_data({s1_sp, s1_lane}),
    .dn_valid(c1_valid), .dn_ready(c1_ready), .dn_data(c1_data)
  );

  // ------------------------------------------------------------------------------------
  // Stage 2 (combinational): s2, Emax over the nonzero products (balanced comparator tree).
  // ------------------------------------------------------------------------------------
  logic [UW:0] s2_emax;  // {any nonzero product, Emax (biased)}
  always_comb begin
    logic [UW:0] nd [2*N-1];  // node i = max(node 2i+1, node 2i+2); leaves N-1 .. 2N-2
    logic [WL-1:0] ln;
    for (int k = 0; k < N; k++) begin
      ln = c1_data[WL*k +: WL];
      nd[N-1+k] = ln[WL-1] ? {1'b1, ln[UW-1:0]} : '0;
    end
    for (int i = N-2; i >= 0; i--) begin
      nd[i] = (nd[2*i+2] > nd[2*i+1]) ? nd[2*i+2] : nd[2*i+1];
    end
    s2_emax = nd[0];
  end

  localparam int W_C2 = W_C1 + UW + 1;
  logic            c2_valid, c2_ready;
  logic [W_C2-1:0] c2_data;
  hifsim_pipe_reg #(.W(W_C2), .EN(CUT_S2)) u_cut_s2 (
    .clk, .rst_n,
    .up_valid(c1_valid), .up_ready(c1_ready),
    .up_data({s2_emax, c1_data}),
    .dn_valid(c2_valid), .dn_ready(c2_ready), .dn_data(c2_data)
  );

  // ------------------------------------------------------------------------------------
  // Stage 3 (combinational): s3 alignment into the window and s4 the sum.
  // ------------------------------------------------------------------------------------
  logic [WSUM-1:0] s4_sum;
  logic [WXE-1:0]  s4_lsb;
  always_comb begin
    logic [UW-1:0]   emax, gap;
    logic [WL-1:0]   ln;
    logic [P-1:0]    ps;
    logic [GW-1:0]   g;
    logic [WW-1:0]   v, t;
    logic [GW-1:0]   ndrop;   // psig bits shifted out of the window (0..P)
    logic            dropped;
    logic [WSUM-1:0] sum, term;
    emax = c2_data[W_C1 +: UW];
    sum  = '0;
    for (int k = 0; k < N; k++) begin
      ln  = c2_data[WL*k +: WL];
      ps  = ln[UW +: P];
      gap = emax - ln[UW-1:0];
      g   = (gap >= UW'(WW)) ? GW'(WW) : GW'(gap);
      v   = WW'(ps) << (WW - P);
      t   = v >> g;
      ndrop = (g > GW'(WW - P)) ? GW'(g - GW'(WW - P)) : '0;
      dropped = (ps & ~({P{1'b1}} << ndrop)) != '0;
      if (SB != 0) t[0] = t[0] | dropped;
      // One adder per lane fed with +-t (a conditional negate), not an adder and a subtractor
      // behind a mux: half the area (docs/cost.md, hif8/bf16 area fit).
      term = WSUM'(t);
      if (ln[WL-2]) term = -term;
      if (ln[WL-1]) sum = sum + term;
    end
    s4_sum = c2_data[W_C2-1] ? sum : '0;
    // L - SB = Emax + PEXP_MIN + P - WEFF - SB
    s4_lsb = WXE'({{(WXE-UW){1'b0}}, emax} + WXE'(PEXP_MIN + P - WW));
  end

  localparam int W_C4 = WSP + WXE + WSUM;
  logic            c4_valid, c4_ready;
  logic [W_C4-1:0] c4_data;
  hifsim_pipe_reg #(.W(W_C4), .EN(CUT_S4)) u_cut_s4 (
    .clk, .rst_n,
    .up_valid(c2_valid), .up_ready(c2_ready),
    .up_data({c2_data[W_C1-1 -: WSP], s4_lsb, s4_sum}),
    .dn_valid(c4_valid), .dn_ready(c4_ready), .dn_data(c4_data)
  );

  // ------------------------------------------------------------------------------------
  // Stage 4 (combinational): s5, the single rounding and the specials.
  // ------------------------------------------------------------------------------------
  logic [31:0] s5_round, s5_out;
  hifsim_round_fp32 #(.WS(WSUM), .WE(WXE)) u_round (
    .sum(c4_data[WSUM-1:0]), .lsb_exp(c4_data[WSUM +: WXE]), .out(s5_round)
  );
  always_comb begin
    logic nan, pinf, ninf;
    {nan, pinf, ninf} = c4_data[W_C4-1 -: WSP];
    if (nan || (pinf && ninf)) s5_out = hifsim_pkg::FP32_QNAN;
    else if (pinf)             s5_out = hifsim_pkg::FP32_POS_INF;
    else if (ninf)             s5_out = {1'b1, hifsim_pkg::FP32_POS_INF[30:0]};
    else                       s5_out = s5_round;
  end

  hifsim_pipe_reg #(.W(32), .EN(CUT_S5)) u_cut_s5 (
    .clk, .rst_n,
    .up_valid(c4_valid), .up_ready(c4_ready), .up_data(s5_out),
    .dn_valid(out_valid), .dn_ready(out_ready), .dn_data(out)
  );
endmodule
