// array_pe: one processing element of the calibration matrix unit: a dot unit of the PE type
// (array_dot, STAGES cycles), an FP32 adder (hifsim_fp_add, RNE) and one FP32 register, plus
// the weight registers of the weight-stationary dataflow.
//
// In cycle t the PE takes an operand pair (in_valid); STAGES cycles later (out_valid) the adder
// computes nxt = fl(x + dot), x = use_acc ? acc : x_in, and the register takes it: acc = nxt.
//   OS: acc is the output's running sum. The first block of a pass starts from x_in = the saved
//       partial sum (or +0); later blocks use_acc. fl(saved + dot) is exactly dp::Accumulator
//       restored with reset(saved) and add(dot) (an FP32 round trip is exact).
//   WS: acc is the partial sum on its way down the column: x_in is the register of the PE above
//       (row 0: the saved partial sum or +0), and a PE row without a block in this fold passes
//       x_in on unchanged (pass: nxt = x_in, never x_in + 0, which would turn -0 into +0).
// The B operand is the column bus (OS) or the active weight register (WS). w_we writes the
// column bus into the shadow register (double-buffered weights) or directly into the active
// one; w_swap (when a fold starts in this PE row: cycle F + r) makes the shadow active, for an
// operand of the same cycle too.
// The module name is a macro so that the Verilated calibration models, one per PE type linked
// into one program, each get their own hierarchical block (cosim/tlm_calibration/CMakeLists.txt
// defines HIFSIM_ARRAY_PE=array_pe_<model>): Verilator 5.006 names a hierarchical block after its
// module and a one-hex-digit hash of its parameters, which collided between models (HiF4, MXFP8).
`ifndef HIFSIM_ARRAY_PE
`define HIFSIM_ARRAY_PE array_pe
`endif
module `HIFSIM_ARRAY_PE #(
  parameter int PE          = 0,
  parameter int HIF8_N      = 64,
  parameter int HIF8_W      = 0,
  parameter int HIF8_STICKY = 0,
  parameter int STAGES      = 3,
  parameter int WB          = 288
) (
  input  logic          clk,
  input  logic          rst_n,
  input  logic          ws,        // weight-stationary mode
  input  logic          wdb,       // WS: double-buffered weights
  // operands, issue cycle
  input  logic          in_valid,
  input  logic          res,       // residual block (PE_HIF4_SPARSE)
  input  logic [WB-1:0] a,
  input  logic [WB-1:0] b_bus,
  // weights (any cycle)
  input  logic          w_swap,
  input  logic          w_we,
  // accumulate stage (STAGES cycles after the issue)
  input  logic          use_acc,
  input  logic          pass,
  input  logic [31:0]   x_in,
  output logic          out_valid,
  output logic [31:0]   nxt,
  output logic [31:0]   acc
);
  // Verilated once and instantiated R x C times with --hierarchical (cosim/tlm_calibration).
  /*verilator hier_block*/
  logic [WB-1:0] w_act, w_sh, b;
  logic [31:0]   dot, x, sum;

  always_ff @(posedge clk) begin
    if (w_we && ws && !wdb)      w_act <= b_bus;
    else if (w_swap)             w_act <= w_sh;
    if (w_we && ws && wdb)       w_sh <= b_bus;
  end
  assign b = !ws ? b_bus : (w_swap ? w_sh : w_act);

  array_dot #(.PE(PE), .HIF8_N(HIF8_N), .HIF8_W(HIF8_W), .HIF8_STICKY(HIF8_STICKY), .STAGES(STAGES), .WB(WB)) u_dot (
    .clk, .rst_n, .in_valid, .res, .a, .b, .out_valid, .out(dot));

  assign x = use_acc ? acc : x_in;
  hifsim_fp_add #(.MANT_BITS(23), .ROUND_RZ(0)) u_add (.x(x), .y(dot), .r(sum));
  assign nxt = out_valid ? sum : x_in;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n)                 acc <= '0;
    else if (out_valid || pass) acc <= nxt;
  end
endmodule
