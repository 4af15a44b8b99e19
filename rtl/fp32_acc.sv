// fp32_acc: the FP32 accumulator register of docs/datapath.md section 6, bit-exact with
// hifsim::dp::Accumulator for `fp32` (MANT_BITS = 23, ROUND_RZ = 0) and `fp32-m<b>-rne|rz`
// (MANT_BITS = b, ROUND_RZ = 0|1).
//
// One operation per clock, chosen by priority:
//   clear                 acc <= +0
//   init                  acc <= round_P(init_value)     (Accumulator::reset(init_value))
//   add_valid             acc <= round_P(acc + addend)   (Accumulator::add_value(addend))
//   otherwise             acc holds
// `acc` is the register (FP32 bits; a NaN is always 0x7FC00000). The addend is the dot unit's
// FP32 output. Reset (rst_n low, asynchronous) clears to +0.
// round_P(v) for init is computed by the same adder as v + (-0), which is exactly fp_round
// (a zero keeps its sign, NaN becomes canonical, other values are rounded to P bits).
module fp32_acc #(
  parameter int MANT_BITS = 23,   // 1..23: mantissa bits of the register (precision MANT_BITS+1)
  parameter int ROUND_RZ  = 0     // 0: round to nearest even; 1: round toward zero
) (
  input  logic        clk,
  input  logic        rst_n,
  input  logic        clear,
  input  logic        init,
  input  logic [31:0] init_value,
  input  logic        add_valid,
  input  logic [31:0] addend,
  output logic [31:0] acc
);
  // Every value of a P-bit register has its low 23 - MANT_BITS mantissa bits zero (the adder
  // never produces others), so only the upper bits are stored.
  localparam int DROP = 23 - MANT_BITS;
  localparam int WREG = 32 - DROP;

  logic [WREG-1:0] acc_q;
  logic [31:0]     acc_full, op_x, op_y, sum;

  if (DROP > 0) begin : g_reduced
    assign acc_full = {acc_q, {DROP{1'b0}}};
    logic unused_sum_low;  // the adder's low mantissa bits, always 0 for this precision
    assign unused_sum_low = |sum[DROP-1:0];
  end else begin : g_fp32
    assign acc_full = acc_q;
  end
  assign op_x = init ? init_value : acc_full;
  assign op_y = init ? hifsim_pkg::FP32_NEG_ZERO : addend;

  hifsim_fp_add #(.MANT_BITS(MANT_BITS), .ROUND_RZ(ROUND_RZ)) u_add (
    .x(op_x), .y(op_y), .r(sum)
  );

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n)                 acc_q <= '0;
    else if (clear)             acc_q <= '0;
    else if (init || add_valid) acc_q <= sum[31:DROP];
  end

  assign acc = acc_full;
endmodule
