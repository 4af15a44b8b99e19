#include "perf/operand_pass.hpp"

#include <algorithm>

#include "perf/tiling.hpp"

namespace hifsim::perf {
namespace {

// Beats to read a transposed operand (stored k rows of `rows` elements) in segments of T.
uint64_t transposed_read_beats(const PassBlocks& b, const OperandPass& p) {
  const uint64_t T = b.transpose_tile, bw = b.bytes_per_cycle;
  if (T == 0) return p.rows * p.k * ceil_div(p.in_bytes, bw);  // one element per transaction
  const uint64_t full = p.rows / T, rem = p.rows % T;
  return p.k * (full * ceil_div(T * p.in_bytes, bw) + (rem ? ceil_div(rem * p.in_bytes, bw) : 0));
}

Cycles stream_cycles(const PassBlocks& b, const OperandPass& p) {
  const uint64_t E = p.rows * p.k, bw = b.bytes_per_cycle;
  const uint64_t reads = p.transposed ? transposed_read_beats(b, p) : ceil_div(E * p.in_bytes, bw);
  const uint64_t mem = reads + ceil_div(p.out_bytes, bw);
  uint64_t blocks = ceil_div(E, b.quant_elems_per_cycle);
  uint64_t fill = b.mem_latency + b.quant_latency;
  if (p.rht) {
    blocks = std::max(blocks, ceil_div(E, b.rht_elems_per_cycle));
    fill += b.rht_latency;
  }
  if (p.transposed && b.transpose_tile) {
    const uint64_t T = b.transpose_tile;
    blocks = std::max(blocks, ceil_div(E, T));  // the buffer emits one column of T elements per cycle
    // The first column leaves once the first tile's rows are in: min(T, k) segments.
    fill += std::min(T, p.k) * ceil_div(std::min(T, p.rows) * p.in_bytes, bw);
  }
  Cycles c;
  c.fill = fill;
  c.compute = blocks;
  c.memory_stall = mem > blocks ? mem - blocks : 0;
  c.drain = b.mem_latency;
  c.total = c.fill + c.compute + c.memory_stall + c.drain;
  return c;
}

}  // namespace

// What going from pass `a` to the slower pass `b` adds, field by field (see PassTiming).
Cycles increment(const Cycles& a, const Cycles& b) {
  Cycles d;
  d.fill = b.fill - a.fill;
  d.drain = b.drain - a.drain;
  const uint64_t stream = (b.compute + b.memory_stall) - (a.compute + a.memory_stall);
  if (b.memory_stall == 0) d.compute = stream;
  else d.memory_stall = stream;
  d.total = b.total - a.total;
  return d;
}

PassTiming time_operand_pass(const PassBlocks& b, const OperandPass& p) {
  PassTiming t;
  t.cycles = stream_cycles(b, p);
  OperandPass plain = p;
  plain.rht = plain.transposed = false;
  OperandPass with_rht = p;
  with_rht.transposed = false;
  t.quantize = stream_cycles(b, plain);
  const Cycles r = stream_cycles(b, with_rht);
  t.rht = increment(t.quantize, r);
  t.transpose = increment(r, t.cycles);
  t.read_bytes = p.rows * p.k * p.in_bytes;
  t.write_bytes = p.out_bytes;
  if (p.transposed && b.transpose_tile) t.transpose_buffer_bytes = t.read_bytes;
  return t;
}

}  // namespace hifsim::perf
