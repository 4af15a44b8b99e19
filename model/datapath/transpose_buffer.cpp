#include "datapath/transpose_buffer.hpp"

#include <string>

#include "util/error.hpp"

namespace hifsim::dp {

namespace {
void check(bool ok, const char* name, int v, const char* range) {
  if (!ok) throw Error(std::string("transpose_buffer: ") + name + " = " + std::to_string(v) + ": must be " + range);
}
}  // namespace

TransposeBuffer::TransposeBuffer(int tile, int width, int stages) : t_(tile), w_(width), stages_(stages) {
  check(tile > 0 && transpose_tile_ok(static_cast<uint64_t>(tile)), "T", tile, "a power of two in 2..64");
  check(width > 0 && transpose_width_ok(static_cast<uint64_t>(width)), "W", width, "in 1..32");
  check(stages == 0 || stages == 1, "STAGES", stages, "0 or 1");
  mask_ = element_mask(width);
  mem_.assign(static_cast<size_t>(2 * t_ * t_), 0);
  rank_.assign(static_cast<size_t>(t_), 0);
  read_buf_.assign(static_cast<size_t>(t_), 0);
}

void TransposeBuffer::transpose(const uint32_t* rows, int tile, int width, uint32_t* cols) {
  const uint32_t m = element_mask(width);
  for (int k = 0; k < tile; ++k)
    for (int i = 0; i < tile; ++i) cols[k * tile + i] = rows[i * tile + k] & m;
}

void TransposeBuffer::reset() {
  full_[0] = full_[1] = false;
  rank_valid_ = false;
  wb_ = rb_ = wr_ = rc_ = 0;
}

void TransposeBuffer::gather(uint32_t* col) const {
  for (int i = 0; i < t_; ++i) col[i] = mem_[static_cast<size_t>((rb_ * t_ + i) * t_ + rc_)];
}

const uint32_t* TransposeBuffer::col() const {
  if (stages_) return rank_.data();
  gather(read_buf_.data());
  return read_buf_.data();
}

void TransposeBuffer::edge(bool in_valid, const uint32_t* row, bool out_ready) {
  // Every decision from the state before the edge, as the RTL's registers see it.
  const bool fire_in = in_valid && in_ready();
  const bool buf_valid = full_[rb_];
  const bool rank_ready = stages_ ? (!rank_valid_ || out_ready) : out_ready;
  const bool fire_rd = buf_valid && rank_ready;
  if (stages_ && rank_ready) {
    rank_valid_ = buf_valid;
    if (fire_rd) gather(rank_.data());
  }
  if (fire_rd && ++rc_ == t_) {
    rc_ = 0;
    full_[rb_] = false;
    rb_ ^= 1;
  }
  // A write and a read in one cycle are in different banks: the write bank is not full, the read
  // bank is.
  if (fire_in) {
    if (row)
      for (int e = 0; e < t_; ++e) mem_[static_cast<size_t>((wb_ * t_ + wr_) * t_ + e)] = row[e] & mask_;
    if (++wr_ == t_) {
      wr_ = 0;
      full_[wb_] = true;
      wb_ ^= 1;
    }
  }
}

}  // namespace hifsim::dp
