// tile_props: transpose_buffer's tile protocol and its transpose, checked by ABC pdr (unbounded,
// formal/prove.py) against a reference written from the unit's contract (the header of
// rtl/transpose_buffer.sv, docs/training.md "The transpose buffer"), not from its registers:
//
//   tiles     every T accepted rows (in_valid && in_ready) make one tile; a tile's T columns are
//             delivered (out_valid && out_ready) after it is whole, tiles in the order written
//   protocol  no column before its tile is whole (out_valid implies a pending tile); at most two
//             whole tiles held, plus at STAGES = 1 the one whose last column waits in the output
//             rank; in_ready = (fewer than two tiles pending) at STAGES 0, and at STAGES 1 in_ready
//             whenever fewer than two are pending (with two it may be high: the older one's bank
//             is free once its last column is in the rank)
//   latency   STAGES = 0: out_valid = (a whole tile pending); STAGES = 1: a cycle with a whole tile
//             pending and out_valid low is followed by one with out_valid high (the empty output
//             rank loads the tile's next column)
//   transpose column k of a tile, element i = element k of the tile's row i: checked at one
//             symbolic (i0, k0), chosen freely in the first cycle and then fixed, so the proof
//             holds for every pair; the value written there is kept per pending tile
//   reset     rst_n low empties the unit (the rows of a partly written tile are dropped) and
//             out_valid is low while it is held; every property again from the next cycle
//
// The element memory is never reset: the proof starts from arbitrary memory contents
// (write_aiger -zinit), so a column that reads a row not written in its tile is refuted.
// DATA = 0 leaves the transpose out (the protocol alone: the memory is then outside the
// properties' cone, which is what lets pdr close at the default T = 16).
module tile_props #(
  parameter int T      = 4,
  parameter int W      = 2,
  parameter int STAGES = 1,
  parameter int DATA   = 1
) (
  input logic           clk,
  input logic           rst_n,
  input logic           in_valid,
  input logic           in_ready,
  input logic [T*W-1:0] row,
  input logic           out_valid,
  input logic           out_ready,
  input logic [T*W-1:0] col,
  input logic [$clog2(T)-1:0] i0_in,   // the symbolic element (row i0, column k0), read in the
  input logic [$clog2(T)-1:0] k0_in    // first cycle
);
  localparam int CW = $clog2(T);
  localparam int QN = 2 + STAGES;     // pending tiles at most
  logic          first = 1'b1;
  logic [CW-1:0] i0, k0;
  logic [CW-1:0] rw, cd;              // rows of the tile being written; columns delivered of the oldest
  logic [1:0]    pend;                // whole tiles not yet fully delivered
  logic [W-1:0]  wrec;                // the tile being written: its element (i0, k0), once row i0 is in
  logic [QN*W-1:0] q;                 // q[0 +: W]: the oldest pending tile's element (i0, k0)
  logic          push, pop, done_in, done_out;
  logic          late = 1'b0;         // the last cycle had a whole tile pending and out_valid low
  logic [W-1:0]  in_elem;
  assign push     = in_valid && in_ready;
  assign pop      = out_valid && out_ready;
  assign done_in  = push && rw == CW'(T - 1);
  assign done_out = pop && cd == CW'(T - 1);
  assign in_elem  = row[W*k0 +: W];

  always_ff @(posedge clk) begin
    first <= 1'b0;
    late  <= rst_n && pend != 0 && !out_valid;
    if (first) begin
      i0 <= i0_in;
      k0 <= k0_in;
    end
    if (!rst_n) begin
      rw   <= '0;
      cd   <= '0;
      pend <= '0;
    end else begin
      if (push) rw <= rw + 1'b1;
      if (pop) cd <= cd + 1'b1;
      if (push && rw == i0) wrec <= in_elem;
      if (done_out)
        for (int s = 0; s + 1 < QN; s++) q[W*s +: W] <= q[W*(s + 1) +: W];
      if (done_in)
        for (int s = 0; s < QN; s++)
          if (2'(s) == pend - 2'(done_out)) q[W*s +: W] <= (rw == i0) ? in_elem : wrec;
      pend <= pend + 2'(done_in) - 2'(done_out);
    end
  end

  always_comb begin
    if (first) assume (!rst_n);
    if (!rst_n) assert (!out_valid);
    if (!first && rst_n) begin
      assert (pend <= 2'(QN));
      assert (!out_valid || pend != 0);
      assert (in_ready == (pend < 2) || (STAGES > 0 && pend == 2 && in_ready));
      if (STAGES == 0) assert (out_valid == (pend != 0));
      if (late) assert (out_valid);
      if (DATA != 0 && pop && cd == k0) assert (col[W*i0 +: W] == q[0 +: W]);
    end
  end
endmodule

// The job's top: the unit with every input free, its ports tied to the properties.
module tile_top #(
  parameter int T      = 4,
  parameter int W      = 2,
  parameter int STAGES = 1,
  parameter int DATA   = 1
) (
  input logic           clk,
  input logic           rst_n,
  input logic           in_valid,
  input logic [T*W-1:0] row,
  input logic           out_ready,
  input logic [$clog2(T)-1:0] i0_in,
  input logic [$clog2(T)-1:0] k0_in
);
  logic           in_ready, out_valid;
  logic [T*W-1:0] col;
  transpose_buffer #(.T(T), .W(W), .STAGES(STAGES)) dut (
    .clk, .rst_n, .in_valid, .in_ready, .row, .out_valid, .out_ready, .col);
  tile_props #(.T(T), .W(W), .STAGES(STAGES), .DATA(DATA)) props (
    .clk, .rst_n, .in_valid, .in_ready, .row, .out_valid, .out_ready, .col, .i0_in, .k0_in);
endmodule
