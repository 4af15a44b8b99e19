// hifsim_pkg: the one package of shared constants for the hifsim RTL.
//
// Two parts. The format facts (FP32, the HiF4 unit layout, element and scale codes, the quantizer's
// constants) are written here; the test `cosim.pkg_constants` (cosim/common/test_pkg_constants.cpp)
// parses this file and compares each constant with the C++ value. The datapath units' stage widths,
// bounds and pipeline cut rules (one function per unit, as cvfpu's fpnew_pkg derives every width
// from its format table) are generated from the units' hardware descriptions in model/datapath
// (`hifsim units --update rtl/hifsim_pkg.sv`); test hw.descriptions fails when they differ.
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

  // ---- element and scale codes (model/datapath/element.hpp, model/formats/scales.hpp) ----
  localparam logic [7:0]  E4M3_NAN_MAG   = 8'h7F;   // 0x7F / 0xFF
  localparam logic [7:0]  E8M0_NAN       = 8'hFF;
  localparam int          E8M0_BIAS      = 127;
  localparam logic [7:0]  HIF8_NAN       = 8'h80;
  localparam logic [7:0]  HIF8_INF_MAG   = 8'h6F;   // 0x6F / 0xEF

  // ---- BEGIN generated: the datapath units' widths, bounds and pipeline cut rules ----
  // From the unit descriptions (model/datapath/*_hw.cpp): edit those, then run
  // `hifsim units --update rtl/hifsim_pkg.sv`; test hw.descriptions fails while this differs.

  // hif4_dot64: stage widths and bounds (docs/datapath.md)
  localparam int HIF4_W_A         = 5;      // s0 a[k] = +-(m << E1_16), sign + magnitude
  localparam int HIF4_W_P         = 9;      // s1 p[k] = aA * aB, two's complement
  localparam int HIF4_W_GROUP     = 12;     // s2 P[i] = sum of 8 products
  localparam int HIF4_W_SHIFTED   = 14;     // s3 Q[i] = P[i] << (E1_8A + E1_8B)
  localparam int HIF4_W_I         = 17;     // s4 I = sum of Q[i]
  localparam int HIF4_W_SS        = 6;      // s5 SS = (4+MA)(4+MB), unsigned
  localparam int HIF4_W_X         = 8;      // s5 X = EA + EB - 104, two's complement
  localparam int HIF4_W_BIG       = 23;     // s6 big = I * SS
  localparam int HIF4_EXP_OFFSET  = 104;    // X = EA + EB - HIF4_EXP_OFFSET (48 + 48 + 4 + 4)
  localparam int HIF4_MAX_A       = 14;
  localparam int HIF4_MAX_P       = 196;
  localparam int HIF4_MAX_GROUP   = 1568;
  localparam int HIF4_MAX_SHIFTED = 6272;
  localparam int HIF4_MAX_I       = 50176;
  localparam int HIF4_MAX_BIG     = 2458624;
  localparam int HIF4_SS_MIN      = 16;
  localparam int HIF4_SS_MAX      = 49;
  localparam int HIF4_X_MIN       = -104;
  localparam int HIF4_X_MAX       = 22;

  // nvfp4_dot64: stage widths and bounds (docs/datapath.md)
  localparam int NV_SUBBLOCKS    = 4;      // 16 elements each, one E4M3 scale per operand
  localparam int NV_W_P          = 9;      // s1 p[k] = aA * aB (quarter units), two's complement
  localparam int NV_W_SUB        = 13;     // s2 S[j] = sum of 16 products
  localparam int NV_W_SS         = 8;      // s3 ss[j] = sigA * sigB, unsigned
  localparam int NV_W_TT         = 6;      // s3 tt[j] = tA + tB, two's complement
  localparam int NV_W_PARTIAL    = 20;     // s4 P[j] = S[j] * ss[j]
  localparam int NV_W_ALIGNED    = 48;     // s5 Q[j] = P[j] << (tt[j] + NV_ALIGN_OFFSET)
  localparam int NV_W_TOTAL      = 50;     // s6 T = sum of Q[j]
  localparam int NV_ALIGN_OFFSET = 18;     // shift = tt + NV_ALIGN_OFFSET >= 0
  localparam int NV_LSB_EXP      = -20;    // s7 out = RNE_fp32(T * 2^NV_LSB_EXP)
  localparam int NV_MAX_A        = 12;
  localparam int NV_MAX_P        = 144;
  localparam int NV_MAX_SUB      = 2304;
  localparam int NV_MAX_SS       = 225;
  localparam int NV_MAX_PARTIAL  = 518400;
  localparam int NV_TT_MIN       = -18;
  localparam int NV_TT_MAX       = 10;

  // mxfp4_dot64: stage widths and bounds (docs/datapath.md)
  localparam int MX4_W_SUM      = 14;     // s2 S[b] = sum of 32 products (quarter units)
  localparam int MX4_MAX_SUM    = 4608;
  localparam int MX4_W_X        = 10;     // s3 X[b] = xa + xb - MX4_EXP_OFFSET, two's complement
  localparam int MX4_EXP_OFFSET = 256;    // (xa - 127) + (xb - 127) - 2
  localparam int MX4_X_MIN      = -256;
  localparam int MX4_X_MAX      = 252;
  localparam int MX4_JAM_DIST   = 40;     // s4: a term more than this many binades below the other is a jam bit

  // mxfp8_dot32: stage widths and bounds (docs/datapath.md)
  localparam int MX8_E4M3_MIN_EXP = -18;    // lowest product exponent = the sum's LSB weight
  localparam int MX8_E5M2_MIN_EXP = -32;
  localparam int MX8_E4M3_W_SUM   = 42;     // s2 exact sum of 32 aligned products, two's complement
  localparam int MX8_E5M2_W_SUM   = 70;
  localparam int MX8_EXP_OFFSET   = 254;    // s3 X = xa + xb - 254

  // aligned_dot: stage widths and bounds (docs/datapath.md)
  localparam int HIF8_PROD_BITS = 8;      // P: product significand bits
  localparam int HIF8_EXACT_W   = 82;     // a window that never drops a bit (W = 0 in the model)
  localparam int BF16_PROD_BITS = 16;
  localparam int BF16_EXACT_W   = 538;
  localparam int BF16_DEFAULT_W = 64;     // the model's default_align for BF16 (sticky)

  // sparse_residual_add: stage widths and bounds (docs/datapath.md)
  localparam int SP_SLOTS       = 32;     // kept elements: 2 per group of 4
  localparam int SP_UNIT_BITS   = 224;    // meta (32) | 32 nibbles | 32 two-bit indices
  localparam int SP_W_GROUP     = 11;     // s2 sums of 4 products
  localparam int SP_W_SHIFTED   = 13;     // s3 level-2 shifts
  localparam int SP_W_I         = 16;     // s4 I
  localparam int SP_W_BIG       = 22;     // s6 big = I * SS
  localparam int SP_MAX_GROUP   = 784;
  localparam int SP_MAX_SHIFTED = 3136;
  localparam int SP_MAX_I       = 25088;
  localparam int SP_MAX_BIG     = 1229312;

  // sr_quantizer: stage widths and bounds (docs/datapath.md)
  localparam int SRQ_LANES     = 16;     // elements per operation
  localparam int SRQ_TF_ROUNDS = 20;     // Threefry-2x32 rounds
  localparam int SRQ_TF_PARITY = 466688986; // key schedule parity constant (Threefry-2x32)
  localparam int SRQ_E2M1_SAT  = 1090519040; // FP32 bits of 8.0: E2M1 saturates from here (FMT 0)
  localparam int SRQ_S1P2_SAT  = 1088421888; // FP32 bits of 7.0: S1P2 saturates from here (FMT 1)
  localparam int SRQ_TF_R0     = 13;     // rotations R[r mod 8]
  localparam int SRQ_TF_R1     = 15;
  localparam int SRQ_TF_R2     = 26;
  localparam int SRQ_TF_R3     = 6;
  localparam int SRQ_TF_R4     = 17;
  localparam int SRQ_TF_R5     = 29;
  localparam int SRQ_TF_R6     = 16;
  localparam int SRQ_TF_R7     = 24;

  // transpose_buffer: stage widths and bounds (docs/datapath.md)
  localparam int TPB_TILE_MIN  = 2;      // transpose_buffer: smallest T (a power of two)
  localparam int TPB_TILE_MAX  = 64;     // transpose_buffer: largest T
  localparam int TPB_WIDTH_MAX = 32;     // transpose_buffer: widest element, bits

  // cut point `cut` (1..ncut, in datapath order) is a register rank at STAGES = `stages` when
  // bit ncut * stages + cut - 1 of the unit's `ranks` is set (STAGES 0 in the low bits)
  function automatic bit cut_rank(input int ncut, input int nstages, input logic [63:0] ranks, input int stages,
                                  input int cut);
    cut_rank = (stages >= 0) && (stages <= nstages) && (cut >= 1) && (cut <= ncut) && ranks[ncut*stages + cut - 1];
  endfunction

  // hif4_dot64: ranks after s1, s2, s4, s6, s7; STAGES 0..5
  function automatic bit hif4_dot64_cut(input int stages, input int cut);
    hif4_dot64_cut = cut_rank(5, 5, 64'b11111_01111_01110_01010_00100_00000, stages, cut);
  endfunction
  function automatic bit hif4_dot64_stages_ok(input int stages);
    hif4_dot64_stages_ok = (stages >= 0) && (stages <= 5);
  endfunction

  // nvfp4_dot64: ranks after s1, s2, s4, s6, s7; STAGES 0..5
  function automatic bit nvfp4_dot64_cut(input int stages, input int cut);
    nvfp4_dot64_cut = cut_rank(5, 5, 64'b11111_01111_01110_01010_00100_00000, stages, cut);
  endfunction
  function automatic bit nvfp4_dot64_stages_ok(input int stages);
    nvfp4_dot64_stages_ok = (stages >= 0) && (stages <= 5);
  endfunction

  // mxfp4_dot64: ranks after s1, s2, s4a, s4b; STAGES 0..4
  function automatic bit mxfp4_dot64_cut(input int stages, input int cut);
    mxfp4_dot64_cut = cut_rank(4, 4, 64'b1111_0111_0110_0010_0000, stages, cut);
  endfunction
  function automatic bit mxfp4_dot64_stages_ok(input int stages);
    mxfp4_dot64_stages_ok = (stages >= 0) && (stages <= 4);
  endfunction

  // mxfp8_dot32: ranks after s1, s2, s4; STAGES 0..3
  function automatic bit mxfp8_dot32_cut(input int stages, input int cut);
    mxfp8_dot32_cut = cut_rank(3, 3, 64'b111_011_010_000, stages, cut);
  endfunction
  function automatic bit mxfp8_dot32_stages_ok(input int stages);
    mxfp8_dot32_stages_ok = (stages >= 0) && (stages <= 3);
  endfunction

  // aligned_dot: ranks after s1, s2, s4, s5; STAGES 0..4
  function automatic bit aligned_dot_cut(input int stages, input int cut);
    aligned_dot_cut = cut_rank(4, 4, 64'b1111_0111_0101_0100_0000, stages, cut);
  endfunction
  function automatic bit aligned_dot_stages_ok(input int stages);
    aligned_dot_stages_ok = (stages >= 0) && (stages <= 4);
  endfunction

  // sparse_residual_add: ranks after s1, s2, s4, s6, s7; STAGES 0..5
  function automatic bit sparse_residual_add_cut(input int stages, input int cut);
    sparse_residual_add_cut = cut_rank(5, 5, 64'b11111_01111_01110_01010_00100_00000, stages, cut);
  endfunction
  function automatic bit sparse_residual_add_stages_ok(input int stages);
    sparse_residual_add_stages_ok = (stages >= 0) && (stages <= 5);
  endfunction

  // hif4_quantizer: ranks after q1, q2, q3, q4; STAGES 0..4
  function automatic bit hif4_quantizer_cut(input int stages, input int cut);
    hif4_quantizer_cut = cut_rank(4, 4, 64'b1111_0111_0101_0010_0000, stages, cut);
  endfunction
  function automatic bit hif4_quantizer_stages_ok(input int stages);
    hif4_quantizer_stages_ok = (stages >= 0) && (stages <= 4);
  endfunction

  // hadamard16: ranks after b1, b2, b3, b4, sc; STAGES 0..5
  function automatic bit hadamard16_cut(input int stages, input int cut);
    hadamard16_cut = cut_rank(5, 5, 64'b11111_01111_00111_00101_00010_00000, stages, cut);
  endfunction
  function automatic bit hadamard16_stages_ok(input int stages);
    hadamard16_stages_ok = (stages >= 0) && (stages <= 5);
  endfunction

  // sr_quantizer: ranks after t1, t2, t3, t4, t5, q; STAGES 0..6
  function automatic bit sr_quantizer_cut(input int stages, input int cut);
    sr_quantizer_cut = cut_rank(6, 6, 64'b111111_101111_110101_101010_100100_100000_000000, stages, cut);
  endfunction
  function automatic bit sr_quantizer_stages_ok(input int stages);
    sr_quantizer_stages_ok = (stages >= 0) && (stages <= 6);
  endfunction

  // transpose_buffer: ranks after col; STAGES 0..1
  function automatic bit transpose_buffer_cut(input int stages, input int cut);
    transpose_buffer_cut = cut_rank(1, 1, 64'b1_0, stages, cut);
  endfunction
  function automatic bit transpose_buffer_stages_ok(input int stages);
    transpose_buffer_stages_ok = (stages >= 0) && (stages <= 1);
  endfunction
  // ---- END generated ----

  // ---- HiF4 quantizer (hif4.md section 2; model/formats/hif4.cpp) ----
  localparam logic [15:0] HIF4Q_C7       = 16'h3E12;  // bf16(1/7) = 146 * 2^-10
  localparam int          HIF4Q_C7_SIG   = 146;
  localparam int          HIF4Q_REC_SIG0 = 128;       // REC significands (hidden bit included) by M
  localparam int          HIF4Q_REC_SIG1 = 205;
  localparam int          HIF4Q_REC_SIG2 = 171;
  localparam int          HIF4Q_REC_SIG3 = 146;
  localparam int          HIF4Q_SF_MIN_EXP = -48;     // scale clamp [2^-48, 49152]
  localparam int          HIF4Q_SF_MAX     = 49152;

  /* verilator lint_on UNUSEDPARAM */

  // ---- element decoders shared by the units (one truth; model/datapath/element.cpp) ----
  // E2M1 in half units: {sign, magnitude 0,1,2,3,4,6,8,12 (4 bits)}.
  function automatic logic [4:0] e2m1_half(input logic [3:0] c);
    logic [3:0] m;
    case (c[2:0])
      3'd0: m = 4'd0;
      3'd1: m = 4'd1;
      3'd2: m = 4'd2;
      3'd3: m = 4'd3;
      3'd4: m = 4'd4;
      3'd5: m = 4'd6;
      3'd6: m = 4'd8;
      default: m = 4'd12;
    endcase
    e2m1_half = {c[3], m};
  endfunction

  // E4M3 (fn): {nan, sign, sig (4 bits), t + 9 (4 bits, 0..14)}; value = sig * 2^t.
  function automatic logic [9:0] e4m3_dec(input logic [7:0] c);
    logic [3:0] ex;
    logic [2:0] m;
    ex = c[6:3];
    m  = c[2:0];
    e4m3_dec = {c[6:0] == E4M3_NAN_MAG[6:0], c[7], (ex != 4'd0) ? {1'b1, m} : {1'b0, m},
                (ex != 4'd0) ? ex - 4'd1 : 4'd0};
  endfunction

  // E5M2: {nan, inf, sign, sig (3 bits), t + 16 (5 bits, 0..29)}; value = sig * 2^t.
  function automatic logic [10:0] e5m2_dec(input logic [7:0] c);
    logic [4:0] ex;
    logic [1:0] m;
    ex = c[6:2];
    m  = c[1:0];
    e5m2_dec = {(ex == 5'd31) && (m != 2'd0), (ex == 5'd31) && (m == 2'd0), c[7],
                (ex != 5'd0) ? {1'b1, m} : {1'b0, m}, (ex != 5'd0) ? ex - 5'd1 : 5'd0};
  endfunction

  // HiF8 (hif8.md; element.cpp decode_hif8): {nan, inf, sign, sig (4 bits, 1.mmm as 8..15; 0 for
  // zero), exp (6-bit signed, -25..12)}; value = sig * 2^exp. Denormal 2^(M-23) = 8 * 2^(M-26).
  function automatic logic [12:0] hif8_dec(input logic [7:0] c);
    logic [6:0] c7;
    logic [3:0] sig;
    logic [4:0] mag;   // |E|
    logic       es;    // exponent sign
    logic [5:0] ex;
    c7 = c[6:0];
    es = 1'b0;
    mag = 5'd0;
    if (c7[6:5] == 2'b11) begin        // D = 4: |E| 8..15, 1 mantissa bit
      sig = {1'b1, c7[0], 2'b00};
      es  = c7[4];
      mag = {2'b01, c7[3:1]};
    end else if (c7[6:5] == 2'b10) begin  // D = 3: |E| 4..7, 2 bits
      sig = {1'b1, c7[1:0], 1'b0};
      es  = c7[4];
      mag = {3'b001, c7[3:2]};
    end else if (c7[6:5] == 2'b01) begin  // D = 2: |E| 2..3, 3 bits
      sig = {1'b1, c7[2:0]};
      es  = c7[4];
      mag = {4'b0001, c7[3]};
    end else if (c7[4]) begin             // D = 1: |E| = 1
      sig = {1'b1, c7[2:0]};
      es  = c7[3];
      mag = 5'd1;
    end else if (c7[3]) begin             // D = 0: E = 0
      sig = {1'b1, c7[2:0]};
    end else begin                        // denormal (or zero / NaN: c7 = 0)
      sig = (c7 != 7'd0) ? 4'd8 : 4'd0;
    end
    if (c7[6:3] == 4'd0) ex = 6'({3'b000, c7[2:0]} - 6'd26);
    else                 ex = (es ? (6'd0 - {1'b0, mag}) : {1'b0, mag}) - 6'd3;
    hif8_dec = {c == HIF8_NAN, c7 == HIF8_INF_MAG[6:0], c[7] && (c != HIF8_NAN), sig, ex};
  endfunction

  // BF16 (element.cpp decode_bf16): {nan, inf, sign, sig (8 bits: 128+f, or f when subnormal),
  // exp (9-bit signed, (e ? e : 1) - 134)}; value = sig * 2^exp.
  function automatic logic [19:0] bf16_dec(input logic [15:0] c);
    logic [7:0] e;
    e = c[14:7];
    bf16_dec = {(e == 8'hFF) && (c[6:0] != 7'd0), (e == 8'hFF) && (c[6:0] == 7'd0), c[15],
                e != 8'd0, c[6:0], 9'({1'b0, (e != 8'd0) ? e : 8'd1} - 9'd134)};
  endfunction
endpackage
