// hif8_dot: the HiF8 N-wide dot product with hierarchical alignment (docs/datapath.md section
// 4-5), bit-exact with hifsim::dp::Hif8DotN (model/datapath/aligned_dot.cpp) for the same N and
// AlignSpec {W, trunc/sticky}. The datapath is hifsim_aligned_dot (FMT = 0); see that file for
// the stage table and the STAGES cut points (0..4, default 3).
//
// Operands (packed code vectors, little-endian):
//   a, b  [8N-1:0]  N HiF8 codes, element k at [8k+7 : 8k]
// Output: out [31:0], FP32 bits (NaN = 0x7FC00000, zero = +0).
//
// Parameters:
//   N       16, 32 or 64 (the model's --hif8-lanes; any power of two 2..64 is accepted)
//   W       alignment window: 0 = exact (the model's default: implemented as the 82-bit window
//           that never drops a bit), or 8..120
//   STICKY  0: trunc (bits below the window dropped), 1: sticky (one jam bit below the window)
//   STAGES  pipeline register ranks, 0..4
module hif8_dot #(
  parameter int N      = 64,
  parameter int W      = 0,
  parameter int STICKY = 0,
  parameter int STAGES = 3
) (
  input  logic           clk,
  input  logic           rst_n,
  input  logic           in_valid,
  output logic           in_ready,
  input  logic [8*N-1:0] a,
  input  logic [8*N-1:0] b,
  output logic           out_valid,
  input  logic           out_ready,
  output logic [31:0]    out
);
  hifsim_aligned_dot #(.FMT(0), .N(N), .W(W), .STICKY(STICKY), .STAGES(STAGES)) u_dot (
    .clk, .rst_n, .in_valid, .in_ready, .a, .b, .out_valid, .out_ready, .out
  );
endmodule
