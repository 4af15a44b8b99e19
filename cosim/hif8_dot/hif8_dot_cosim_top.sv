// hif8_dot_cosim_top: the Verilated models of rtl/hif8_dot.sv (cosim/hif8_dot/main.cpp). Not
// synthesised. An instance with N lanes takes the first N codes of a and b; the instances of a
// group run in lockstep on one handshake.
//   SWEEP = 0: one group at STAGES = 4 (every cut point): n64-exact (the model's default),
//              n32-w24-trunc, n32-w40-sticky, n16-w8-sticky.
//   SWEEP = 1: groups at STAGES 0, 1, 2, 3, run one after the other through `sel`
//              (cosim_group_sel), with every other parameter set of scripts/synth.sh and of the
//              lint checks (rtl/CMakeLists.txt), so each is simulated somewhere.
// cfg[32i +: 32] = {group, STAGES, 8'b0, STICKY, N[6:0], W[7:0]} of instance i: the harness reads
// the parameter sets from the model, so this list is the only place they are written down.
module hif8_dot_cosim_top #(
  parameter int SWEEP = 0
) (
  input  logic             clk,
  input  logic             rst_n,
  input  logic [3:0]       sel,
  input  logic             in_valid,
  output logic             in_ready,
  input  logic [511:0]     a,
  input  logic [511:0]     b,
  output logic             out_valid,
  input  logic             out_ready,
  output logic [PG*32-1:0] out,
  output logic [NI*32-1:0] cfg
);
  localparam int PG = (SWEEP != 0) ? 3 : 4;   // instances per group
  localparam int NI = (SWEEP != 0) ? 12 : 4;

  // {N, W, STICKY} of instance i (W = 0: exact).
  function automatic int set_of(int i);
    if (SWEEP == 0) begin
      case (i)
        0:       set_of = (64 << 16) | (0 << 8)  | 0;
        1:       set_of = (32 << 16) | (24 << 8) | 0;
        2:       set_of = (32 << 16) | (40 << 8) | 1;
        default: set_of = (16 << 16) | (8 << 8)  | 1;
      endcase
    end else begin
      case (i)
        0:       set_of = (16 << 16) | (24 << 8)  | 0;   // STAGES 0
        1:       set_of = (32 << 16) | (82 << 8)  | 0;
        2:       set_of = (64 << 16) | (40 << 8)  | 1;
        3:       set_of = (16 << 16) | (40 << 8)  | 0;   // STAGES 1
        4:       set_of = (32 << 16) | (120 << 8) | 1;
        5:       set_of = (64 << 16) | (24 << 8)  | 0;
        6:       set_of = (16 << 16) | (82 << 8)  | 0;   // STAGES 2
        7:       set_of = (32 << 16) | (40 << 8)  | 0;
        8:       set_of = (64 << 16) | (82 << 8)  | 0;
        9:       set_of = (64 << 16) | (40 << 8)  | 0;   // STAGES 3 (the RTL default)
        10:      set_of = (16 << 16) | (120 << 8) | 0;
        default: set_of = (64 << 16) | (0 << 8)   | 0;   // the defaults: N = 64 exact, STAGES = 3
      endcase
    end
  endfunction

  logic [NI-1:0]    iv, ir, ov, orr;
  logic [NI*32-1:0] o;
  for (genvar i = 0; i < NI; i++) begin : g_inst
    localparam int S  = set_of(i);
    localparam int N  = S >> 16;
    localparam int W  = (S >> 8) & 255;
    localparam int SK = S & 1;
    localparam int ST = (SWEEP != 0) ? i / PG : 4;
    hif8_dot #(.N(N), .W(W), .STICKY(SK), .STAGES(ST)) u_dot (
      .clk, .rst_n, .in_valid(iv[i]), .in_ready(ir[i]), .a(a[8*N-1:0]), .b(b[8*N-1:0]),
      .out_valid(ov[i]), .out_ready(orr[i]), .out(o[32*i +: 32])
    );
    assign cfg[32*i +: 32] = {4'(i / PG), 4'(ST), 8'd0, SK[0], N[6:0], W[7:0]};
    if (N < 64) begin : g_unused
      logic unused_ok;  // the codes beyond lane N-1
      assign unused_ok = &{1'b0, a[511:8*N], b[511:8*N]};
    end
  end
  cosim_group_sel #(.NI(NI), .PG(PG), .OW(32)) u_sel (
    .sel, .in_valid, .in_ready, .out_valid, .out_ready, .out,
    .inst_in_valid(iv), .inst_in_ready(ir), .inst_out_valid(ov), .inst_out_ready(orr), .inst_out(o)
  );
endmodule
