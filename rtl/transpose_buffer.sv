// transpose_buffer: the transpose buffer of the transposed-operand path (docs/training.md "The
// transpose buffer"), cycle-exact with hifsim::dp::TransposeBuffer (model/datapath/
// transpose_buffer.hpp, the contract): a double-buffered T x T tile of W-bit elements; one row of
// T elements per write beat in, one column of T elements per read beat out, so a wgrad operand
// read row by row reaches the quantizer column by column.
//
// Ports:
//   row  [T*W-1:0]  write beat: element e of the row at [W*e +: W]
//   col  [T*W-1:0]  read beat k of a tile: element i = element k of the tile's write beat i
//
// Storage: 2 banks x T rows of T*W bits (mem_q[b*T + r]), flip-flops with a row write enable; the
// elements are never reset (a bank is read only while it is full).
// Control (all registers, reset by rst_n to: both banks empty, both sides at bank 0, row and
// column 0, output rank empty; the rows of a partly written tile are dropped):
//   full_q[b]   bank b holds a whole tile: set by the write of its row T-1, cleared by the read of
//               its column T-1
//   wb_q, wr_q  the bank and row the next write beat goes to; in_ready = !full_q[wb_q]
//   rb_q, rc_q  the bank and column offered; the read side is valid while full_q[rb_q]
// A write and a read in one cycle are always in different banks (one is full, the other not).
// Pipeline: STAGES = 1 puts one hifsim_pipe_reg rank (u_cut_col) after the column mux (the T:1
// element select and the bank select), STAGES = 0 leaves the mux on the output port; cut table
// and range from hifsim_pkg (transpose_buffer_cut / _stages_ok, generated from the description).
module transpose_buffer #(
  parameter int T      = 16,
  parameter int W      = 32,
  parameter int STAGES = 1
) (
  input  logic           clk,
  input  logic           rst_n,
  input  logic           in_valid,
  output logic           in_ready,
  input  logic [T*W-1:0] row,
  output logic           out_valid,
  input  logic           out_ready,
  output logic [T*W-1:0] col
);
  localparam int CW = (T > 1) ? $clog2(T) : 1;   // row / column counter bits

  if (!hifsim_pkg::transpose_buffer_stages_ok(STAGES)) begin : g_bad_stages
    $error("transpose_buffer: STAGES must be 0 or 1");
  end
  if (T < hifsim_pkg::TPB_TILE_MIN || T > hifsim_pkg::TPB_TILE_MAX || (T & (T - 1)) != 0) begin : g_bad_t
    $error("transpose_buffer: T must be a power of two in 2..64");
  end
  if (W < 1 || W > hifsim_pkg::TPB_WIDTH_MAX) begin : g_bad_w
    $error("transpose_buffer: W must be in 1..32");
  end

  // ---- control ----
  logic [1:0]    full_q;
  logic          wb_q, rb_q;
  logic [CW-1:0] wr_q, rc_q;
  logic          fire_in, buf_valid, rd_ready, fire_rd;
  assign in_ready  = !full_q[wb_q];
  assign fire_in   = in_valid && in_ready;
  assign buf_valid = full_q[rb_q];
  assign fire_rd   = buf_valid && rd_ready;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      full_q <= 2'b00;
      wb_q   <= 1'b0;
      rb_q   <= 1'b0;
      wr_q   <= '0;
      rc_q   <= '0;
    end else begin
      if (fire_rd) begin
        rc_q <= rc_q + 1'b1;
        if (rc_q == CW'(T - 1)) begin
          full_q[rb_q] <= 1'b0;
          rb_q         <= !rb_q;
        end
      end
      if (fire_in) begin
        wr_q <= wr_q + 1'b1;
        if (wr_q == CW'(T - 1)) begin
          full_q[wb_q] <= 1'b1;
          wb_q         <= !wb_q;
        end
      end
    end
  end

  // ---- storage: a row write enable per bank and row ----
  logic [T*W-1:0] mem_q [2*T];
  for (genvar b = 0; b < 2; b++) begin : g_bank
    for (genvar r = 0; r < T; r++) begin : g_row
      always_ff @(posedge clk) begin
        if (fire_in && wb_q == b[0] && wr_q == CW'(r)) mem_q[b*T + r] <= row;
      end
    end
  end

  // ---- read: element i of the offered column is element rc_q of row i of bank rb_q ----
  logic [T*W-1:0] col_d;
  for (genvar i = 0; i < T; i++) begin : g_col
    logic [T*W-1:0] r_sel;
    assign r_sel = rb_q ? mem_q[T + i] : mem_q[i];
    assign col_d[W*i +: W] = r_sel[W*rc_q +: W];
  end

  hifsim_pipe_reg #(.W(T*W), .EN(hifsim_pkg::transpose_buffer_cut(STAGES, 1))) u_cut_col (
    .clk, .rst_n, .up_valid(buf_valid), .up_ready(rd_ready), .up_data(col_d),
    .dn_valid(out_valid), .dn_ready(out_ready), .dn_data(col));
endmodule
