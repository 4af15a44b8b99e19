// array_dma: the in-order DMA of the calibration matrix unit. It takes one job at a time (a tile
// load or an output-tile store, from the program or from array_sequencer) and makes one memory
// request per tile row, at most one per cycle, at most `outst` requests in flight (a run-time
// setting, 1..MAXOUT). A job starts when it is eligible (the step / output it waits for is done,
// decided by the top); its rows then leave back to back. These are the DMA equations of
// docs/tlm.md section 4 (q_j = max(q_{j-1}, t_e, done_{j-O})).
//
// Job: kind 0 = load A, 1 = load B, 2 = store; slot; row0 (first operand / output row); nrows;
// for loads ku0 / kun: first block and blocks per row in memory; `res` (A): nrows more rows from
// the residual operand, placed at buffer rows MT + i; for stores `no` (N tile) and nl (values per
// row). Memory layout (words): operand row r of A / B / the residual at base + r * kb_row;
// output row m, N tile no at c_base + m * c_row + no * c_tile.
//
// Request tag (MW bits): {job last row, kind[1:0], slot, buffer row[7:0]}.
module array_dma #(
  parameter int AW     = 13,
  parameter int MT     = 8,
  parameter int WB     = 288,
  parameter int MAXOUT = 16
) (
  input  logic          clk,
  input  logic          rst_n,
  input  logic          running,
  input  logic [7:0]    outst,
  input  logic [AW-1:0] a_base,
  input  logic [AW-1:0] b_base,
  input  logic [AW-1:0] r_base,
  input  logic [AW-1:0] c_base,
  input  logic [15:0]   kb_row,
  input  logic [15:0]   c_row,
  input  logic [15:0]   c_tile,
  // the current job
  input  logic          job_valid,
  input  logic          job_eligible,
  input  matrix_unit_pkg::job_t job,   // stores: job.k0 = values per row
  output logic          job_take,   // the job's last request leaves: next job
  // memory side
  output logic          req_valid,
  output logic          req_write,
  output logic [AW-1:0] req_addr,
  output logic [7:0]    req_beats,
  output logic [11:0]   req_meta,
  input  logic          rsp_done    // a request completed (its last response)
);
  localparam int QW = $clog2(MAXOUT + 1);
  logic [8:0]    row;       // request index within the job (residual rows follow the main rows)
  logic [QW-1:0] inflight;
  logic [8:0]    n_req;
  logic          is_res;
  logic [7:0]    r;         // operand row within the tile
  logic [7:0]    brow;      // buffer row

  assign n_req  = job.res ? {job.rows, 1'b0} : {1'b0, job.rows};
  assign is_res = job.res && row >= {1'b0, job.rows};
  assign r      = is_res ? 8'(row - {1'b0, job.rows}) : row[7:0];
  assign brow   = is_res ? 8'(MT) + r : r;

  assign req_valid = running && job_valid && job_eligible && (32'(inflight) < 32'(outst));
  assign job_take  = req_valid && (row + 9'd1 == n_req);
  assign req_write = job.kind == 2'd2;
  assign req_meta  = {job_take, job.kind, job.slot, brow};

  always_comb begin
    logic [AW-1:0] m;
    m = AW'(job.row0) + AW'(r);
    if (job.kind == 2'd2) begin
      req_addr  = c_base + AW'(m * AW'(c_row)) + AW'(AW'(job.no) * AW'(c_tile));
      req_beats = 8'((32 * 32'(job.k0) + WB - 1) / WB);
    end else begin
      req_addr  = (job.kind == 2'd1 ? b_base : (is_res ? r_base : a_base)) + AW'(m * AW'(kb_row)) + AW'(job.k0);
      req_beats = job.kn;
    end
  end

  logic unused_ok;
  assign unused_ok = &{1'b0, kb_row, c_row, c_tile, job.waitn};   // waitn: eligibility is the top's

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      row <= '0;
      inflight <= '0;
    end else if (!running) begin
      row <= '0;
      inflight <= '0;
    end else begin
      if (req_valid) row <= job_take ? '0 : row + 9'd1;
      inflight <= inflight + QW'(req_valid) - QW'(rsp_done);
    end
  end
endmodule
