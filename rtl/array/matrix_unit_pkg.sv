// matrix_unit_pkg: the PE types of the calibration matrix unit (rtl/array/matrix_unit_top.sv)
// and the size of one operand block of each, in memory and in the operand buffers.
//
// A block is what one PE consumes per issue along K: W elements of one operand row, stored as
// the packed records of model/formats/packed.hpp, little-endian (the memory image the TLM host
// writes, perf::prepare_operands). Its bits are also the memory word and one bus beat, so that
// configs/units/rtl/*.yaml have memory.bytes_per_cycle = block bytes.
//
//   PE type         dot unit                 W    block                          bits
//   PE_HIF4         hif4_dot64               64   one HiF4 unit (layout A)        288
//   PE_HIF8         hif8_dot #(N, W, STICKY) N    N HiF8 codes                    8 N
//   PE_NVFP4        nvfp4_dot64              64   4 records {E4M3, 8 B codes}     288
//   PE_MXFP4        mxfp4_dot64              64   2 records {E8M0, 16 B codes}    272
//   PE_MXFP8        mxfp8_dot32 (E4M3)       32   1 record {E8M0, 32 codes}       264
//   PE_BF16         bf16_dot64               64   64 BF16 values                  1024
//   PE_HIF4_SPARSE  hif4_dot64 + sparse_residual_add (the 2:4 residual steps)     288
//
// Yosys 0.23 subset (../shared/reference/toolchain.md section 5): use as matrix_unit_pkg::NAME.
package matrix_unit_pkg;
  /* verilator lint_off UNUSEDPARAM */
  localparam int PE_HIF4        = 0;
  localparam int PE_HIF8        = 1;
  localparam int PE_NVFP4       = 2;
  localparam int PE_MXFP4       = 3;
  localparam int PE_MXFP8       = 4;
  localparam int PE_BF16        = 5;
  localparam int PE_HIF4_SPARSE = 6;
  /* verilator lint_on UNUSEDPARAM */

  // Bits of one block (= one memory word) of PE type `pe` (hif8_lanes: the HiF8 N).
  function automatic int block_bits(input int pe, input int hif8_lanes);
    case (pe)
      PE_HIF8:  block_bits = 8 * hif8_lanes;
      PE_MXFP4: block_bits = 272;
      PE_MXFP8: block_bits = 264;
      PE_BF16:  block_bits = 1024;
      default:  block_bits = 288;  // HiF4 (with or without the residual path), NVFP4
    endcase
  endfunction

  // The instruction words (matrix_unit_top's programs; array_sequencer makes the same words).
  // A DMA job: a tile load (kind 0 A, 1 B) or an output-tile store (2), waiting until `waitn` steps
  // (stores: output tiles) are done; rows row0 .. row0 + rows - 1; loads: blocks k0 .. k0 + kn - 1
  // of each row, res = the residual rows too (A); stores: k0 = values per row, no = the N tile.
  typedef struct packed {
    logic        res;
    logic [7:0]  no;
    logic [7:0]  kn;
    logic [7:0]  k0;
    logic [7:0]  rows;
    logic [11:0] row0;
    logic [15:0] waitn;
    logic        slot;
    logic [1:0]  kind;
  } job_t;
  // A step: operand and accumulator slots, its extent (ml x nl outputs, kb blocks), cont (add to
  // the partial sums), last (its output tile is complete), res (residual step); need / need_b:
  // DMA jobs done before the step / before its B tile (the WS weight loader).
  typedef struct packed {
    logic [1:0]  pad;
    logic [15:0] need_b;
    logic [15:0] need;
    logic        res;
    logic        last;
    logic        cont;
    logic [7:0]  kb;
    logic [7:0]  nl;
    logic [7:0]  ml;
    logic        cslot;
    logic        bslot;
    logic        aslot;
  } step_t;

  // One GEMM's shape and tiling as the sequencer's walks see it (registers SHAPE, LAYOUT, TILE and
  // MODE.residual of matrix_unit_top): M x N outputs, KB blocks per operand row, tiles of mt x nt
  // outputs and ktu blocks, res = the shared residual phase (every output tile's K steps twice).
  typedef struct packed {
    logic [15:0] M;
    logic [15:0] N;
    logic [15:0] KB;
    logic [7:0]  mt;
    logic [7:0]  nt;
    logic [7:0]  ktu;
    logic        res;
  } shape_t;

  // FP32 values of one output row per store beat are packed contiguously: a row of n values is
  // ceil(32 n / block_bits) beats (memory.bytes_per_cycle = block bytes in the TLM config).
endpackage
