// cosim_top: the Verilated models of every valid/ready unit (cosim/<unit>/main.cpp); not synthesised.
// UNIT picks the unit (one of the modules below, rtl/<unit>.sv), SWEEP its instances:
//   SWEEP = 0: the regression model: the deepest pipeline (every cut point; hif4_dot64: STAGES 3,
//              the RTL default) with the unit's representative parameter sets.
//   SWEEP = 1: every other STAGES value the unit accepts (hifsim_pkg::<unit>_stages_ok) and every
//              other parameter set of scripts/synth.sh and of the lint checks (rtl/CMakeLists.txt),
//              in groups run one after the other through `sel` (cosim_group_sel).
// Both lists are the unit catalog's (regression and sweep sets), printed into the section below.
// The instances form groups of PG (the instances of a group run in lockstep on one handshake, each
// on its own part of `in`). The ports are the same for every unit: `in` holds a transaction's
// 32-bit words as the unit's bench (model/verif/<unit>_bench.cpp) lists them (word k =
// in[32k +: 32]), `out` the selected group's outputs (OW bits an instance, instance 0 lowest), so
// one harness code drives every unit (cosim/common/harness_main.hpp).
// cfg[32i +: 32] = {group, STAGES, P[23:0]} of instance i, P the unit's parameter word (p_of
// below): the harness reads the instances from the model.
module cosim_top #(
  parameter int UNIT  = 0,   // the unit, numbered as below (cosim/CMakeLists.txt, HIFSIM_COSIM_TOP_UNITS)
  parameter int SWEEP = 0
) (
  input  logic             clk,
  input  logic             rst_n,
  input  logic [3:0]       sel,
  input  logic             in_valid,
  output logic             in_ready,
  input  logic [IW-1:0]    in,
  output logic             out_valid,
  input  logic             out_ready,
  output logic [PG*OW-1:0] out,
  output logic [NI*32-1:0] cfg
);
  localparam int HIF4_DOT64 = 0, NVFP4_DOT64 = 1, MXFP4_DOT64 = 2, MXFP8_DOT32 = 3, HIF8_DOT = 4,
                 BF16_DOT64 = 5, SPARSE_RESIDUAL_ADD = 6, HIF4_QUANTIZER = 7,
                 HADAMARD16 = 8, SR_QUANTIZER = 9, TRANSPOSE_BUFFER = 10;

  // The bench's words of a transaction, in bits.
  function automatic int in_bits();
    case (UNIT)
      HIF4_DOT64:          in_bits = 2 * 288;           // a, b: HiF4 units (layout (A))
      NVFP4_DOT64:         in_bits = 2 * 256 + 2 * 32;  // a, b; sa, sb: 4 E4M3 scales each
      MXFP4_DOT64:         in_bits = 2 * 256 + 32;      // a, b; {sb, sa}: 2 E8M0 scales each
      MXFP8_DOT32:         in_bits = 4 * 256 + 32;      // E4M3 a, b, E5M2 a, b; {sb5, sa5, sb4, sa4}
      HIF8_DOT:            in_bits = 2 * 512;           // a, b: 64 codes each
      BF16_DOT64:          in_bits = 2 * 1024;          // a, b
      SPARSE_RESIDUAL_ADD: in_bits = 224 + 288 + 64;    // r, w; acc_start (bit 0); init_value
      HIF4_QUANTIZER:      in_bits = 1024;              // x
      HADAMARD16:          in_bits = 512 + 32;          // x; signs (bits 15:0 of word 16)
      SR_QUANTIZER:        in_bits = 512 + 64 + 32 + 64; // a, seed, stream, element index
      TRANSPOSE_BUFFER:    in_bits = tpb_beat_bits();    // row
      default:             in_bits = 32;
    endcase
  endfunction
  // transpose_buffer: a beat is T elements of W bits, T and W those of instance 0 (P = {W, T[6:0]});
  // a group holds one instance (instances of other T would not run in lockstep).
  function automatic int tpb_beat_bits();
    tpb_beat_bits = (p_of(0) & 127) * ((p_of(0) >> 7) & 63);
  endfunction
  // Output bits of an instance.
  function automatic int out_bits();
    case (UNIT)
      SPARSE_RESIDUAL_ADD: out_bits = 96;    // {acc, out_acc, out_dot}
      HIF4_QUANTIZER:      out_bits = 288;   // unit
      HADAMARD16:          out_bits = 512;   // y
      SR_QUANTIZER:        out_bits = 64;    // codes
      TRANSPOSE_BUFFER:    out_bits = tpb_beat_bits();   // col
      default:             out_bits = 32;    // out
    endcase
  endfunction
  // The STAGES values the unit's RTL accepts (rtl/hifsim_pkg.sv).
  function automatic bit stages_ok(int s);
    case (UNIT)
      HIF4_DOT64:          stages_ok = hifsim_pkg::hif4_dot64_stages_ok(s);
      NVFP4_DOT64:         stages_ok = hifsim_pkg::nvfp4_dot64_stages_ok(s);
      MXFP4_DOT64:         stages_ok = hifsim_pkg::mxfp4_dot64_stages_ok(s);
      MXFP8_DOT32:         stages_ok = hifsim_pkg::mxfp8_dot32_stages_ok(s);
      SPARSE_RESIDUAL_ADD: stages_ok = hifsim_pkg::sparse_residual_add_stages_ok(s);
      HIF4_QUANTIZER:      stages_ok = hifsim_pkg::hif4_quantizer_stages_ok(s);
      HADAMARD16:          stages_ok = hifsim_pkg::hadamard16_stages_ok(s);
      SR_QUANTIZER:        stages_ok = hifsim_pkg::sr_quantizer_stages_ok(s);
      TRANSPOSE_BUFFER:    stages_ok = hifsim_pkg::transpose_buffer_stages_ok(s);
      default:             stages_ok = hifsim_pkg::aligned_dot_stages_ok(s);   // hif8_dot, bf16_dot64
    endcase
  endfunction
  // The deepest pipeline (every cut point).
  function automatic int deepest();
    deepest = 0;
    while (stages_ok(deepest + 1)) deepest++;
  endfunction

  // The instances: the unit catalog's regression and sweep sets (model/datapath/hw_catalog.cpp).
  // ---- BEGIN generated from the unit catalog (hifsim units --update cosim/common/cosim_top.sv)
  // Instances per group: the unit's regression sets (SWEEP = 0), its sweep sets per STAGES value.
  function automatic int per_group();
    case (UNIT)
      HIF4_DOT64:          per_group = 1;
      NVFP4_DOT64:         per_group = 1;
      MXFP4_DOT64:         per_group = 1;
      MXFP8_DOT32:         per_group = 2;
      HIF8_DOT:            per_group = (SWEEP != 0) ? 3 : 4;
      BF16_DOT64:          per_group = 1;
      SPARSE_RESIDUAL_ADD: per_group = 1;
      HIF4_QUANTIZER:      per_group = (SWEEP != 0) ? 1 : 3;
      HADAMARD16:          per_group = 1;
      SR_QUANTIZER:        per_group = (SWEEP != 0) ? 1 : 5;
      TRANSPOSE_BUFFER:    per_group = 1;
      default: per_group = 1;
    endcase
  endfunction
  // The STAGES of the main model (SWEEP = 0); the sweep runs every other value 0..deepest().
  function automatic int main_stages();
    case (UNIT)
      HIF4_DOT64:          main_stages = 3;
      NVFP4_DOT64:         main_stages = 5;
      MXFP4_DOT64:         main_stages = 4;
      MXFP8_DOT32:         main_stages = 3;
      HIF8_DOT:            main_stages = 4;
      BF16_DOT64:          main_stages = 4;
      SPARSE_RESIDUAL_ADD: main_stages = 5;
      HIF4_QUANTIZER:      main_stages = 4;
      HADAMARD16:          main_stages = 5;
      SR_QUANTIZER:        main_stages = 6;
      TRANSPOSE_BUFFER:    main_stages = 1;
      default: main_stages = deepest();
    endcase
  endfunction
  // P of instance i (cfg bits 23..0): the unit's parameters other than STAGES, packed as the
  // harness reads them (cosim/<unit>/main.cpp); each line names the set.
  function automatic int p_of(int i);
    p_of = 0;
    case (UNIT)
      MXFP8_DOT32:
        if (SWEEP == 0) begin
          case (i)
            0:       p_of = 0;  // E5M2=0, STAGES 3
            1:       p_of = 1;  // E5M2=1, STAGES 3
            default: p_of = 0;
          endcase
        end else begin
          case (i)
            0:       p_of = 0;  // E5M2=0, STAGES 0
            1:       p_of = 1;  // E5M2=1, STAGES 0
            2:       p_of = 0;  // E5M2=0, STAGES 1
            3:       p_of = 1;  // E5M2=1, STAGES 1
            4:       p_of = 0;  // E5M2=0, STAGES 2
            5:       p_of = 1;  // E5M2=1, STAGES 2
            default: p_of = 0;
          endcase
        end
      HIF8_DOT:
        if (SWEEP == 0) begin
          case (i)
            0:       p_of = 16384;  // N=64;W=0;STICKY=0, STAGES 4
            1:       p_of = 8216;  // N=32;W=24;STICKY=0, STAGES 4
            2:       p_of = 41000;  // N=32;W=40;STICKY=1, STAGES 4
            3:       p_of = 36872;  // N=16;W=8;STICKY=1, STAGES 4
            default: p_of = 0;
          endcase
        end else begin
          case (i)
            0:       p_of = 4120;  // N=16;W=24;STICKY=0, STAGES 0
            1:       p_of = 8274;  // N=32;W=82;STICKY=0, STAGES 0
            2:       p_of = 49192;  // N=64;W=40;STICKY=1, STAGES 0
            3:       p_of = 4136;  // N=16;W=40;STICKY=0, STAGES 1
            4:       p_of = 41080;  // N=32;W=120;STICKY=1, STAGES 1
            5:       p_of = 16408;  // N=64;W=24;STICKY=0, STAGES 1
            6:       p_of = 4178;  // N=16;W=82;STICKY=0, STAGES 2
            7:       p_of = 8232;  // N=32;W=40;STICKY=0, STAGES 2
            8:       p_of = 16466;  // N=64;W=82;STICKY=0, STAGES 2
            9:       p_of = 16424;  // N=64;W=40;STICKY=0, STAGES 3
            10:      p_of = 4216;  // N=16;W=120;STICKY=0, STAGES 3
            11:      p_of = 16384;  // N=64;W=0;STICKY=0, STAGES 3
            default: p_of = 0;
          endcase
        end
      BF16_DOT64:
        if (SWEEP == 0) begin
          case (i)
            0:       p_of = 32832;  // W=64;STICKY=1, STAGES 4
            default: p_of = 0;
          endcase
        end else begin
          case (i)
            0:       p_of = 16;  // W=16;STICKY=0, STAGES 0
            1:       p_of = 32800;  // W=32;STICKY=1, STAGES 1
            2:       p_of = 32888;  // W=120;STICKY=1, STAGES 2
            3:       p_of = 64;  // W=64;STICKY=0, STAGES 3
            default: p_of = 0;
          endcase
        end
      SPARSE_RESIDUAL_ADD:
        if (SWEEP == 0) begin
          case (i)
            0:       p_of = 23;  // MANT_BITS=23;ROUND_RZ=0, STAGES 5
            default: p_of = 0;
          endcase
        end else begin
          case (i)
            0:       p_of = 138;  // MANT_BITS=10;ROUND_RZ=1, STAGES 0
            1:       p_of = 151;  // MANT_BITS=23;ROUND_RZ=1, STAGES 1
            2:       p_of = 13;  // MANT_BITS=13;ROUND_RZ=0, STAGES 2
            3:       p_of = 23;  // MANT_BITS=23;ROUND_RZ=0, STAGES 3
            4:       p_of = 135;  // MANT_BITS=7;ROUND_RZ=1, STAGES 4
            default: p_of = 0;
          endcase
        end
      HIF4_QUANTIZER:
        if (SWEEP == 0) begin
          case (i)
            0:       p_of = 0;  // ELEM_RNE=0;CMP_BF16=0;INF_TO_NAN=0, STAGES 4
            1:       p_of = 7;  // ELEM_RNE=1;CMP_BF16=1;INF_TO_NAN=1, STAGES 4
            2:       p_of = 8;  // ASCEND_A6=1, STAGES 4
            default: p_of = 0;
          endcase
        end else begin
          case (i)
            0:       p_of = 1;  // ELEM_RNE=1;CMP_BF16=0;INF_TO_NAN=0, STAGES 0
            1:       p_of = 2;  // ELEM_RNE=0;CMP_BF16=1;INF_TO_NAN=0, STAGES 1
            2:       p_of = 4;  // ELEM_RNE=0;CMP_BF16=0;INF_TO_NAN=1, STAGES 2
            3:       p_of = 3;  // ELEM_RNE=1;CMP_BF16=1;INF_TO_NAN=0, STAGES 3
            default: p_of = 0;
          endcase
        end
      SR_QUANTIZER:
        if (SWEEP == 0) begin
          case (i)
            0:       p_of = 8;  // SR_BITS=8;FMT=0, STAGES 6
            1:       p_of = 72;  // SR_BITS=8;FMT=1, STAGES 6
            2:       p_of = 5;  // SR_BITS=5;FMT=0, STAGES 6
            3:       p_of = 96;  // SR_BITS=32;FMT=1, STAGES 6
            4:       p_of = 136;  // SR_BITS=8;FMT=2, STAGES 6
            default: p_of = 0;
          endcase
        end else begin
          case (i)
            0:       p_of = 8;  // SR_BITS=8;FMT=0, STAGES 0
            1:       p_of = 67;  // SR_BITS=3;FMT=1, STAGES 1
            2:       p_of = 144;  // SR_BITS=16;FMT=2, STAGES 2
            3:       p_of = 72;  // SR_BITS=8;FMT=1, STAGES 3
            4:       p_of = 1;  // SR_BITS=1;FMT=0, STAGES 4
            5:       p_of = 77;  // SR_BITS=13;FMT=1, STAGES 5
            default: p_of = 0;
          endcase
        end
      TRANSPOSE_BUFFER:
        if (SWEEP == 0) begin
          case (i)
            0:       p_of = 4112;  // T=16;W=32, STAGES 1
            default: p_of = 0;
          endcase
        end else begin
          case (i)
            0:       p_of = 2056;  // T=8;W=16, STAGES 0
            default: p_of = 0;
          endcase
        end
      default: p_of = 0;   // STAGES only
    endcase
  endfunction
  // ---- END generated from the unit catalog

  localparam int IW    = in_bits();
  localparam int OW    = out_bits();
  localparam int PG    = per_group();
  localparam int DEPTH = deepest();
  // SWEEP = 0: one group at MAIN STAGES, the deepest pipeline (hif4_dot64: the RTL default 3);
  // SWEEP = 1: one group at every other STAGES value 0..DEPTH.
  localparam int MAIN  = main_stages();
  localparam int NI    = PG * ((SWEEP != 0) ? DEPTH : 1);

  logic [NI-1:0]    iv, ir, ov, orr;
  logic [NI*OW-1:0] o;

  // The units read `in` through in_q, a copy taken at the falling edge (simulation speed only).
  // The simulator (Verilator 5.006) evaluates all logic that depends combinationally on a
  // top-level input (its input-combinational region: here a unit's whole first pipeline stage)
  // at every eval(), and Sim (sim_model.hpp) calls eval() twice a cycle: low() (clk = 0) and
  // high() (clk = 1). Every driver sets the inputs before low() and holds them through high(),
  // so in_q takes the new `in` in low()'s eval and equals `in` at every rising edge and whenever
  // an output is read: the units see what a wire would give them (STAGES 0 too: its outputs
  // settle in low()), but their first stage runs once a cycle, at the falling edge, instead of
  // at both evals (docs/cosim.md, throughput). Waves show in_q change at the time step of `in`
  // (the low phase's dump). valid / ready, sel and rst_n stay direct.
  logic [IW-1:0] in_q;
  always_ff @(negedge clk) in_q <= in;
  for (genvar i = 0; i < NI; i++) begin : g_inst
    localparam int G  = i / PG;
    localparam int ST = (SWEEP == 0) ? MAIN : (G >= MAIN) ? G + 1 : G;
    localparam int P  = p_of(i);
    assign cfg[32*i +: 32] = {4'(i / PG), 4'(ST), 24'(P)};
    if (UNIT == HIF4_DOT64) begin : g_unit
      hif4_dot64 #(.STAGES(ST)) u_unit (
        .clk, .rst_n, .in_valid(iv[i]), .in_ready(ir[i]), .out_valid(ov[i]), .out_ready(orr[i]),
        .a(in_q[0 +: 288]), .b(in_q[288 +: 288]), .out(o[OW*i +: 32]));
    end else if (UNIT == NVFP4_DOT64) begin : g_unit
      nvfp4_dot64 #(.STAGES(ST)) u_unit (
        .clk, .rst_n, .in_valid(iv[i]), .in_ready(ir[i]), .out_valid(ov[i]), .out_ready(orr[i]),
        .a(in_q[0 +: 256]), .b(in_q[256 +: 256]), .sa(in_q[512 +: 32]), .sb(in_q[544 +: 32]), .out(o[OW*i +: 32]));
    end else if (UNIT == MXFP4_DOT64) begin : g_unit
      mxfp4_dot64 #(.STAGES(ST)) u_unit (
        .clk, .rst_n, .in_valid(iv[i]), .in_ready(ir[i]), .out_valid(ov[i]), .out_ready(orr[i]),
        .a(in_q[0 +: 256]), .b(in_q[256 +: 256]), .sa(in_q[512 +: 16]), .sb(in_q[528 +: 16]), .out(o[OW*i +: 32]));
    end else if (UNIT == MXFP8_DOT32) begin : g_unit
      // Each element format on its own operands: E5M2's a, b after E4M3's, its scales in bytes 2, 3.
      mxfp8_dot32 #(.E5M2(P), .STAGES(ST)) u_unit (
        .clk, .rst_n, .in_valid(iv[i]), .in_ready(ir[i]), .out_valid(ov[i]), .out_ready(orr[i]),
        .a(in_q[512*P +: 256]), .b(in_q[512*P + 256 +: 256]), .sa(in_q[1024 + 16*P +: 8]),
        .sb(in_q[1032 + 16*P +: 8]), .out(o[OW*i +: 32]));
    end else if (UNIT == HIF8_DOT) begin : g_unit
      // An instance with N lanes takes the first N codes of a and b.
      localparam int N = (P >> 8) & 127;
      hif8_dot #(.N(N), .W(P & 255), .STICKY(P >> 15), .STAGES(ST)) u_unit (
        .clk, .rst_n, .in_valid(iv[i]), .in_ready(ir[i]), .out_valid(ov[i]), .out_ready(orr[i]),
        .a(in_q[0 +: 8*N]), .b(in_q[512 +: 8*N]), .out(o[OW*i +: 32]));
    end else if (UNIT == BF16_DOT64) begin : g_unit
      bf16_dot64 #(.W(P & 255), .STICKY(P >> 15), .STAGES(ST)) u_unit (
        .clk, .rst_n, .in_valid(iv[i]), .in_ready(ir[i]), .out_valid(ov[i]), .out_ready(orr[i]),
        .a(in_q[0 +: 1024]), .b(in_q[1024 +: 1024]), .out(o[OW*i +: 32]));
    end else if (UNIT == SPARSE_RESIDUAL_ADD) begin : g_unit
      sparse_residual_add #(.STAGES(ST), .MANT_BITS(P & 127), .ROUND_RZ(P >> 7)) u_unit (
        .clk, .rst_n, .in_valid(iv[i]), .in_ready(ir[i]), .out_valid(ov[i]), .out_ready(orr[i]),
        .r(in_q[0 +: 224]), .w(in_q[224 +: 288]), .acc_start(in_q[512]), .init_value(in_q[544 +: 32]),
        .out_dot(o[OW*i +: 32]), .out_acc(o[OW*i + 32 +: 32]), .acc(o[OW*i + 64 +: 32]));
    end else if (UNIT == HIF4_QUANTIZER) begin : g_unit
      hif4_quantizer #(.STAGES(ST), .ELEM_RNE(P & 1), .CMP_BF16((P >> 1) & 1), .INF_TO_NAN((P >> 2) & 1),
                       .ASCEND_A6(P >> 3))
        u_unit (
        .clk, .rst_n, .in_valid(iv[i]), .in_ready(ir[i]), .out_valid(ov[i]), .out_ready(orr[i]),
        .x(in_q), .unit(o[OW*i +: 288]));
    end else if (UNIT == HADAMARD16) begin : g_unit
      hadamard16 #(.STAGES(ST)) u_unit (
        .clk, .rst_n, .in_valid(iv[i]), .in_ready(ir[i]), .out_valid(ov[i]), .out_ready(orr[i]),
        .x(in_q[0 +: 512]), .signs(in_q[512 +: 16]), .y(o[OW*i +: 512]));
    end else if (UNIT == SR_QUANTIZER) begin : g_unit
      // The bench's element index i as the unit's counter form: group = i div L (low 32 bits,
      // as the model's), lane = i mod L, L = floor(64 / SR_BITS).
      localparam int L = 64 / (P & 63);
      logic [63:0] idx;
      assign idx = in_q[608 +: 64];
      sr_quantizer #(.STAGES(ST), .SR_BITS(P & 63), .FMT(P >> 6)) u_unit (
        .clk, .rst_n, .in_valid(iv[i]), .in_ready(ir[i]), .out_valid(ov[i]), .out_ready(orr[i]),
        .seed(in_q[512 +: 64]), .stream(in_q[576 +: 32]), .group(32'(idx / 64'(L))), .lane(6'(idx % 64'(L))),
        .a(in_q[0 +: 512]), .codes(o[OW*i +: 64]));
    end else if (UNIT == TRANSPOSE_BUFFER) begin : g_unit
      localparam int T = P & 127, W = (P >> 7) & 63;
      transpose_buffer #(.T(T), .W(W), .STAGES(ST)) u_unit (
        .clk, .rst_n, .in_valid(iv[i]), .in_ready(ir[i]), .out_valid(ov[i]), .out_ready(orr[i]),
        .row(in_q[0 +: T*W]), .col(o[OW*i +: T*W]));
    end else begin : g_unit
      $fatal(1, "cosim_top: no unit %0d", UNIT);
    end
  end
  if (UNIT == SPARSE_RESIDUAL_ADD) begin : g_pad
    logic unused_ok;  // the rest of acc_start's word
    assign unused_ok = &{1'b0, in_q[543:513]};
  end
  if (UNIT == HADAMARD16) begin : g_pad_had
    logic unused_ok;  // the rest of the signs' word
    assign unused_ok = &{1'b0, in_q[543:528]};
  end
  cosim_group_sel #(.NI(NI), .PG(PG), .OW(OW)) u_sel (
    .sel, .in_valid, .in_ready, .out_valid, .out_ready, .out,
    .inst_in_valid(iv), .inst_in_ready(ir), .inst_out_valid(ov), .inst_out_ready(orr), .inst_out(o)
  );
endmodule
