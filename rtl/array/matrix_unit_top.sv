// matrix_unit_top: a small cycle-accurate matrix unit, used to calibrate the TLM model
// (docs/tlm.md section 11; not product RTL: the memory and the program memories are
// behavioural). An R x C array of dot-product PEs of one PE type (matrix_unit_pkg), both
// dataflows, banked double-buffered operand buffers, an accumulator buffer with an optional drain
// stage, an in-order DMA and a memory with a fixed latency:
//
//   memory (array_mem) <-> DMA (array_dma) -> operand buffers -> PE grid -> accumulator buffer
//                                            (array_core: issue, array_grid: PEs)      |
//   memory <------------------------ stores (+ NVFP4 epilogue) <------------------------+
//
// Compile-time parameters: the PE type and its dot unit (STAGES, HiF8 N / window / sticky), the
// array size and the buffer capacities (tiles up to MT x NT x KTU blocks). Run-time settings
// (registers, written while idle) are the timing fields of a TLM config: dataflow, weight double
// buffering, memory latency, outstanding requests, bank counts, drain width, slots -- so one
// Verilated model per PE type covers every calibrated configuration.
//
// Control comes from one of two sources (MODE.seq):
//   program    the host writes the schedule of perf::build_schedule as two instruction streams
//              (the DMA jobs; the steps, which the WS weight loader reads with its own pointer);
//   sequencer  array_sequencer derives the same kinds of jobs and steps itself from M, N, K and
//              the tile sizes: loop order, slot allocation, prefetch order, dependencies --
//              written from the hardware side, so the calibration also checks perf::build_schedule.
//
// Host interface: reg_we / reg_addr / reg_wdata (while idle): registers at 0..7, DMA program at
// 0x400 + j, step program at 0x800 + i (PROG_AW = 10); mem_* reads and writes memory words.
//   0 MODE    [0] ws [1] weight double buffer [2] seq [4:3] order (0 auto 1 mnk 2 nmk)
//             [5] residual [6] A double buffer [7] B double buffer [8] acc double buffer
//   1 TIMING  [7:0] latency (1..MAXLAT) [15:8] outstanding [23:16] banks A [31:24] banks B
//             (0: as many as the array reads) [47:32] drain width (0: write-through)
//   2 BASES   A [15:0], B [31:16], residual [47:32], C [63:48] (word addresses)
//   3 LAYOUT  [15:0] blocks per operand row (Kp / W) [31:16] words per C row [47:32] words per
//             C tile row
//   4 COUNTS  [15:0] jobs, [31:16] steps, [47:32] output tiles (program mode; the run ends when
//             the last output tile's store completes)
//   5 SHAPE   [15:0] M, [31:16] N (sequencer)   6 TILE [7:0] MT, [15:8] NT, [23:16] K tile (blocks)
//   7 SCALES  NVFP4 per-tensor decode scales: A [31:0], B [63:32] (FP32 bits)
// DMA instruction (matrix_unit_pkg::job_t): [1:0] kind (0 A, 1 B, 2 store) [2] slot [18:3] wait (steps done; stores:
//   output tiles done) [30:19] row0 [38:31] rows [46:39] first block (stores: values per row)
//   [54:47] blocks per row [62:55] N tile (stores) [63] residual rows (A).
// Step instruction (matrix_unit_pkg::step_t): [0] A slot [1] B slot [2] acc slot [10:3] ml [18:11] nl [26:19] kb
//   [27] cont [28] last (output tile complete) [29] residual [45:30] need (jobs done before the
//   step) [61:46] need_b (jobs done before its B tile: the WS weight loader).
module matrix_unit_top #(
  parameter int PE          = matrix_unit_pkg::PE_HIF4,
  parameter int HIF8_N      = 64,
  parameter int HIF8_W      = 0,
  parameter int HIF8_STICKY = 0,
  parameter int STAGES      = 3,
  parameter int R           = 4,
  parameter int C           = 4,
  parameter int MT          = 8,    // tile capacity: rows of A (a multiple of R)
  parameter int NT          = 8,    // rows of B (a multiple of C)
  parameter int KTU         = 8,    // blocks per tile row
  parameter int AW          = 14,   // memory words 2^AW
  parameter int MAXLAT      = 64,
  parameter int MAXOUT      = 16,
  parameter int PROG_AW     = 10,
  parameter int WB          = matrix_unit_pkg::block_bits(PE, HIF8_N)   // derived: do not set
) (
  input  logic                 clk,
  input  logic                 rst_n,
  input  logic                 start,
  output logic                 busy,
  output logic [31:0]          cycles,
  input  logic                 reg_we,
  input  logic [PROG_AW+1:0]   reg_addr,
  input  logic [63:0]          reg_wdata,
  input  logic                 mem_we,
  input  logic [AW-1:0]        mem_waddr,
  input  logic [WB-1:0]        mem_wdata,
  input  logic [AW-1:0]        mem_raddr,
  output logic [WB-1:0]        mem_rdata
);
  localparam int ARES = (PE == matrix_unit_pkg::PE_HIF4_SPARSE) ? 1 : 0;
  localparam int RV   = ((NT * 32 + WB - 1) / WB) * WB;   // a C row, padded to whole beats

  // ---- registers and programs ----
  logic [63:0] regs [8];
  logic [63:0] dma_prog [1 << PROG_AW];
  logic [63:0] cmp_prog [1 << PROG_AW];
  logic        running;
  always_ff @(posedge clk) begin
    if (!running && reg_we) begin
      case (reg_addr[PROG_AW+1:PROG_AW])
        2'd0:    regs[reg_addr[2:0]] <= reg_wdata;
        2'd1:    dma_prog[reg_addr[PROG_AW-1:0]] <= reg_wdata;
        default: cmp_prog[reg_addr[PROG_AW-1:0]] <= reg_wdata;
      endcase
    end
  end

  logic        ws, wdb, seq, res_on;
  logic [1:0]  order;
  logic [2:0]  slots_cfg;   // {acc, B, A} double buffered
  logic [7:0]  lat, outst, nba, nbb, fa, fb;
  logic [15:0] dw, dcyc, n_jobs, n_steps, n_outs;
  assign ws        = regs[0][0];
  assign wdb       = regs[0][1];
  assign seq       = regs[0][2];
  assign order     = regs[0][4:3];
  assign res_on    = regs[0][5];
  assign slots_cfg = regs[0][8:6];
  assign lat       = regs[1][7:0];
  assign outst     = regs[1][15:8];
  assign nba       = regs[1][23:16] == 8'd0 ? 8'(R) : regs[1][23:16];
  assign nbb       = regs[1][31:24] == 8'd0 ? 8'(C) : regs[1][31:24];
  assign dw        = regs[1][47:32];
  assign fa        = 8'((R + 32'(nba) - 1) / 32'(nba));
  assign fb        = 8'((C + 32'(nbb) - 1) / 32'(nbb));
  assign dcyc      = dw == 16'd0 ? 16'd0 : 16'((R * C + 32'(dw) - 1) / 32'(dw));
  assign n_jobs    = regs[4][15:0];
  assign n_steps   = regs[4][31:16];
  assign n_outs    = regs[4][47:32];

  // ---- run control and counters ----
  logic [31:0] cyc;
  logic [15:0] jobs_done, steps_done, outs_done, stores_done;
  logic        job_done, step_done, out_done, store_done;
  assign busy = running;
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      running <= 1'b0; cyc <= '0; cycles <= '0;
      jobs_done <= '0; steps_done <= '0; outs_done <= '0; stores_done <= '0;
    end else if (!running) begin
      if (start) begin
        running <= 1'b1; cyc <= '0;
        jobs_done <= '0; steps_done <= '0; outs_done <= '0; stores_done <= '0;
      end
    end else if (stores_done == n_outs) begin
      // The last output tile's store completed in the previous cycle: the run took `cyc` cycles.
      running <= 1'b0;
      cycles  <= cyc;
    end else begin
      cyc <= cyc + 32'd1;
      jobs_done   <= jobs_done + 16'(job_done);
      steps_done  <= steps_done + 16'(step_done);
      outs_done   <= outs_done + 16'(out_done);
      stores_done <= stores_done + 16'(store_done);
    end
  end

  // ---- control: the program or the sequencer ----
  logic [PROG_AW-1:0] dma_pc, cmp_pc, ld_pc;
  matrix_unit_pkg::job_t  dj, q_dj, x_dj;
  matrix_unit_pkg::step_t sj, lj, q_sj, q_lj, x_sj, x_lj;
  logic        dj_valid, sj_valid, lj_valid, q_dj_valid, q_sj_valid, q_lj_valid, q_sj_ready, q_lj_ready;
  logic        job_take, st_take, ld_take;
  assign dj = dma_prog[dma_pc];
  assign sj = cmp_prog[cmp_pc];
  assign lj = cmp_prog[ld_pc];
  assign dj_valid = 16'(dma_pc) < n_jobs;
  assign sj_valid = 16'(cmp_pc) < n_steps;
  assign lj_valid = 16'(ld_pc) < n_steps;
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      dma_pc <= '0; cmp_pc <= '0; ld_pc <= '0;
    end else if (!running) begin
      dma_pc <= '0; cmp_pc <= '0; ld_pc <= '0;
    end else begin
      if (job_take) dma_pc <= dma_pc + PROG_AW'(1);
      if (st_take)  cmp_pc <= cmp_pc + PROG_AW'(1);
      if (ld_take)  ld_pc  <= ld_pc + PROG_AW'(1);
    end
  end

  logic        x_dj_valid, x_sj_valid, x_lj_valid, x_sj_ready, x_lj_ready;
  matrix_unit_pkg::shape_t shape;
  always_comb begin
    shape.M   = regs[5][15:0];
    shape.N   = regs[5][31:16];
    shape.KB  = regs[3][15:0];
    shape.mt  = regs[6][7:0];
    shape.nt  = regs[6][15:8];
    shape.ktu = regs[6][23:16];
    shape.res = res_on;
  end
  array_sequencer #(.R(R), .C(C)) u_seq (
    .clk, .rst_n, .running(running && seq),
    .shape, .order_cfg(order), .slots_cfg,
    .job_valid(x_dj_valid), .job(x_dj), .job_take, .job_done,
    .st_valid(x_sj_valid), .st(x_sj), .st_ready(x_sj_ready), .st_take,
    .ld_valid(x_lj_valid), .ld(x_lj), .ld_ready(x_lj_ready), .ld_take);

  assign q_dj_valid = seq ? x_dj_valid : dj_valid;
  assign q_dj       = seq ? x_dj : dj;
  assign q_sj_valid = seq ? x_sj_valid : sj_valid;
  assign q_sj       = seq ? x_sj : sj;
  assign q_lj_valid = seq ? x_lj_valid : lj_valid;
  assign q_lj       = seq ? x_lj : lj;
  assign q_sj_ready = seq ? x_sj_ready : jobs_done >= q_sj.need;
  assign q_lj_ready = seq ? x_lj_ready : jobs_done >= q_lj.need_b;

  // ---- DMA and memory ----
  logic          eligible, req_valid, req_write, bus_valid, bus_write, rsp_valid, rsp_write, rsp_last;
  logic [AW-1:0] req_addr;
  logic [7:0]    req_beats, bus_beat, rsp_beat;
  logic [11:0]   req_meta, bus_meta, rsp_meta;
  logic [WB-1:0] bus_wdata, rsp_data;
  assign eligible = (q_dj.kind == 2'd2) ? outs_done >= q_dj.waitn : steps_done >= q_dj.waitn;

  array_dma #(.AW(AW), .MT(MT), .WB(WB), .MAXOUT(MAXOUT)) u_dma (
    .clk, .rst_n, .running, .outst,
    .a_base(AW'(regs[2][15:0])), .b_base(AW'(regs[2][31:16])), .r_base(AW'(regs[2][47:32])),
    .c_base(AW'(regs[2][63:48])), .kb_row(regs[3][15:0]), .c_row(regs[3][31:16]), .c_tile(regs[3][47:32]),
    .job_valid(q_dj_valid), .job_eligible(eligible), .job(q_dj), .job_take,
    .req_valid, .req_write, .req_addr, .req_beats, .req_meta, .rsp_done(rsp_valid && rsp_last));

  array_mem #(.WB(WB), .AW(AW), .MAXLAT(MAXLAT), .QD(MAXOUT), .MW(12)) u_mem (
    .clk, .rst_n, .running, .lat,
    .req_valid, .req_write, .req_addr, .req_beats, .req_meta,
    .bus_valid, .bus_write, .bus_beat, .bus_meta, .bus_wdata,
    .rsp_valid, .rsp_write, .rsp_last, .rsp_beat, .rsp_meta, .rsp_data,
    .host_we(mem_we), .host_waddr(mem_waddr), .host_wdata(mem_wdata), .host_raddr(mem_raddr), .host_rdata(mem_rdata));

  // A request tag is {job's last request, kind, slot, buffer row}.
  assign job_done   = rsp_valid && rsp_last && rsp_meta[11];
  assign store_done = job_done && rsp_meta[10:9] == 2'd2;

  // ---- compute ----
  logic [NT*32-1:0] row_vals;
  array_core #(.PE(PE), .HIF8_N(HIF8_N), .HIF8_W(HIF8_W), .HIF8_STICKY(HIF8_STICKY), .STAGES(STAGES), .WB(WB),
               .R(R), .C(C), .MT(MT), .NT(NT), .KTU(KTU), .ARES(ARES)) u_core (
    .clk, .rst_n, .running, .ws, .wdb, .nba, .nbb, .fa, .fb, .dw, .dcyc,
    .st_valid(q_sj_valid), .st_ready(q_sj_ready), .st(q_sj), .st_take,
    .ld_valid(q_lj_valid), .ld_ready(q_lj_ready), .ld(q_lj),
    .ld_take,
    .a_we(rsp_valid && !rsp_write && rsp_meta[10:9] == 2'd0), .b_we(rsp_valid && !rsp_write && rsp_meta[10:9] == 2'd1),
    .w_slot(rsp_meta[8]), .w_row(rsp_meta[7:0]), .w_col(rsp_beat), .w_data(rsp_data),
    .out_done, .rd_slot(bus_meta[8]), .rd_row(bus_meta[7:0]), .rd_data(row_vals));
  assign step_done = st_take;

  // ---- stores: the output row as FP32 values (NVFP4: times alpha), packed into beats ----
  logic [31:0]   alpha;
  logic [RV-1:0] row_bits;
  array_fp32_mul u_alpha (.a(regs[7][31:0]), .b(regs[7][63:32]), .r(alpha));
  for (genvar n = 0; n < NT; n++) begin : g_epi
    logic [31:0] v, scaled;
    assign v = row_vals[32*n +: 32];
    if (PE == matrix_unit_pkg::PE_NVFP4) begin : g_nv
      array_fp32_mul u_mul (.a(v), .b(alpha), .r(scaled));
    end else begin : g_plain
      assign scaled = v;
    end
    // NaN leaves as the canonical 0x7FC00000 (dp::epilogue).
    assign row_bits[32*n +: 32] = (scaled[30:23] == 8'hFF && scaled[22:0] != 23'd0) ? 32'h7FC0_0000 : scaled;
  end
  if (RV > NT * 32) begin : g_pad
    assign row_bits[RV-1:NT*32] = '0;
  end
  assign bus_wdata = row_bits[32'(bus_beat) * WB +: WB];

`ifdef HIFSIM_CALIB_TRACE
  // Schedule trace (cmake -DHIFSIM_CALIB_TRACE=ON, docs/tlm.md section 11): one line per DMA job
  // taken and per step issued, with the run's cycle, to compare the sequencer's schedule with the
  // program's cycle by cycle.
  always_ff @(posedge clk) begin
    if (running && job_take)
      $display("trace %0d job kind %0d slot %0d wait %0d row0 %0d rows %0d k0 %0d", cyc, q_dj.kind, q_dj.slot,
               q_dj.waitn, q_dj.row0, q_dj.rows, q_dj.k0);
    if (running && st_take)
      $display("trace %0d step a %0d b %0d c %0d ml %0d nl %0d kb %0d last %0d", cyc, q_sj.aslot, q_sj.bslot,
               q_sj.cslot, q_sj.ml, q_sj.nl, q_sj.kb, q_sj.last);
    if (running && ld_take) $display("trace %0d wload b %0d", cyc, q_lj.bslot);
  end
`endif

  logic unused_ok;
  assign unused_ok = &{1'b0, bus_valid, bus_write, bus_meta[11:9], regs[0][63:9], regs[1][63:48], regs[3][63:48],
                       regs[4][63:48], regs[5][63:32], regs[6][63:24], alpha, slots_cfg, res_on};
endmodule
