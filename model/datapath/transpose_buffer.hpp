// The transpose buffer of the transposed-operand path (rtl/transpose_buffer.sv; docs/training.md
// "The transpose buffer"): a double-buffered T x T tile of W-bit elements that takes one row of T
// elements per write beat and gives one column of T elements per read beat, so the wgrad operands
// reach the quantizer column-wise. The model is the unit's whole contract, cycle by cycle:
//
//   data     tile n's read beat k is column k of tile n: element i of the beat is element k of
//            the tile's write beat i (transpose()). Elements are W-bit patterns, never interpreted.
//   order    tiles leave in the order they came, a tile's columns 0, 1, ..., T - 1.
//   storage  two banks of T x T elements (ping-pong): while one bank is read column by column the
//            other fills row by row. A bank is "full" from the edge that writes its last row to
//            the edge that reads its last column.
//   in_ready = the bank being written is not full (a register: no path from out_ready).
//   the read side offers a column while the bank being read is full; with STAGES = 1 one
//            hifsim_pipe_reg rank holds the offered column (out_valid = its valid bit), with
//            STAGES = 0 the column is offered combinationally (out_valid = that bank is full).
//            No path from in_valid to out_valid in either case.
//   latency  a tile's first column is offered 1 + STAGES cycles after the edge that wrote its
//            last row; a full stream moves one row in and one column out per cycle.
//   reset    (rst_n low) empties both banks, points both sides at bank 0 and empties the output
//            rank: the rows of a partly written tile are dropped. The element storage is not
//            reset (it is only read while its bank is full).
#pragma once
#include <cstdint>
#include <vector>

namespace hifsim::dp {

constexpr int kTransposeTileMin = 2, kTransposeTileMax = 64;  // T: a power of two in this range
constexpr int kTransposeWidthMax = 32;                         // W: element bits, 1..32
// T and W inside the unit's range (the constructor's check; the cost lookup asks it too).
constexpr bool transpose_tile_ok(uint64_t t) {
  return t >= kTransposeTileMin && t <= kTransposeTileMax && (t & (t - 1)) == 0;
}
constexpr bool transpose_width_ok(uint64_t w) { return w >= 1 && w <= kTransposeWidthMax; }

class TransposeBuffer {
 public:
  // Throws hifsim::Error naming the parameter when T, W or STAGES is outside the unit's range.
  TransposeBuffer(int tile, int width, int stages);
  int tile() const { return t_; }
  int width() const { return w_; }
  int stages() const { return stages_; }

  // The W low bits of an element (1 <= W <= 32).
  static uint32_t element_mask(int width) { return width == 32 ? 0xFFFFFFFFu : (1u << width) - 1; }
  // The data contract: cols[k * T + i] = rows[i * T + k] masked to W bits (one tile).
  static void transpose(const uint32_t* rows, int tile, int width, uint32_t* cols);

  void reset();
  // The combinational outputs of the current cycle (registered state only).
  bool in_ready() const { return !full_[wb_]; }
  bool out_valid() const { return stages_ ? rank_valid_ : full_[rb_]; }
  // The offered column (T elements), meaningful while out_valid().
  const uint32_t* col() const;
  // The rising edge with the cycle's inputs; `row` (T elements) is read when in_valid (null: the
  // handshake only, the data are not kept).
  void edge(bool in_valid, const uint32_t* row, bool out_ready);

  // State, for the bench's coverage bins.
  int write_bank() const { return wb_; }
  int read_bank() const { return rb_; }
  int write_row() const { return wr_; }
  int read_column() const { return rc_; }
  bool bank_full(int b) const { return full_[b]; }

 private:
  void gather(uint32_t* col) const;  // column rc_ of bank rb_
  int t_, w_, stages_;
  uint32_t mask_;
  std::vector<uint32_t> mem_;        // bank b, row r, element e at (b * T + r) * T + e
  std::vector<uint32_t> rank_;       // the output rank's column (STAGES = 1)
  mutable std::vector<uint32_t> read_buf_;  // the combinational column (STAGES = 0)
  bool full_[2] = {false, false};
  bool rank_valid_ = false;
  int wb_ = 0, rb_ = 0, wr_ = 0, rc_ = 0;
};

}  // namespace hifsim::dp
