// sr_quantizer: the stochastic-rounding element quantizer, bit-exact with hifsim::dp::SrQuantizer
// (model/datapath/sr_quantizer.cpp; docs/training.md "Stochastic rounding"): 16 scaled FP32
// elements -> 16 four-bit codes, element k rounded up (away from zero) iff T + r >= 2^B, r its
// B = SR_BITS random bits from the Threefry-2x32-20 stream built here.
//   FMT = 0  NVFP4 E2M1 codes (satfinite; NaN -> signed 0)     1: HiF4 S1P2 (4|y| to 0..7)
//         2  MXFP4 E2M1 codes: FMT 0's path, but Inf and NaN -> code 0 (an MX block with a special
//            has scale NaN and every code 0; its elements times the NaN scale's reciprocal are NaN)
//   SR_BITS  B, 1..32: L = floor(64 / B) elements per Threefry word
// The block scale (and the multiplication by its reciprocal) is the round-to-nearest quantizer's:
// stochastic rounding never changes a scale, so this unit replaces only the element rounding.
//
// Ports:
//   seed   [63:0]   the key: k0 = seed[31:0], k1 = seed[63:32]
//   stream [31:0]   the tensor's stream id: counter word c1
//   group  [31:0]   element 0's group index; element k has index group * L + lane + k
//   lane   [5:0]    element 0's lane, < L (an address generator steps (group, lane) by 16 with an
//                   adder and a compare: no divider)
//   a      [511:0]  element k at [32k+31:32k]: the FP32 value the format's element rounding takes
//   codes  [63:0]   code k at [4k+3:4k]
//
// Datapath: NW = ((L-1) + 15) div L + 1 Threefry cores (the groups 16 consecutive elements can
// span), core w on counter (group + w, stream); 20 rounds of x0 += x1, x1 = rotl(x1, R) ^ x0 and
// a key injection after every 4 (t1..t5); then per element its word (lane + k) div L, its lane
// (lane + k) mod L, and the rounding: the value over its quantum as a fixed-point F = sig24 << sa
// with 64 fraction bits, I = F[66:64], T = F[63 -: B], up = carry of T + r.
//
// Pipeline: STAGES register ranks (hifsim_pipe_reg) at the cut points after t1..t5 and the output
// (q) that hifsim_pkg::sr_quantizer_cut selects, generated from the unit's description.
module sr_quantizer #(
  parameter int STAGES  = 4,
  parameter int SR_BITS = 8,
  parameter int FMT     = 0
) (
  input  logic         clk,
  input  logic         rst_n,
  input  logic         in_valid,
  output logic         in_ready,
  input  logic [63:0]  seed,
  input  logic [31:0]  stream,
  input  logic [31:0]  group,
  input  logic [5:0]   lane,
  input  logic [511:0] a,
  output logic         out_valid,
  input  logic         out_ready,
  output logic [63:0]  codes
);
  localparam int NE = hifsim_pkg::SRQ_LANES;
  localparam int B  = SR_BITS;
  localparam int L  = 64 / B;
  localparam int NW = (L - 1 + NE - 1) / L + 1;
  localparam int WS = 64 * NW;
  localparam int WA = 32 * NE;
  localparam int WT = WS + 64 + 6 + WA;   // {state, seed, lane, a}
  localparam bit E2M1 = FMT != 1;         // NVFP4 and MXFP4 elements

  if (!hifsim_pkg::sr_quantizer_stages_ok(STAGES)) begin : g_bad_stages
    $error("sr_quantizer: STAGES must be in 0..6");
  end
  if (SR_BITS < 1 || SR_BITS > 32 || FMT < 0 || FMT > 2) begin : g_bad_params
    $error("sr_quantizer: SR_BITS must be in 1..32 and FMT 0, 1 or 2");
  end

  function automatic int rot(input int r);
    case (r % 8)
      0: rot = hifsim_pkg::SRQ_TF_R0;
      1: rot = hifsim_pkg::SRQ_TF_R1;
      2: rot = hifsim_pkg::SRQ_TF_R2;
      3: rot = hifsim_pkg::SRQ_TF_R3;
      4: rot = hifsim_pkg::SRQ_TF_R4;
      5: rot = hifsim_pkg::SRQ_TF_R5;
      6: rot = hifsim_pkg::SRQ_TF_R6;
      default: rot = hifsim_pkg::SRQ_TF_R7;
    endcase
  endfunction
  // Key word ks[i] (i = 0, 1, 2).
  function automatic logic [31:0] ks(input logic [63:0] sd, input int i);
    case (i)
      0: ks = sd[31:0];
      1: ks = sd[63:32];
      default: ks = 32'(hifsim_pkg::SRQ_TF_PARITY) ^ sd[31:0] ^ sd[63:32];
    endcase
  endfunction
  // Rounds 4j .. 4j+3 and key injection s = j + 1 on every core.
  function automatic logic [WS-1:0] tf_block(input logic [WS-1:0] st, input logic [63:0] sd, input int j);
    logic [31:0] x0, x1, ka, kb;
    ka = ks(sd, (j + 1) % 3);
    kb = ks(sd, (j + 2) % 3) + 32'(j + 1);
    for (int w = 0; w < NW; w++) begin
      x0 = st[64*w +: 32];
      x1 = st[64*w + 32 +: 32];
      for (int r = 4*j; r < 4*j + 4; r++) begin
        x0 = x0 + x1;
        x1 = ((x1 << rot(r)) | (x1 >> (32 - rot(r)))) ^ x0;
      end
      tf_block[64*w +: 64] = {x1 + kb, x0 + ka};
    end
  endfunction

  // ------------------------------------------------------------------------------------
  // The counters and the key: x0 = (group + w) + k0, x1 = stream + k1; then t1..t5.
  // ------------------------------------------------------------------------------------
  logic [WS-1:0] t0_state;
  always_comb begin
    for (int w = 0; w < NW; w++)
      t0_state[64*w +: 64] = {stream + seed[63:32], group + 32'(w) + seed[31:0]};
  end

  // tdJ: the data entering block J ({state, seed, lane, a}); td5 leaves t5.
  logic [WT-1:0] td0, td1, td2, td3, td4, td5;
  logic          tv0, tv1, tv2, tv3, tv4, tv5, tr0, tr1, tr2, tr3, tr4, tr5;
  logic [WS-1:0] t1_state, t2_state, t3_state, t4_state, t5_state;
  assign td0 = {t0_state, seed, lane, a};
  assign tv0 = in_valid;
  assign in_ready = tr0;
  always_comb t1_state = tf_block(td0[WT-1 -: WS], td0[WT-WS-1 -: 64], 0);
  hifsim_pipe_reg #(.W(WT), .EN(hifsim_pkg::sr_quantizer_cut(STAGES, 1))) u_cut_t1 (
    .clk, .rst_n, .up_valid(tv0), .up_ready(tr0), .up_data({t1_state, td0[WT-WS-1:0]}),
    .dn_valid(tv1), .dn_ready(tr1), .dn_data(td1));
  always_comb t2_state = tf_block(td1[WT-1 -: WS], td1[WT-WS-1 -: 64], 1);
  hifsim_pipe_reg #(.W(WT), .EN(hifsim_pkg::sr_quantizer_cut(STAGES, 2))) u_cut_t2 (
    .clk, .rst_n, .up_valid(tv1), .up_ready(tr1), .up_data({t2_state, td1[WT-WS-1:0]}),
    .dn_valid(tv2), .dn_ready(tr2), .dn_data(td2));
  always_comb t3_state = tf_block(td2[WT-1 -: WS], td2[WT-WS-1 -: 64], 2);
  hifsim_pipe_reg #(.W(WT), .EN(hifsim_pkg::sr_quantizer_cut(STAGES, 3))) u_cut_t3 (
    .clk, .rst_n, .up_valid(tv2), .up_ready(tr2), .up_data({t3_state, td2[WT-WS-1:0]}),
    .dn_valid(tv3), .dn_ready(tr3), .dn_data(td3));
  always_comb t4_state = tf_block(td3[WT-1 -: WS], td3[WT-WS-1 -: 64], 3);
  hifsim_pipe_reg #(.W(WT), .EN(hifsim_pkg::sr_quantizer_cut(STAGES, 4))) u_cut_t4 (
    .clk, .rst_n, .up_valid(tv3), .up_ready(tr3), .up_data({t4_state, td3[WT-WS-1:0]}),
    .dn_valid(tv4), .dn_ready(tr4), .dn_data(td4));
  always_comb t5_state = tf_block(td4[WT-1 -: WS], td4[WT-WS-1 -: 64], 4);
  hifsim_pipe_reg #(.W(WT), .EN(hifsim_pkg::sr_quantizer_cut(STAGES, 5))) u_cut_t5 (
    .clk, .rst_n, .up_valid(tv4), .up_ready(tr4), .up_data({t5_state, td4[WT-WS-1:0]}),
    .dn_valid(tv5), .dn_ready(tr5), .dn_data(td5));

  // ------------------------------------------------------------------------------------
  // q: each element's random bits and its rounding.
  // ------------------------------------------------------------------------------------
  logic [B*NE-1:0] q_r;
  logic [63:0]     q_codes;
  always_comb begin
    logic [WS-1:0] st;
    logic [5:0]    ln;
    logic [31:0]   x;
    logic [63:0]   word;
    logic [6:0]    t;
    logic [7:0]    ex;
    logic [9:0]    sa;       // signed: F = sig24 << sa (64 fraction bits)
    /* verilator lint_off UNUSEDSIGNAL */
    logic [66:0]   f;        // the bits below T (F[63-B:0]) are dropped by the rule
    /* verilator lint_on UNUSEDSIGNAL */
    logic [B-1:0]  tt, r;
    logic [B:0]    sum;
    logic [2:0]    ip, m;
    logic [1:0]    e;        // E2M1: the quantum is 2^(e - 1)
    logic [3:0]    mc;
    logic          sg;
    st = td5[WT-1 -: WS];
    ln = td5[WA +: 6];
    for (int k = 0; k < NE; k++) begin
      t    = 7'(ln) + 7'(k);
      word = st[64 * (32'(t) / L) +: 64];
      q_r[B*k +: B] = word[B * (32'(t) % L) +: B];
    end
    for (int k = 0; k < NE; k++) begin
      r    = q_r[B*k +: B];
      x    = td5[32*k +: 32];
      ex   = x[30:23];
      e    = (E2M1 && ex >= 8'd127) ? 2'(ex - 8'd127) : 2'd0;
      // sa = 41 + d, d = floor(log2 |x|) - (quantum exponent): E2M1 d = 1 from 1.0 up, else
      // ev + 1; S1P2 (quantum 1) d = ev.
      if (E2M1) sa = (ex >= 8'd127) ? 10'd42 : 10'({2'b00, ex}) - 10'd85;
      else      sa = 10'({2'b00, ex}) - 10'd86;
      f    = ($signed(sa) < 0 || ex == 8'd0) ? 67'd0 : (67'({1'b1, x[22:0]}) << sa[5:0]);
      ip   = f[66:64];
      tt   = f[63 -: B];
      sum  = {1'b0, tt} + {1'b0, r};
      m    = ip + 3'(sum[B]);
      sg   = x[31];
      if (E2M1) begin
        mc = 4'(m) + {1'b0, e, 1'b0};
        if (ex == 8'hFF && x[22:0] != 23'd0)                 m = 3'd0;   // NaN: signed zero
        else if (x[30:0] >= 31'(hifsim_pkg::SRQ_E2M1_SAT))    m = 3'd7;   // |x| >= 8, Inf
        else if (mc > 4'd7)                                   m = 3'd7;
        else                                                  m = mc[2:0];
        if (FMT == 2 && ex == 8'hFF) begin                                // MX: Inf, NaN -> 0
          sg = 1'b0;
          m  = 3'd0;
        end
      end else begin
        if (x[30:0] >= 31'(hifsim_pkg::SRQ_S1P2_SAT))         m = 3'd7;   // 4|y| >= 7, Inf, NaN
      end
      q_codes[4*k +: 4] = {sg, m};
    end
  end

  hifsim_pipe_reg #(.W(64), .EN(hifsim_pkg::sr_quantizer_cut(STAGES, 6))) u_cut_q (
    .clk, .rst_n,
    .up_valid(tv5), .up_ready(tr5), .up_data(q_codes),
    .dn_valid(out_valid), .dn_ready(out_ready), .dn_data(codes)
  );
endmodule
