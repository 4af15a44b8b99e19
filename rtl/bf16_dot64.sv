// bf16_dot64: the BF16 64-wide dot product with hierarchical alignment (docs/datapath.md section
// 4-5), bit-exact with hifsim::dp::Bf16Dot64 (model/datapath/aligned_dot.cpp) for AlignSpec
// {W, trunc/sticky}. The datapath is hifsim_aligned_dot (FMT = 1); see that file for the stage
// table and the STAGES cut points (0..4, default 3).
//
// Operands (packed code vectors, little-endian):
//   a, b  [1023:0]  64 BF16 values, element k at [16k+15 : 16k]
// Output: out [31:0], FP32 bits (NaN = 0x7FC00000, zero = +0; subnormal results kept).
//
// Parameters:
//   W       alignment window, 16..120; default 64 with STICKY = 1 (the model's default_align).
//           No exact mode: BF16 products span 2^-266 .. 2^256, the exact window is 538 bits
//           (64 lanes of 538-bit shifters and a 545-bit adder tree); use the C++ model for W = 0.
//   STICKY  0: trunc, 1: sticky
//   STAGES  pipeline register ranks, 0..4
module bf16_dot64 #(
  parameter int W      = 64,
  parameter int STICKY = 1,
  parameter int STAGES = 3
) (
  input  logic          clk,
  input  logic          rst_n,
  input  logic          in_valid,
  output logic          in_ready,
  input  logic [1023:0] a,
  input  logic [1023:0] b,
  output logic          out_valid,
  input  logic          out_ready,
  output logic [31:0]   out
);
  hifsim_aligned_dot #(.FMT(1), .N(64), .W(W), .STICKY(STICKY), .STAGES(STAGES)) u_dot (
    .clk, .rst_n, .in_valid, .in_ready, .a, .b, .out_valid, .out_ready, .out
  );
endmodule
