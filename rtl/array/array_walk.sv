// array_walk: walks the steps of a GEMM in the order the calibration matrix unit runs them
// (array_sequencer): output tiles in loop order (nmk = 0: M tiles outer, N tiles inner; 1: the
// reverse), and for each its ks K steps (ks = tk, or 2 tk with the shared residual: the main K
// steps, then the residual ones), K innermost. `adv` moves to the next step; `done` once past the
// last. Outputs are the current step's tile coordinates and extents.
//
// rep: this is the first step of an inner-loop iteration other than the first and the last one
// (N tile for mnk, M tile for nmk) and the outer operand's K tiles fit `kslots` slots, so they are
// all resident from the first iteration on. `skip` (with adv, when rep) then jumps to the first
// step of the last iteration instead of the next step: array_loadwalk skips, in one cycle, a run
// of steps that can only hit (walking them one per cycle let the load walk fall behind the DMA).
module array_walk (
  input  logic        clk,
  input  logic        rst_n,
  input  logic        run,
  input  logic        nmk,
  input  matrix_unit_pkg::shape_t shape,
  input  logic        adv,
  input  logic        skip,
  input  logic [1:0]  kslots,
  output logic        done,
  output logic [15:0] idx,     // step index
  output logic [15:0] out,     // output-tile index in loop order
  output logic [7:0]  mo,
  output logic [7:0]  no,
  output logic [7:0]  ko,
  output logic        rs,      // residual step
  output logic        first,   // first / last step of its output tile
  output logic        last,
  output logic [15:0] m0,
  output logic [7:0]  ml,
  output logic [15:0] n0,
  output logic [7:0]  nl,
  output logic [15:0] k0,      // in blocks
  output logic [7:0]  kl
);
  logic [7:0] tm, tn, tk, ks, j;
  assign tm = 8'((32'(shape.M) + 32'(shape.mt) - 1) / 32'(shape.mt));
  assign tn = 8'((32'(shape.N) + 32'(shape.nt) - 1) / 32'(shape.nt));
  assign tk = 8'((32'(shape.KB) + 32'(shape.ktu) - 1) / 32'(shape.ktu));
  assign ks = shape.res ? 8'(2 * 32'(tk)) : tk;

  assign rs    = j >= tk;
  assign ko    = rs ? j - tk : j;
  assign first = j == 8'd0;
  assign last  = j + 8'd1 == ks;
  assign m0    = 16'(32'(mo) * 32'(shape.mt));
  assign n0    = 16'(32'(no) * 32'(shape.nt));
  assign k0    = 16'(32'(ko) * 32'(shape.ktu));
  assign ml    = (32'(shape.M) - 32'(m0) < 32'(shape.mt)) ? 8'(32'(shape.M) - 32'(m0)) : shape.mt;
  assign nl    = (32'(shape.N) - 32'(n0) < 32'(shape.nt)) ? 8'(32'(shape.N) - 32'(n0)) : shape.nt;
  assign kl    = (32'(shape.KB) - 32'(k0) < 32'(shape.ktu)) ? 8'(32'(shape.KB) - 32'(k0)) : shape.ktu;

  // The loop indices as inner / outer (N / M tile for mnk, M / N tile for nmk).
  logic [7:0] inner, outer, n_inner, n_outer, left;   // left: inner iterations after this one
  logic       rep;
  assign mo      = nmk ? inner : outer;
  assign no      = nmk ? outer : inner;
  assign n_inner = nmk ? tm : tn;
  assign n_outer = nmk ? tn : tm;
  assign left    = n_inner - inner - 8'd1;
  assign rep     = j == 8'd0 && inner != 8'd0 && left != 8'd0 && 32'(tk) <= 32'(kslots);

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      j <= '0; inner <= '0; outer <= '0; idx <= '0; out <= '0; done <= 1'b0;
    end else if (!run) begin
      j <= '0; inner <= '0; outer <= '0; idx <= '0; out <= '0; done <= 1'b0;
    end else if (adv && !done && skip && rep) begin
      idx   <= idx + 16'(32'(left) * 32'(ks));
      out   <= out + 16'(left);
      inner <= n_inner - 8'd1;
    end else if (adv && !done) begin
      idx <= idx + 16'd1;
      if (!last) j <= j + 8'd1;
      else begin
        j <= '0;
        out <= out + 16'd1;
        if (left != 8'd0) inner <= inner + 8'd1;
        else begin
          inner <= '0;
          if (outer + 8'd1 != n_outer) outer <= outer + 8'd1;
          else done <= 1'b1;
        end
      end
    end
  end
endmodule
