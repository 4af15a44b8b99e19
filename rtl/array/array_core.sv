// array_core: the compute side of the calibration matrix unit: the operand buffers, the issue
// sequencing of both dataflows and the PE grid (docs/tlm.md sections 2 and 4, whose equations
// model exactly this):
//
// OS  a step is ceil(ml/R) x ceil(nl/C) passes; a pass issues kb blocks, each after a gather of
//     f = max(fa, fb) cycles (fa = ceil(R / banks_A), fb = ceil(C / banks_B)), issuing in the last
//     one. With a drain (dw > 0) a pass starts only when its last issue will be at least D cycles
//     after the previous pass's (`since`), so its results never overwrite a shadow still
//     draining. A step starts when its data are there (st_ready) and the previous step is done.
// WS  a step is folds (pc, kf) for pc < ceil(nl/C), kf < ceil(kb/R); a fold streams the ml rows
//     of A (each a gather of fa cycles: the R blocks kf R .. kf R + R - 1 of the row) into the
//     weights of R x C B blocks. The weight loader loads a fold's weights one PE row per fb
//     cycles (Lw = R fb): with double-buffered weights into the shadow registers as soon as the
//     previous fold has started (the shadow is free) and its step's B tile is there (ld_ready);
//     without, into the active registers once the previous fold has streamed. A fold streams when
//     its weights are loaded and the previous fold has streamed (the first fold of a step: when
//     its data are there). The loader runs on its own step port, ahead of the streamer.
module array_core #(
  parameter int PE          = 0,
  parameter int HIF8_N      = 64,
  parameter int HIF8_W      = 0,
  parameter int HIF8_STICKY = 0,
  parameter int STAGES      = 3,
  parameter int WB          = 288,
  parameter int R           = 4,
  parameter int C           = 4,
  parameter int MT          = 8,
  parameter int NT          = 8,
  parameter int KTU         = 4,
  parameter int ARES        = 0    // 1: A slots hold the residual rows too (MT .. 2 MT - 1)
) (
  input  logic              clk,
  input  logic              rst_n,
  input  logic              running,
  input  logic              ws,
  input  logic              wdb,
  input  logic [7:0]        nba,
  input  logic [7:0]        nbb,
  input  logic [7:0]        fa,
  input  logic [7:0]        fb,
  input  logic [15:0]       dw,
  input  logic [15:0]       dcyc,
  // the step (OS issue / WS streamer)
  input  logic              st_valid,
  input  logic              st_ready,
  input  matrix_unit_pkg::step_t st,
  output logic              st_take,     // the step's last issue (= step done)
  // the WS weight loader's step
  input  logic              ld_valid,
  input  logic              ld_ready,
  input  matrix_unit_pkg::step_t ld,
  output logic              ld_take,
  // DMA responses into the operand buffers
  input  logic              a_we,
  input  logic              b_we,
  input  logic              w_slot,
  input  logic [7:0]        w_row,
  input  logic [7:0]        w_col,
  input  logic [WB-1:0]     w_data,
  output logic              out_done,
  input  logic              rd_slot,
  input  logic [7:0]        rd_row,
  output logic [NT*32-1:0]  rd_data
);
  localparam int AROWS = MT * (ARES != 0 ? 2 : 1);

  // ---- operand buffers and their gather registers ----
  logic              a_rslot, a_rdir, b_rslot;
  logic [7:0]        a_row0, a_col0, a_g, b_row0, b_col0, b_g;
  logic [R*WB-1:0]   a_rdata, a_op;
  logic [C*WB-1:0]   b_rdata, b_op;
  logic [R-1:0]      a_served;
  logic [C-1:0]      b_served;
  logic [WB-1:0]     a_lat [R];
  logic [WB-1:0]     b_lat [C];

  array_opbuf #(.WB(WB), .ROWS(AROWS), .KTU(KTU), .NREQ(R), .NBMAX(R)) u_abuf (
    .clk, .nb(nba), .we(a_we), .wslot(w_slot), .wrow(w_row), .wcol(w_col), .wdata(w_data),
    .rslot(a_rslot), .rrow0(a_row0), .rcol0(a_col0), .rdir(a_rdir), .g(a_g), .rdata(a_rdata), .served(a_served));
  array_opbuf #(.WB(WB), .ROWS(NT), .KTU(KTU), .NREQ(C), .NBMAX(C)) u_bbuf (
    .clk, .nb(nbb), .we(b_we), .wslot(w_slot), .wrow(w_row), .wcol(w_col), .wdata(w_data),
    .rslot(b_rslot), .rrow0(b_row0), .rcol0(b_col0), .rdir(1'b0), .g(b_g), .rdata(b_rdata), .served(b_served));

  // A block of requester i this cycle: read now if served now, else latched earlier in the gather.
  always_comb begin
    for (int i = 0; i < R; i++) a_op[i*WB +: WB] = a_served[i] ? a_rdata[i*WB +: WB] : a_lat[i];
    for (int i = 0; i < C; i++) b_op[i*WB +: WB] = b_served[i] ? b_rdata[i*WB +: WB] : b_lat[i];
  end
  always_ff @(posedge clk) begin
    for (int i = 0; i < R; i++) if (a_served[i]) a_lat[i] <= a_rdata[i*WB +: WB];
    for (int i = 0; i < C; i++) if (b_served[i]) b_lat[i] <= b_rdata[i*WB +: WB];
  end

  // ---- OS sequencing ----
  logic        os_busy, os_act, os_iss, os_hold_ok, os_pass_start, os_blk_last, os_pass_last, os_step_last;
  logic [7:0]  pr, pc, kk, og, npr, npc, of;
  logic [15:0] since;        // cycles since the previous pass's last issue (saturating)
  logic        have_prev;
  assign npr = 8'((32'(st.ml) + R - 1) / R);
  assign npc = 8'((32'(st.nl) + C - 1) / C);
  assign of  = (fa > fb) ? fa : fb;
  assign os_pass_start = kk == 8'd0 && og == 8'd0;
  // the pass's last issue (now + kb f - 1) must be >= the previous one + D
  assign os_hold_ok = dw == 16'd0 || !have_prev || 32'(since) + 32'(st.kb) * 32'(of) >= 32'(dcyc) + 32'd1;
  always_comb begin
    if (!os_busy) os_act = !ws && st_valid && st_ready && os_hold_ok;
    else          os_act = !os_pass_start || os_hold_ok;
    os_act = os_act && running;
  end
  assign os_iss       = os_act && og + 8'd1 == of;
  assign os_blk_last  = kk + 8'd1 == st.kb;
  assign os_pass_last = os_blk_last && pc + 8'd1 == npc;
  assign os_step_last = os_pass_last && pr + 8'd1 == npr;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      os_busy <= 1'b0; pr <= '0; pc <= '0; kk <= '0; og <= '0; since <= '0; have_prev <= 1'b0;
    end else if (!running) begin
      os_busy <= 1'b0; pr <= '0; pc <= '0; kk <= '0; og <= '0; since <= '0; have_prev <= 1'b0;
    end else begin
      since <= (since == 16'hFFFF) ? since : since + 16'd1;
      if (os_act) begin
        os_busy <= 1'b1;
        og <= os_iss ? 8'd0 : og + 8'd1;
        if (os_iss) begin
          if (os_blk_last) begin
            since <= 16'd1;
            have_prev <= 1'b1;
          end
          if (!os_blk_last) kk <= kk + 8'd1;
          else begin
            kk <= 8'd0;
            if (!os_pass_last) pc <= pc + 8'd1;
            else begin
              pc <= 8'd0;
              if (!os_step_last) pr <= pr + 8'd1;
              else begin
                pr <= 8'd0;
                os_busy <= 1'b0;
              end
            end
          end
        end
      end
    end
  end

  // ---- WS sequencing: the streamer ----
  logic        s_busy, s_start, s_act, s_iss, s_row_last, s_fold_last, s_step_last, s_first_fold, s_fstep_last;
  logic [7:0]  m, sg, s_kf, s_pc, nkf, s_npc;
  logic [15:0] loaded, started, streamed;
  assign nkf   = 8'((32'(st.kb) + R - 1) / R);
  assign s_npc = npc;
  assign s_first_fold = s_kf == 8'd0 && s_pc == 8'd0;
  assign s_start = running && ws && !s_busy && st_valid && loaded != started && (!s_first_fold || st_ready);
  assign s_act   = s_start || (running && s_busy);
  array_folds u_sfold (
    .clk, .rst_n, .running, .act(s_act), .gn(fa), .rows(st.ml), .nkf, .npc(s_npc), .g(sg), .row(m), .kf(s_kf),
    .pc(s_pc), .tick(s_iss), .row_last(s_row_last), .step_last(s_fstep_last));
  assign s_fold_last = s_row_last && s_fstep_last;
  assign s_step_last = s_iss && s_fold_last;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      s_busy <= 1'b0; started <= '0; streamed <= '0;
    end else if (!running) begin
      s_busy <= 1'b0; started <= '0; streamed <= '0;
    end else begin
      if (s_start) begin
        s_busy <= 1'b1;
        started <= started + 16'd1;
      end
      if (s_iss && s_row_last) begin
        s_busy <= 1'b0;
        streamed <= streamed + 16'd1;
      end
    end
  end

  // ---- WS sequencing: the weight loader ----
  logic        l_busy, l_start, l_act, l_wr, l_row_last, l_fold_last, shadow_free;
  logic [7:0]  lr, lg, l_kf, l_pc, l_nkf, l_npc;
  logic [15:0] started_now;
  assign l_nkf = 8'((32'(ld.kb) + R - 1) / R);
  assign l_npc = 8'((32'(ld.nl) + C - 1) / C);
  assign started_now = started + 16'(s_start);
  assign shadow_free = wdb ? started_now == loaded : streamed == loaded;
  assign l_start = running && ws && !l_busy && ld_valid && ld_ready && shadow_free;
  assign l_act   = l_start || (running && l_busy);
  array_folds u_lfold (
    .clk, .rst_n, .running, .act(l_act), .gn(fb), .rows(8'(R)), .nkf(l_nkf), .npc(l_npc), .g(lg), .row(lr),
    .kf(l_kf), .pc(l_pc), .tick(l_wr), .row_last(l_row_last), .step_last(l_fold_last));
  assign ld_take = l_wr && l_row_last && l_fold_last;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      l_busy <= 1'b0; loaded <= '0;
    end else if (!running) begin
      l_busy <= 1'b0; loaded <= '0;
    end else if (l_act) begin
      l_busy <= 1'b1;
      if (l_wr && l_row_last) begin
        l_busy <= 1'b0;
        loaded <= loaded + 16'd1;
      end
    end
  end

  // ---- buffer reads ----
  always_comb begin
    if (!ws) begin
      a_rslot = st.aslot;
      a_row0  = 8'(32'(pr) * R + (st.res ? MT : 0));
      a_col0  = kk;
      a_rdir  = 1'b0;
      a_g     = og;
      b_rslot = st.bslot;
      b_row0  = 8'(32'(pc) * C);
      b_col0  = kk;
      b_g     = og;
    end else begin
      a_rslot = st.aslot;
      a_row0  = 8'(32'(m) + (st.res ? MT : 0));
      a_col0  = 8'(32'(s_kf) * R);
      a_rdir  = 1'b1;
      a_g     = sg;
      b_rslot = ld.bslot;
      b_row0  = 8'(32'(l_pc) * C);
      b_col0  = 8'(32'(l_kf) * R + 32'(lr));
      b_g     = lg;
    end
  end

  // ---- issue into the grid ----
  logic          iss, c_first, c_last, c_outlast, c_cont;
  logic [7:0]    c_mi, c_pc;
  logic [R-1:0]  c_rmask, wwe;
  logic [C-1:0]  c_cmask;
  always_comb begin
    for (int r = 0; r < R; r++) wwe[r] = ws && l_wr && 32'(lr) == r;
    if (!ws) begin
      iss       = os_iss;
      c_first   = kk == 8'd0;
      c_last    = os_blk_last;
      c_outlast = os_step_last && st.last;
      c_cont    = st.cont;
      c_mi      = pr;
      c_pc      = pc;
      for (int r = 0; r < R; r++) c_rmask[r] = 32'(pr) * R + r < 32'(st.ml);
      for (int c = 0; c < C; c++) c_cmask[c] = 32'(pc) * C + c < 32'(st.nl);
    end else begin
      iss       = s_iss;
      c_first   = 1'b0;
      c_last    = 1'b0;
      c_outlast = s_fold_last && st.last;
      c_cont    = st.cont || s_kf != 8'd0;
      c_mi      = m;
      c_pc      = s_pc;
      for (int r = 0; r < R; r++) c_rmask[r] = 32'(s_kf) * R + r < 32'(st.kb);
      for (int c = 0; c < C; c++) c_cmask[c] = 32'(s_pc) * C + c < 32'(st.nl);
    end
  end
  assign st_take = ws ? s_step_last : (os_iss && os_step_last);

  array_grid #(.PE(PE), .HIF8_N(HIF8_N), .HIF8_W(HIF8_W), .HIF8_STICKY(HIF8_STICKY), .STAGES(STAGES), .WB(WB),
               .R(R), .C(C), .MT(MT), .NT(NT)) u_grid (
    .clk, .rst_n, .running, .ws, .wdb, .dw, .dcyc,
    .iss, .iss_res(st.res), .iss_a(a_op), .bus_b(b_op), .w_we(wwe), .swap(s_start && wdb),
    .c_first, .c_last, .c_outlast, .c_cont, .c_cslot(st.cslot), .c_mi, .c_pc, .c_rmask, .c_cmask,
    .out_done, .st_slot(rd_slot), .st_row(rd_row), .st_data(rd_data));
  // The program's dependency fields are the top's; the weight loader reads only B's fields.
  logic unused_ok;
  assign unused_ok = &{1'b0, st.pad, st.need_b, st.need, ld.pad, ld.need_b, ld.need, ld.res, ld.last, ld.cont,
                       ld.ml, ld.cslot, ld.aslot};
endmodule
