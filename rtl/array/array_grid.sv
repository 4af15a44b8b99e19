// array_grid: the R x C PE array of the calibration matrix unit with its accumulator buffer, the
// weight-stationary skew and the output-stationary drain stage (docs/tlm.md sections 2 and 4).
//
// Accumulator buffer: one bank per PE, bank (r, c) holds outputs (m, n) with m mod R = r,
// n mod C = c of both output-tile slots: address slot * MR * NC + (m / R) * NC + n / C.
//
// Issue (cycle t, from array_core): iss with one block per PE row (iss_a) and one per column
// (bus_b), and the control word: first / last block of the pass (OS), outlast (this completes an
// output tile), cont (continue the saved partial sums), cslot, mi (OS: the pass row pr; WS: the
// A row m), pc (the pass / fold column), rmask (OS: rows inside the tile; WS: PE rows with a K
// block in this fold), cmask (columns inside the tile).
//
// OS: every PE takes its row's A block and its column's B block; STAGES cycles later it adds.
//   The first block of a pass starts from the saved partial sum (cont) or +0. Drain width dw = 0:
//   the last add writes the bank directly (write-through). dw > 0: the last add goes to a shadow
//   register per PE, which the drain writes into the banks dw entries per cycle during the
//   D = ceil(R C / dw) following cycles (entry i = r C + c); a pass that continues outputs still
//   in the shadow reads them from there. out_done: the output tile's last value is in its bank.
// WS: PE row r sees the issue r cycles late (a_d / ctl skew), so the FP32 partial sum of a column
//   moves down one PE row per cycle: row 0 starts from the saved partial sum (cont) or +0, row r
//   adds to row r-1's register, a row without a block passes the sum on, row R-1 writes its bank.
//   Weights: w_we loads the column bus into PE row r's shadow (or active) register; `swap` (the
//   first cycle of a fold) reaches row r r cycles later.
`ifndef HIFSIM_ARRAY_PE
`define HIFSIM_ARRAY_PE array_pe  // the PE module (array_pe.sv: one name per calibration model)
`endif
module array_grid #(
  parameter int PE          = 0,
  parameter int HIF8_N      = 64,
  parameter int HIF8_W      = 0,
  parameter int HIF8_STICKY = 0,
  parameter int STAGES      = 3,
  parameter int WB          = 288,
  parameter int R           = 4,
  parameter int C           = 4,
  parameter int MT          = 8,
  parameter int NT          = 8
) (
  input  logic              clk,
  input  logic              rst_n,
  input  logic              running,
  input  logic              ws,
  input  logic              wdb,
  input  logic [15:0]       dw,
  input  logic [15:0]       dcyc,        // D = ceil(R C / dw)
  // issue
  input  logic              iss,
  input  logic              iss_res,
  input  logic [R*WB-1:0]   iss_a,
  input  logic [C*WB-1:0]   bus_b,
  input  logic [R-1:0]      w_we,
  input  logic              swap,
  input  logic              c_first,
  input  logic              c_last,
  input  logic              c_outlast,
  input  logic              c_cont,
  input  logic              c_cslot,
  input  logic [7:0]        c_mi,
  input  logic [7:0]        c_pc,
  input  logic [R-1:0]      c_rmask,
  input  logic [C-1:0]      c_cmask,
  output logic              out_done,
  // store read port: row st_row of slot st_slot, NT FP32 values (value n at [32 n +: 32])
  input  logic              st_slot,
  input  logic [7:0]        st_row,
  output logic [NT*32-1:0]  st_data
);
  localparam int MR = MT / R;
  localparam int NC = NT / C;
  localparam int CD = 2 * MR * NC;
  localparam int CA = $clog2(CD);
  localparam int DL = R + STAGES;           // control delay line: issue .. bottom accumulate
  // control word: {valid, res, first, last, outlast, cont, cslot, mi, pc, rmask, cmask}
  localparam int CW = 7 + 8 + 8 + R + C;

  logic [31:0] cbuf [R][C][CD];

  function automatic logic [CA-1:0] caddr(input logic slot, input int mq, input int pc);
    caddr = CA'(32'(slot) * MR * NC + mq * NC + pc);
  endfunction

  // ---- control delay line: ctl_q[d] = the control word issued d cycles ago ----
  logic [CW-1:0] ctl_q [DL + 1];
  assign ctl_q[0] = {iss, iss_res, c_first, c_last, c_outlast, c_cont, c_cslot, c_mi, c_pc, c_rmask, c_cmask};
  for (genvar d = 1; d <= DL; d++) begin : g_ctl
    always_ff @(posedge clk or negedge rst_n) begin
      if (!rst_n)        ctl_q[d] <= '0;
      else if (!running) ctl_q[d] <= '0;
      else               ctl_q[d] <= ctl_q[d-1];
    end
  end

  // ---- WS skew of the A blocks and of the fold start ----
  logic [WB-1:0] a_row [R];      // the block PE row r takes this cycle
  logic          swap_q [R];
  always_comb a_row[0] = iss_a[0 +: WB];
  assign swap_q[0] = swap;
  for (genvar r = 1; r < R; r++) begin : g_skew
    logic [WB-1:0] d [r];
    logic          s [r];
    always_ff @(posedge clk) begin
      d[0] <= iss_a[r*WB +: WB];
      s[0] <= swap && running;
      for (int k = 1; k < r; k++) begin
        d[k] <= d[k-1];
        s[k] <= s[k-1];
      end
    end
    always_comb a_row[r] = ws ? d[r-1] : iss_a[r*WB +: WB];
    assign swap_q[r] = ws && s[r-1];
  end

  // ---- the drain (OS, dw > 0) ----
  logic [31:0]   shadow [R][C];
  logic          sh_v, sh_outlast, dr_on;
  logic          sh_slot;
  logic [7:0]    sh_pr, sh_pc;
  logic [R-1:0]  sh_rmask;
  logic [C-1:0]  sh_cmask;
  logic [15:0]   dr_k;                       // drain cycle 0 .. D-1
  logic          copy;                       // this cycle's last adds go to the shadow

  // ---- the PEs ----
  logic          os_v, os_res, os_first, os_last, os_outlast, os_cont, os_cslot;
  logic [7:0]    os_pr, os_pc;
  logic [R-1:0]  os_rmask;
  logic [C-1:0]  os_cmask;
  assign {os_v, os_res, os_first, os_last, os_outlast, os_cont, os_cslot, os_pr, os_pc, os_rmask, os_cmask} =
      ctl_q[STAGES];
  assign copy = !ws && os_v && os_last && dw != 16'd0;

  logic [31:0] acc [R][C] /*verilator split_var*/;  // per PE: Verilator orders the WS chain PE by PE
  logic [31:0] nxt [R][C];
  logic        ov  [R][C];

  for (genvar r = 0; r < R; r++) begin : g_row
    // WS: this row's issue control (r cycles late) and accumulate control (r + STAGES).
    logic          wi_v, wi_res, wi_act, wa_v, wa_cont, wa_cslot, wa_act;
    logic [7:0]    wa_m, wa_pc;
    logic [CW-1:0] wi, wa;
    assign wi = ctl_q[r];
    assign wa = ctl_q[r + STAGES];
    assign wi_v = wi[CW-1];
    assign wi_res = wi[CW-2];
    assign wi_act = wi[C + r];      // this PE row has a K block in the fold
    assign wa_v = wa[CW-1];
    assign wa_cont = wa[CW-6];
    assign wa_cslot = wa[CW-7];
    assign wa_m = wa[C + R + 8 +: 8];
    assign wa_pc = wa[C + R +: 8];
    assign wa_act = wa[C + r];
    for (genvar c = 0; c < C; c++) begin : g_col
      logic        in_v, res_b, use_acc, pass;
      logic [31:0] x_in, base;
      always_comb begin
        if (!ws) begin
          in_v    = iss;
          res_b   = iss_res;
          use_acc = !os_first;
          pass    = 1'b0;
          base    = 32'h0000_0000;
          if (os_cont)
            base = (sh_v && sh_slot == os_cslot && sh_pr == os_pr && sh_pc == os_pc) ? shadow[r][c]
                 : cbuf[r][c][caddr(os_cslot, 32'(os_pr), 32'(os_pc))];
          x_in = base;
        end else begin
          in_v    = wi_v && wi_act;
          res_b   = wi_res;
          use_acc = 1'b0;
          base    = 32'h0000_0000;
          pass    = wa_v && !wa_act;
          if (r == 0)
            x_in = (wa_cont && wa_v) ? cbuf[32'(wa_m) % R][c][caddr(wa_cslot, 32'(wa_m) / R, 32'(wa_pc))]
                                     : 32'h0000_0000;
          else
            x_in = acc[(r > 0) ? r - 1 : 0][c];
        end
      end
      `HIFSIM_ARRAY_PE #(.PE(PE), .HIF8_N(HIF8_N), .HIF8_W(HIF8_W), .HIF8_STICKY(HIF8_STICKY), .STAGES(STAGES), .WB(WB)) u_pe (
        .clk, .rst_n, .ws, .wdb,
        .in_valid(in_v && running), .res(res_b), .a(a_row[r]), .b_bus(bus_b[c*WB +: WB]),
        .w_swap(swap_q[r]), .w_we(w_we[r]),
        .use_acc, .pass(pass && running), .x_in,
        .out_valid(ov[r][c]), .nxt(nxt[r][c]), .acc(acc[r][c]));
    end
  end

  // ---- accumulator-buffer writes ----
  logic          wb_v;       // WS: the bottom row's accumulate stage
  logic          wb_outlast, wb_cslot;
  logic [7:0]    wb_m, wb_pc;
  logic [C-1:0]  wb_cmask;
  logic [CW-1:0] wbw;
  assign wbw        = ctl_q[R - 1 + STAGES];
  assign wb_v       = ws && wbw[CW-1];
  assign wb_outlast = wbw[CW-5];
  assign wb_cslot   = wbw[CW-7];
  assign wb_m       = wbw[C + R + 8 +: 8];
  assign wb_pc      = wbw[C + R +: 8];
  assign wb_cmask   = wbw[0 +: C];

  always_ff @(posedge clk) begin
    for (int r = 0; r < R; r++)
      for (int c = 0; c < C; c++) begin
        if (running && !ws && os_v && os_last && dw == 16'd0 && os_rmask[r] && os_cmask[c])
          cbuf[r][c][caddr(os_cslot, 32'(os_pr), 32'(os_pc))] <= nxt[r][c];
        if (running && dr_on && sh_rmask[r] && sh_cmask[c] && (r * C + c) / 32'(dw) == 32'(dr_k))
          cbuf[r][c][caddr(sh_slot, 32'(sh_pr), 32'(sh_pc))] <= shadow[r][c];
        if (copy) shadow[r][c] <= nxt[r][c];
      end
    if (running && wb_v)
      for (int c = 0; c < C; c++)
        if (wb_cmask[c]) cbuf[32'(wb_m) % R][c][caddr(wb_cslot, 32'(wb_m) / R, 32'(wb_pc))] <= nxt[R-1][c];
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      sh_v <= 1'b0; dr_on <= 1'b0; dr_k <= '0; sh_outlast <= 1'b0;
    end else if (!running) begin
      sh_v <= 1'b0; dr_on <= 1'b0; dr_k <= '0; sh_outlast <= 1'b0;
    end else if (copy) begin
      sh_v <= 1'b1; dr_on <= 1'b1; dr_k <= '0;
      sh_slot <= os_cslot; sh_pr <= os_pr; sh_pc <= os_pc; sh_rmask <= os_rmask; sh_cmask <= os_cmask;
      sh_outlast <= os_outlast;
    end else if (dr_on) begin
      if (dr_k + 16'd1 == dcyc) dr_on <= 1'b0;
      dr_k <= dr_k + 16'd1;
    end
  end

  always_comb begin
    if (ws)                 out_done = running && wb_v && wb_outlast;
    else if (dw == 16'd0)   out_done = running && os_v && os_last && os_outlast;
    else                    out_done = running && dr_on && dr_k + 16'd1 == dcyc && sh_outlast;
  end

  // ---- store read ----
  always_comb begin
    for (int n = 0; n < NT; n++)
      st_data[32*n +: 32] = cbuf[32'(st_row) % R][n % C][caddr(st_slot, 32'(st_row) / R, n / C)];
  end

  logic unused_ok;
  assign unused_ok = &{1'b0, wdb, ov[0][0], sh_pr, os_res};
endmodule
