// hifsim_pkg: the one package of shared constants for the hifsim RTL.
//
// Every constant here mirrors a value of the C++ golden model (model/formats, model/datapath)
// or of docs/datapath.md. The test `cosim.pkg_constants` (cosim/common/test_pkg_constants.cpp)
// parses this file and compares each constant with the C++ value: edit both together.
//
// Yosys 0.23 / Verilator 5.006 subset (../shared/reference/toolchain.md section 5): use the
// constants as hifsim_pkg::NAME (no `import hifsim_pkg::*`).
package hifsim_pkg;
  // A unit uses only some of these constants.
  /* verilator lint_off UNUSEDPARAM */

  // ---- FP32 ----
  localparam int          FP32_EXP_BITS  = 8;
  localparam int          FP32_MANT_BITS = 23;
  localparam int          FP32_BIAS      = 127;
  localparam logic [31:0] FP32_QNAN      = 32'h7FC00000;  // the project's canonical NaN
  localparam logic [31:0] FP32_POS_INF   = 32'h7F800000;
  localparam logic [31:0] FP32_NEG_ZERO  = 32'h80000000;

  // ---- HiF4 unit (hif4.md section 1, layout (A)) ----
  localparam int          HIF4_ELEMS     = 64;
  localparam int          HIF4_L2_GROUPS = 8;    // E1_8 bits, 8 elements each
  localparam int          HIF4_L3_GROUPS = 16;   // E1_16 bits, 4 elements each
  localparam int          HIF4_META_BITS = 32;   // E6M2 | E1_8 << 8 | E1_16 << 16
  localparam int          HIF4_DATA_BITS = 256;  // element k at data[4k+3:4k]
  localparam int          HIF4_UNIT_BITS = 288;  // {data, meta}: the 36 bytes of layout (A), little-endian
  localparam int          E6M2_BIAS      = 48;
  localparam logic [7:0]  E6M2_NAN       = 8'hFF;
  localparam logic [7:0]  E6M2_MAX       = 8'hFE;

  // ---- HiF4 dot product: stage widths (docs/datapath.md section 1) ----
  localparam int HIF4_W_A       = 5;   // s0 a[k] = +-(m << E1_16), sign + 4-bit magnitude
  localparam int HIF4_W_P       = 9;   // s1 p[k] = aA * aB, two's complement
  localparam int HIF4_W_GROUP   = 12;  // s2 P[i] = sum of 8 products
  localparam int HIF4_W_SHIFTED = 14;  // s3 Q[i] = P[i] << (E1_8A + E1_8B)
  localparam int HIF4_W_I       = 17;  // s4 I = sum of Q[i]
  localparam int HIF4_W_SS      = 6;   // s5 SS = (4+MA)(4+MB), unsigned
  localparam int HIF4_W_X       = 8;   // s5 X = EA + EB - 104, two's complement
  localparam int HIF4_W_BIG     = 23;  // s6 big = I * SS
  localparam int HIF4_EXP_OFFSET = 104;  // 48 + 48 + 4 + 4

  // ---- HiF4 dot product: stage bounds (Hif4DotBounds in model/datapath/hif4_dot.hpp) ----
  localparam int HIF4_MAX_A        = 14;
  localparam int HIF4_MAX_P        = 196;
  localparam int HIF4_MAX_GROUP    = 1568;
  localparam int HIF4_MAX_SHIFTED  = 6272;
  localparam int HIF4_MAX_I        = 50176;
  localparam int HIF4_MAX_BIG      = 2458624;
  localparam int HIF4_SS_MIN       = 16;
  localparam int HIF4_SS_MAX       = 49;
  localparam int HIF4_X_MIN        = -104;
  localparam int HIF4_X_MAX        = 22;

  /* verilator lint_on UNUSEDPARAM */
endpackage
