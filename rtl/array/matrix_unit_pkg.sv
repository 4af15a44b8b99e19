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

  // FP32 values of one output row per store beat are packed contiguously: a row of n values is
  // ceil(32 n / block_bits) beats (memory.bytes_per_cycle = block bytes in the TLM config).
endpackage
