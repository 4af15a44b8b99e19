// array_opbuf: a double-buffered operand buffer (A or B) of the calibration matrix unit, split into
// `nb` banks (a run-time setting, 1..NBMAX) with one read port each: block (slot, row, col) --
// col = the K block within the tile -- lives in bank (row + col) mod nb. This is what makes bank
// conflicts cost cycles (buffers.a/b.banks in the TLM config, docs/tlm.md section 4).
//
// A read is a gather of NREQ blocks whose (row + col) are consecutive: requester i reads
// (row0 + i, col0) (dir = 0: the R rows of an OS pass, the C weight rows of a WS PE row) or
// (row0, col0 + i) (dir = 1: the R blocks of one A row in a WS fold). Requester i's bank is
// (bank0 + i) mod nb, so each bank serves its requesters one per cycle: requester i in gather
// cycle floor(i / nb); a gather takes ceil(NREQ / nb) cycles. In cycle g, bank b reads for
// requester g * nb + ((b - bank0) mod nb); served[i] says which requesters got their block.
// Storage is NBMAX full-size arrays (behavioural; a bank only ever holds its own blocks).
module array_opbuf #(
  parameter int WB    = 288,
  parameter int ROWS  = 8,     // rows per slot (the residual rows included)
  parameter int KTU   = 4,     // blocks per row
  parameter int NREQ  = 4,
  parameter int NBMAX = 4
) (
  input  logic              clk,
  input  logic [7:0]        nb,
  // write (a DMA response)
  input  logic              we,
  input  logic              wslot,
  input  logic [7:0]        wrow,
  input  logic [7:0]        wcol,
  input  logic [WB-1:0]     wdata,
  // gather read
  input  logic              rslot,
  input  logic [7:0]        rrow0,
  input  logic [7:0]        rcol0,
  input  logic              rdir,
  input  logic [7:0]        g,
  output logic [NREQ*WB-1:0] rdata,
  output logic [NREQ-1:0]   served
);
  localparam int D  = 2 * ROWS * KTU;
  localparam int DA = $clog2(D);

  logic [WB-1:0] bank [NBMAX][D];

  // A gather may reach past the tile (a WS fold's blocks beyond K, rows beyond a partial tile):
  // those requesters' blocks are never used; they read an address inside the bank.
  function automatic logic [DA-1:0] addr(input logic s, input int row, input int col);
    addr = (row < ROWS && col < KTU) ? DA'((32'(s) * ROWS + row) * KTU + col) : '0;
  endfunction

  always_ff @(posedge clk) begin
    if (we) bank[(32'(wrow) + 32'(wcol)) % 32'(nb)][addr(wslot, 32'(wrow), 32'(wcol))] <= wdata;
  end

  logic [WB-1:0] bank_q [NBMAX];
  always_comb begin
    int bank0, i;
    bank0 = (32'(rrow0) + 32'(rcol0)) % 32'(nb);
    for (int b = 0; b < NBMAX; b++) begin
      bank_q[b] = '0;
      i = 32'(g) * 32'(nb) + (b - bank0 + 32'(nb)) % 32'(nb);
      if (b < 32'(nb) && i < NREQ)
        bank_q[b] = bank[b][addr(rslot, 32'(rrow0) + (rdir ? 0 : i), 32'(rcol0) + (rdir ? i : 0))];
    end
    for (int k = 0; k < NREQ; k++) begin
      served[k] = k / 32'(nb) == 32'(g);
      rdata[k*WB +: WB] = bank_q[(bank0 + k) % 32'(nb)];
    end
  end
endmodule
