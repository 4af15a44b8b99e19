// aligned_miter: hif8_dot (FMT = 0) or bf16_dot64 (FMT = 1) at STAGES = 0 (the datapath; the
// other depths are the same logic with register ranks between, covered by ctrl.hif8_dot.* /
// ctrl.bf16_dot64.*) against formal/ref/ref_aligned_dot.sv, whole or split at the stage
// contract s2 -> s3, the unit's c2_data = {any, E, nan, pinf, ninf, lane[N-1..0]},
// lane = {nz, neg, psig, u} (docs/datapath.md sections 4-5; the contract is written out in
// ref_aligned_dot.sv):
//   PART = 0  the whole unit: out = ref_aligned_tail(ref_aligned_front(a, b)) for every a, b
//   PART = 1  the front (decode, products, specials, Emax): the unit's c2_data, read through
//             `tap` (formal/jobs.py connects it to the unit's c2_data after flattening), meets the
//             contract with the values of ref_aligned_front for every a, b: the flags, the nz bits,
//             any, and for the nz lanes neg, psig, u; E = the reference's max when any
//   PART = 2  the tail (alignment, sticky, sum, window LSB, rounding, specials): the unit's
//             c2_data cut and driven by c2x (jobs.py); out = ref_aligned_tail(c2x) for EVERY
//             c2x with any = OR of the nz bits and E >= u of every nz lane (c2x is built from the
//             free input c2 so that this holds: see below). That contains every c2_data of the
//             contract's shape (E = the maximum); the lanes that are not nz (their neg, psig, u,
//             u above E included), the flags, every psig of the field width and E without a nz
//             lane are free: the tail must ignore or handle them.
// PART 1 and PART 2 together give PART 0: the output depends on c2_data alone; PART 1 proves
// c2_data = the reference front's contract values, which have the contract's shape (E is their
// maximum), and PART 2 proves the output equal to the reference tail for every such c2_data.
// W = 0 (HiF8 exact): the reference window is 82 bits (docs/datapath.md: products span
// 2^-50 .. 2^32, so Emax - 82 <= -50 <= every pexp and no bit is ever dropped).
module aligned_miter #(
  parameter int FMT    = 0,
  parameter int N      = 16,
  parameter int W      = 24,
  parameter int STICKY = 0,
  parameter int PART   = 0,
  parameter int EMAX_TREE = 0,  // the reference front's Emax as a balanced tree (ref_aligned_dot.sv)
  // PART 2: 1 = every lane clamped (u := min(u, E) also where nz is 0), the smaller domain on which
  // each lane's aligned term is the same function on both sides (SAT sweeping merges it lane by
  // lane); PARTs 3 and 4 show that the lanes outside nz do not matter, see below
  parameter int CLAMP_ALL = 0,
  // PART 2: 1 = compare the unit's s4 result (c4_data: flags, window LSB exponent, sum), read
  // through tap4 / tap_s / tap_l (jobs.py), with the reference tail's flags, L - SB and S, not the
  // output: the tail without the rounding, which the round.ws* job of that width proves
  parameter int SUM_TAP = 0
) (
  input logic [N*((FMT != 0) ? 16 : 8)-1:0] a,
  input logic [N*((FMT != 0) ? 16 : 8)-1:0] b,
  input logic [3 + N*((FMT != 0) ? 27 : 17) + ((FMT != 0) ? 10 : 8) - 1:0] c2
);
  localparam int P    = (FMT != 0) ? 16 : 8;
  localparam int UW   = (FMT != 0) ? 9 : 7;          // the unit's biased-exponent field
  localparam int WL   = 2 + P + UW;
  localparam int W_C1 = 3 + N * WL;
  localparam int W_C2 = W_C1 + UW + 1;
  localparam int WREF = (W == 0) ? 82 : W;
  localparam int SREF = (W == 0) ? 0 : STICKY;

  logic [31:0]     out_rtl, out_ref;
  logic [W_C2-1:0] tap;   // PART 1: driven by the unit's c2_data (formal/jobs.py)
  logic in_ready, out_valid;
  if (FMT != 0) begin : g_bf16
    bf16_dot64 #(.W(W), .STICKY(STICKY), .STAGES(0)) dut (
      .clk(1'b0), .rst_n(1'b1), .in_valid(1'b1), .in_ready, .a, .b, .out_valid, .out_ready(1'b1),
      .out(out_rtl));
  end else begin : g_hif8
    hif8_dot #(.N(N), .W(W), .STICKY(STICKY), .STAGES(0)) dut (
      .clk(1'b0), .rst_n(1'b1), .in_valid(1'b1), .in_ready, .a, .b, .out_valid, .out_ready(1'b1),
      .out(out_rtl));
  end

  // the contract as the reference modules take it
  logic [N-1:0]    nz, neg;
  logic [N*16-1:0] psig;
  logic [N*10-1:0] u;
  logic            any, nan, pinf, ninf;
  logic [9:0]      e_max;

  // PART 2: the cut c2_data is driven by c2x, built from the free input c2 so that the domain
  // holds by construction (no constraint in the AIG, so `&fraig -x` can merge the two sides):
  // any := OR of the nz bits; the u of a nz lane := min(u, E). So E >= u of every nz lane: E is
  // at least their maximum, not necessarily equal to it (a larger domain than the contract's).
  logic [W_C2-1:0] c2x;
  always_comb begin
    logic [WL-1:0] ln;
    logic [UW-1:0] e;
    e = c2[W_C1 +: UW];
    c2x = c2;
    c2x[W_C2-1] = 1'b0;
    for (int k = 0; k < N; k++) begin
      ln = c2[WL*k +: WL];
      c2x[W_C2-1] = c2x[W_C2-1] | ln[WL-1];
      if ((ln[WL-1] || CLAMP_ALL != 0) && ln[UW-1:0] > e) c2x[WL*k +: UW] = e;
    end
  end
  // c2y: c2x with every lane clamped (the domain of PART 2 with CLAMP_ALL = 1). It differs from
  // c2x only in the u of lanes whose nz is 0 and whose u is above E.
  logic [W_C2-1:0] c2y;
  always_comb begin
    c2y = c2x;
    for (int k = 0; k < N; k++)
      if (c2x[WL*k +: UW] > c2x[W_C1 +: UW]) c2y[WL*k +: UW] = c2x[W_C1 +: UW];
  end
  // PART 3 (the unit alone): a second copy of the unit, its c2_data cut and driven by c2y
  // (jobs.py); out(c2x) = out(c2y) for every c2: the unit's tail does not read the u of a lane
  // whose nz is 0 (beyond E). PART 4 (the reference alone): the same for ref_aligned_tail. With
  // these, PART 2 at CLAMP_ALL = 1 gives PART 2's statement: unit(c2x) = unit(c2y) = ref(c2y) =
  // ref(c2x), c2y being the clamped c2x (in PART 2's CLAMP_ALL domain, built from the free c2).
  logic [31:0] out_rtl2;
  if (PART == 3) begin : g_rtl_lemma
    logic in_ready2, out_valid2;
    bf16_dot64 #(.W(W), .STICKY(STICKY), .STAGES(0)) dut2 (
      .clk(1'b0), .rst_n(1'b1), .in_valid(1'b1), .in_ready(in_ready2), .a, .b, .out_valid(out_valid2),
      .out_ready(1'b1), .out(out_rtl2));
    if (FMT == 0) begin : g_fmt
      $error("aligned_miter: PART 3 is written for bf16_dot64 (FMT = 1)");
    end
    always_comb assert (out_rtl == out_rtl2);
  end
  if (PART == 4) begin : g_ref_lemma
    logic [31:0] o1, o2;
    logic [N-1:0]    nz1, neg1, nz2, neg2;
    logic [N*16-1:0] ps1, ps2;
    logic [N*10-1:0] u1, u2;
    always_comb begin
      logic [WL-1:0] l1, l2;
      for (int k = 0; k < N; k++) begin
        l1 = c2x[WL*k +: WL];
        l2 = c2y[WL*k +: WL];
        {nz1[k], neg1[k]} = l1[WL-1 -: 2];
        {nz2[k], neg2[k]} = l2[WL-1 -: 2];
        ps1[16*k +: 16] = 16'(l1[UW +: P]);
        ps2[16*k +: 16] = 16'(l2[UW +: P]);
        u1[10*k +: 10]  = 10'(l1[UW-1:0]);
        u2[10*k +: 10]  = 10'(l2[UW-1:0]);
      end
    end
    ref_aligned_tail #(.FMT(FMT), .N(N), .W(WREF), .STICKY(SREF)) t1 (
      .nz(nz1), .neg(neg1), .psig(ps1), .u(u1), .e_max(10'(c2x[W_C1 +: UW])),
      .nan(c2x[W_C1-1]), .pinf(c2x[W_C1-2]), .ninf(c2x[W_C1-3]), .out(o1));
    ref_aligned_tail #(.FMT(FMT), .N(N), .W(WREF), .STICKY(SREF)) t2 (
      .nz(nz2), .neg(neg2), .psig(ps2), .u(u2), .e_max(10'(c2y[W_C1 +: UW])),
      .nan(c2y[W_C1-1]), .pinf(c2y[W_C1-2]), .ninf(c2y[W_C1-3]), .out(o2));
    always_comb assert (o1 == o2);
  end
  if (PART == 2) begin : g_tail
    always_comb begin
      logic [WL-1:0] ln;
      for (int k = 0; k < N; k++) begin
        ln = c2x[WL*k +: WL];
        nz[k]  = ln[WL-1];
        neg[k] = ln[WL-2];
        psig[16*k +: 16] = 16'(ln[UW +: P]);
        u[10*k +: 10]    = 10'(ln[UW-1:0]);
      end
      {nan, pinf, ninf} = c2x[W_C1-1 -: 3];
      e_max = 10'(c2x[W_C1 +: UW]);
      any   = c2x[W_C2-1];
    end
    ref_aligned_tail #(.FMT(FMT), .N(N), .W(WREF), .STICKY(SREF)) ref_tail (
      .nz, .neg, .psig, .u, .e_max, .nan, .pinf, .ninf, .out(out_ref));
    if (SUM_TAP != 0) begin : g_sum
      localparam int WSUM = WREF + SREF + $clog2(N) + 1;   // the unit's and the reference's S
      logic [3+11+WSUM-1:0] tap4;   // := the unit's c4_data {nan, pinf, ninf, lsb (11), sum}
      logic [WSUM-1:0]      tap_s;  // := ref_tail.s
      logic [11:0]          tap_l;  // := ref_tail.lsb
      always_comb assert (tap4[WSUM-1:0] == tap_s && {tap4[WSUM+10], tap4[WSUM +: 11]} == tap_l
                          && tap4[WSUM+11 +: 3] == {nan, pinf, ninf});
    end else begin : g_out
      always_comb assert (out_rtl == out_ref);
    end
  end else if (PART <= 1) begin : g_front_or_whole
    ref_aligned_front #(.FMT(FMT), .N(N), .EMAX_TREE(EMAX_TREE)) ref_front (
      .a, .b, .nz, .neg, .psig, .u, .any, .e_max, .nan, .pinf, .ninf);
    if (PART == 0) begin : g_whole
      ref_aligned_tail #(.FMT(FMT), .N(N), .W(WREF), .STICKY(SREF)) ref_tail (
        .nz, .neg, .psig, .u, .e_max, .nan, .pinf, .ninf, .out(out_ref));
      always_comb assert (out_rtl == out_ref);
    end else begin : g_front
      always_comb begin
        logic [WL-1:0] ln;
        logic ok;
        ok = tap[W_C1-1 -: 3] == {nan, pinf, ninf} && tap[W_C2-1] == any;
        // E (UW bits) = the reference maximum, which fits the field
        if (any && (e_max >> UW) != 0) ok = 1'b0;
        if (any && tap[W_C1 +: UW] != UW'(e_max)) ok = 1'b0;
        for (int k = 0; k < N; k++) begin
          ln = tap[WL*k +: WL];
          if (ln[WL-1] != nz[k]) ok = 1'b0;
          if (nz[k] && (ln[WL-2] != neg[k] || ln[UW +: P] != P'(psig[16*k +: 16])
                        || (u[10*k +: 10] >> UW) != 0 || ln[UW-1:0] != UW'(u[10*k +: 10]))) ok = 1'b0;
          // HiF8 exact mode: the 82-bit window drops no bit of any product the front gives
          // (pexp - L = W - P - (E - u) >= 0), so the reference tail is the exact sum rounded once
          if (W == 0 && nz[k] && e_max - u[10*k +: 10] > 10'(WREF - P)) ok = 1'b0;
        end
        assert (ok);
      end
    end
  end
endmodule
