// The timing of one operand pass of a training step (docs/training.md "Training-step timing"):
// before a training GEMM runs, each of its operands is read from memory in high precision, through
// the transpose buffer when the GEMM reads it column-wise (dY^T and X^T of wgrad, W^T of dgrad),
// through the Hadamard unit when the recipe applies a random Hadamard transform along K, through
// the quantizer (round-to-nearest or stochastic), and written back quantized. The blocks are one
// pipelined stream: its time is the slowest of the memory bus and the blocks, plus the latencies
// of the first data and of the last write.
//
// Plain arithmetic on the unit's parameters, so a small case can be computed by hand (tests/tlm
// test_training_step). The split into quantize / rht / transpose cycles is marginal: rht is what
// the Hadamard unit adds to the same pass without it, transpose what the transpose adds on top.
#pragma once
#include <cstdint>

#include "perf/report.hpp"

namespace hifsim::perf {

// The training blocks beside the array (unit config section `training`, docs/tlm.md section 8).
struct PassBlocks {
  uint64_t bytes_per_cycle = 1, mem_latency = 0;  // the unit's memory
  uint64_t quant_elems_per_cycle = 64;            // quantizer.blocks_per_cycle x the dot width
  uint64_t quant_latency = 4;                     // quantizer.latency
  uint64_t rht_elems_per_cycle = 64;              // training.hadamard_elements_per_cycle
  uint64_t rht_latency = 4;                       // training.hadamard_latency
  uint64_t transpose_tile = 64;                   // training.transpose_tile: T x T elements (0: no buffer,
                                                  // the column-wise operand is read one element per transaction)
};

struct OperandPass {
  uint64_t rows = 0, k = 0;      // the operand as the GEMM reads it: rows x K, quantized along K
  uint64_t in_bytes = 4;         // bytes of one high-precision element in memory
  uint64_t out_bytes = 0;        // bytes of the quantized operand (rows x the unit's row bytes of K)
  bool rht = false;              // through the Hadamard unit
  bool transposed = false;       // stored K x rows: read column-wise
};

struct PassTiming {
  Cycles cycles;                 // total = fill + compute + memory_stall + drain
  // The marginal split: quantize = the same pass without the Hadamard unit and the transpose; rht
  // and transpose = what each adds (its latency to fill; a longer stream to compute when the pass
  // is then block-limited, else to memory_stall). Their totals add up to cycles.total (their
  // fields are a breakdown of the same total, which may differ from cycles' own: the quantize part
  // may wait for memory where the whole pass is block-limited).
  Cycles quantize, rht, transpose;
  uint64_t read_bytes = 0, write_bytes = 0;  // memory traffic
  uint64_t transpose_buffer_bytes = 0;  // bytes written into (and read out of) the transpose buffer
};

// The pass's stream: max(memory beats, elements / rate of each block in it) cycles, after a fill
// of mem_latency + the blocks' latencies (+ one T x T tile loaded into the transpose buffer) and
// before a drain of mem_latency (the last write's acknowledgement). Memory beats: a row-wise
// operand and the quantized output stream contiguously (ceil(bytes / bytes_per_cycle)); a
// transposed one is read in segments of T elements of each stored row (one beat count per
// segment), or one element per transaction without a transpose buffer -- never fewer beats than
// the row-wise read, so every marginal cycle count is >= 0.
PassTiming time_operand_pass(const PassBlocks& b, const OperandPass& p);

}  // namespace hifsim::perf
