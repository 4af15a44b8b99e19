// array_sequencer: the control of the calibration matrix unit derived in hardware from M, N, K
// and the tile sizes (MODE.seq = 1), instead of the host's copy of perf::build_schedule:
//
// Loop order (order_cfg 0): the order that reads fewer operand blocks, counted for the slots:
//   the outer operand's K tiles stay when they fit its slots (tk <= slots), else every access
//   reloads (tn x rep or tm x rep panels, rep = 2 with the residual phase); the inner operand
//   stays when all its tiles fit, else reloads per output tile (tk <= slots) or at every access.
//   Ties: mnk. (docs/tlm.md section 3 states the same rule for the model.)
// Jobs: two array_loadwalk (A, B: slot allocation, least recently used) and the stores (one per
//   output tile, waiting for it). The DMA takes them in the order they become eligible: by
//   trigger step, a step's loads (by the step that needs them, A before B) before its store.
//   A walk still looking for its next load bounds what it can still produce (trigger >= lb,
//   first step >= its position); a job is offered only when no walk can still produce one that
//   must go first.
// Readiness: a step may start when its A and B tiles are in their slots (a slot's tag is set when
//   its load completes; jobs complete in order, so a FIFO of the jobs in flight says which) and,
//   for the first step of output tile o, when the store of output tile o - acc slots has
//   completed. The WS weight loader's step only needs its B tile.
// Job / step words: the DMA and step instruction formats of matrix_unit_top (need fields 0).
module array_sequencer #(
  parameter int R = 4,
  parameter int C = 4
) (
  input  logic        clk,
  input  logic        rst_n,
  input  logic        running,
  input  matrix_unit_pkg::shape_t shape,
  input  logic [1:0]  order_cfg,
  input  logic [2:0]  slots_cfg,   // {acc, B, A}: two slots
  output logic        job_valid,
  output matrix_unit_pkg::job_t job,
  input  logic        job_take,
  input  logic        job_done,
  output logic        st_valid,
  output matrix_unit_pkg::step_t st,
  output logic        st_ready,
  input  logic        st_take,
  output logic        ld_valid,
  output matrix_unit_pkg::step_t ld,
  output logic        ld_ready,
  input  logic        ld_take
);
  // ---- loop order ----
  logic [7:0]  tm, tn, tk;
  logic        nmk;
  assign tm = 8'((32'(shape.M) + 32'(shape.mt) - 1) / 32'(shape.mt));
  assign tn = 8'((32'(shape.N) + 32'(shape.nt) - 1) / 32'(shape.nt));
  assign tk = 8'((32'(shape.KB) + 32'(shape.ktu) - 1) / 32'(shape.ktu));
  always_comb begin
    logic [63:0] a_all, b_all, rep, sa, sb, a_mnk, b_mnk, a_nmk, b_nmk;
    rep = shape.res ? 2 : 1;
    sa = slots_cfg[0] ? 2 : 1;
    sb = slots_cfg[1] ? 2 : 1;
    a_all = 64'(shape.M) * rep * 64'(shape.KB);
    b_all = 64'(shape.N) * 64'(shape.KB);
    a_mnk = (64'(tk) <= sa) ? 1 : 64'(tn) * rep;
    b_mnk = (64'(tn) * 64'(tk) <= sb) ? 1 : 64'(tm) * ((64'(tk) <= sb) ? 1 : rep);
    b_nmk = (64'(tk) <= sb) ? 1 : 64'(tm) * rep;
    a_nmk = (64'(tm) * 64'(tk) <= sa) ? 1 : 64'(tn) * ((64'(tk) <= sa) ? 1 : rep);
    if (order_cfg == 2'd1)      nmk = 1'b0;
    else if (order_cfg == 2'd2) nmk = 1'b1;
    else                        nmk = a_nmk * a_all + b_nmk * b_all < a_mnk * a_all + b_mnk * b_all;
  end

  // ---- the loads ----
  logic        ah, bh, aw, bw, a_slot, b_slot, a_take, b_take;
  logic [16:0] a_trig, b_trig, a_lb, b_lb;
  logic [15:0] a_first, b_first, a_row0, b_row0, a_k0, b_k0, a_tag, b_tag;
  logic [7:0]  a_nrows, b_nrows, a_kl, b_kl;
  array_loadwalk #(.IS_B(0)) u_a (
    .clk, .rst_n, .run(running), .nmk, .two_slots(slots_cfg[0]), .shape,
    .head(ah), .slot(a_slot), .trig(a_trig), .first(a_first), .row0(a_row0), .nrows(a_nrows), .k0(a_k0), .kl(a_kl),
    .tag(a_tag), .take(a_take), .walking(aw), .lb_trig(a_lb));
  array_loadwalk #(.IS_B(1)) u_b (
    .clk, .rst_n, .run(running), .nmk, .two_slots(slots_cfg[1]), .shape,
    .head(bh), .slot(b_slot), .trig(b_trig), .first(b_first), .row0(b_row0), .nrows(b_nrows), .k0(b_k0), .kl(b_kl),
    .tag(b_tag), .take(b_take), .walking(bw), .lb_trig(b_lb));

  // ---- the stores: output tile o waits for its last step, o * ks + ks - 1 ----
  logic        sdone, s_rs_u, s_first_u, s_last_u;
  logic [15:0] s_idx_u, s_out, s_m0, s_n0, s_k0_u, s_trig;
  logic [7:0]  s_mo_u, s_no, s_ko_u, s_ml, s_nl, s_kl_u, ks;
  logic        s_take;
  assign ks = shape.res ? 8'(2 * 32'(tk)) : tk;
  // Walks output tiles: steps with K tile 1 and no residual phase are exactly the output tiles.
  matrix_unit_pkg::shape_t tiles;
  always_comb begin
    tiles     = shape;
    tiles.KB  = 16'd1;
    tiles.ktu = 8'd1;
    tiles.res = 1'b0;
  end
  array_walk u_sw (
    .clk, .rst_n, .run(running), .nmk, .shape(tiles), .adv(s_take),
    .skip(1'b0), .kslots(2'd0), .done(sdone), .idx(s_idx_u), .out(s_out), .mo(s_mo_u), .no(s_no), .ko(s_ko_u),
    .rs(s_rs_u), .first(s_first_u), .last(s_last_u), .m0(s_m0), .ml(s_ml), .n0(s_n0), .nl(s_nl), .k0(s_k0_u), .kl(s_kl_u));
  assign s_trig = 16'(32'(s_out) * 32'(ks) + 32'(ks) - 1);

  // ---- the merge ----
  // A load goes before B's if (trigger, first step) is smaller (A first on ties); a load with the
  // trigger of a store goes before it. A walk in progress bounds its next load from below.
  function automatic logic load_before(input logic [16:0] t1, input logic [15:0] f1, input logic [16:0] t2,
                                       input logic [15:0] f2, input logic tie);
    load_before = ($signed(t1) < $signed(t2)) || (t1 == t2 && (f1 < f2 || (f1 == f2 && tie)));
  endfunction
  logic        pick_a, pick_b, pick_s, a_ok, b_ok, s_ok;
  logic [16:0] st_trig;
  logic [15:0] a_pos, b_pos;
  assign st_trig = {1'b0, s_trig};
  // While walking, `first` is a step whose tile hits: the next load is needed at a later step.
  assign a_pos = a_first + 16'd1;
  assign b_pos = b_first + 16'd1;
  always_comb begin
    // A's head goes first unless B's head, B's bound or the store goes before it.
    a_ok = ah && (!bh || load_before(a_trig, a_first, b_trig, b_first, 1'b1))
              && (!bw || load_before(a_trig, a_first, b_lb, b_pos, 1'b1))
              && (sdone || $signed(a_trig) <= $signed(st_trig));
    b_ok = bh && (!ah || load_before(b_trig, b_first, a_trig, a_first, 1'b0))
              && (!aw || load_before(b_trig, b_first, a_lb, a_pos, 1'b0))
              && (sdone || $signed(b_trig) <= $signed(st_trig));
    s_ok = !sdone && (!ah || $signed(st_trig) < $signed(a_trig)) && (!bh || $signed(st_trig) < $signed(b_trig))
                  && (!aw || $signed(st_trig) < $signed(a_lb)) && (!bw || $signed(st_trig) < $signed(b_lb));
    pick_a = a_ok;
    pick_b = !a_ok && b_ok;
    pick_s = !a_ok && !b_ok && s_ok;
  end
  assign job_valid = running && (pick_a || pick_b || pick_s);
  assign a_take = job_take && pick_a;
  assign b_take = job_take && pick_b;
  assign s_take = job_take && pick_s;

  always_comb begin
    job = '0;
    if (pick_s) begin
      job.kind  = 2'd2;
      job.slot  = slots_cfg[2] ? s_out[0] : 1'b0;
      job.waitn = s_out + 16'd1;
      job.row0  = s_m0[11:0];
      job.rows  = s_ml;
      job.k0    = s_nl;
      job.no    = s_no;
    end else begin
      job.kind  = pick_b ? 2'd1 : 2'd0;
      job.slot  = pick_b ? b_slot : a_slot;
      job.waitn = 16'((pick_b ? b_trig : a_trig) + 17'd1);
      job.row0  = pick_b ? b_row0[11:0] : a_row0[11:0];
      job.rows  = pick_b ? b_nrows : a_nrows;
      job.k0    = pick_b ? b_k0[7:0] : a_k0[7:0];
      job.kn    = pick_b ? b_kl : a_kl;
      job.res   = !pick_b && shape.res;
    end
  end

  // ---- scoreboard: jobs in flight complete in order ----
  localparam int FD = 32;
  logic [17:0] fifo [FD];     // {kind[1:0], tag[15:0]} with the slot in the tag's place for stores
  logic        fslot [FD];
  logic [4:0]  f_wr, f_rd;
  logic [15:0] a_have [2], b_have [2];
  logic        a_v [2], b_v [2];
  logic [15:0] stores_done;
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      f_wr <= '0; f_rd <= '0; a_v[0] <= 1'b0; a_v[1] <= 1'b0; b_v[0] <= 1'b0; b_v[1] <= 1'b0; stores_done <= '0;
    end else if (!running) begin
      f_wr <= '0; f_rd <= '0; a_v[0] <= 1'b0; a_v[1] <= 1'b0; b_v[0] <= 1'b0; b_v[1] <= 1'b0; stores_done <= '0;
    end else begin
      if (job_take) begin
        fifo[f_wr]  <= {job.kind, pick_b ? b_tag : a_tag};
        fslot[f_wr] <= job.slot;
        f_wr <= f_wr + 5'd1;
      end
      if (job_done) begin
        f_rd <= f_rd + 5'd1;
        if (fifo[f_rd][17:16] == 2'd0) begin
          a_have[fslot[f_rd]] <= fifo[f_rd][15:0];
          a_v[fslot[f_rd]] <= 1'b1;
        end else if (fifo[f_rd][17:16] == 2'd1) begin
          b_have[fslot[f_rd]] <= fifo[f_rd][15:0];
          b_v[fslot[f_rd]] <= 1'b1;
        end else begin
          stores_done <= stores_done + 16'd1;
        end
      end
    end
  end

  // ---- the two step ports: the streamer's (st) and the WS weight loader's (ld) ----
  logic        t_done, t_rs, t_first, t_last, l_done, l_rs_u, l_first_u, l_last_u;
  logic [15:0] t_idx_u, t_out, t_m0_u, t_n0_u, t_k0_u, l_idx_u, l_out_u, l_m0_u, l_n0_u, l_k0_u;
  logic [7:0]  t_mo, t_no, t_ko, t_ml, t_nl, t_kl, l_mo_u, l_no, l_ko, l_ml_u, l_nl, l_kl;
  array_walk u_tw (
    .clk, .rst_n, .run(running), .nmk, .shape, .adv(st_take), .skip(1'b0), .kslots(2'd0),
    .done(t_done), .idx(t_idx_u), .out(t_out), .mo(t_mo), .no(t_no), .ko(t_ko), .rs(t_rs), .first(t_first),
    .last(t_last), .m0(t_m0_u), .ml(t_ml), .n0(t_n0_u), .nl(t_nl), .k0(t_k0_u), .kl(t_kl));
  array_walk u_lw (
    .clk, .rst_n, .run(running), .nmk, .shape, .adv(ld_take), .skip(1'b0), .kslots(2'd0),
    .done(l_done), .idx(l_idx_u), .out(l_out_u), .mo(l_mo_u), .no(l_no), .ko(l_ko), .rs(l_rs_u), .first(l_first_u),
    .last(l_last_u), .m0(l_m0_u), .ml(l_ml_u), .n0(l_n0_u), .nl(l_nl), .k0(l_k0_u), .kl(l_kl));

  function automatic logic have(input logic [15:0] t, input logic [15:0] h0, input logic v0, input logic [15:0] h1,
                                input logic v1, input logic two);
    have = (v0 && h0 == t) || (two && v1 && h1 == t);
  endfunction
  function automatic logic which(input logic [15:0] t, input logic [15:0] h0, input logic v0);
    which = !(v0 && h0 == t);
  endfunction

  logic t_acc_ok;
  assign t_acc_ok = !t_first || 32'(t_out) < (slots_cfg[2] ? 2 : 1) ||
                    32'(stores_done) >= 32'(t_out) - (slots_cfg[2] ? 2 : 1) + 1;
  assign st_valid = running && !t_done;
  assign st_ready = have({t_mo, t_ko}, a_have[0], a_v[0], a_have[1], a_v[1], slots_cfg[0]) &&
                    have({t_no, t_ko}, b_have[0], b_v[0], b_have[1], b_v[1], slots_cfg[1]) && t_acc_ok;
  always_comb begin
    st = '0;
    st.aslot = which({t_mo, t_ko}, a_have[0], a_v[0]);
    st.bslot = which({t_no, t_ko}, b_have[0], b_v[0]);
    st.cslot = slots_cfg[2] ? t_out[0] : 1'b0;
    st.ml    = t_ml;
    st.nl    = t_nl;
    st.kb    = t_kl;
    st.cont  = !(t_ko == 8'd0 && !t_rs);   // continue: every step but an output's first (fused residual)
    st.last  = t_last;
    st.res   = t_rs;
  end
  assign ld_valid = running && !l_done;
  assign ld_ready = have({l_no, l_ko}, b_have[0], b_v[0], b_have[1], b_v[1], slots_cfg[1]);
  always_comb begin
    ld = '0;
    ld.bslot = which({l_no, l_ko}, b_have[0], b_v[0]);
    ld.nl    = l_nl;
    ld.kb    = l_kl;
  end

  logic unused_ok;
  assign unused_ok = &{1'b0, R[0], C[0], s_idx_u, s_rs_u, s_first_u, s_last_u, s_mo_u, s_ko_u, s_k0_u, s_kl_u, s_n0,
                       t_idx_u, t_m0_u, t_n0_u, t_k0_u, l_idx_u, l_out_u, l_m0_u, l_n0_u, l_k0_u, l_mo_u, l_ml_u,
                       l_rs_u, l_first_u, l_last_u, a_k0[15:8], b_k0[15:8], a_row0[15:12], b_row0[15:12], s_m0[15:12]};
endmodule
