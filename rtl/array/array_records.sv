// array_records: splits a memory block of N records {8-bit scale, CODE_BITS of element codes}
// (record j = bits [(8 + CODE_BITS) j +: 8 + CODE_BITS], scale first, matrix_unit_pkg) into the
// scale and code vectors the scaled dot units take (array_dot: NVFP4 4 x {E4M3, 64}, MXFP4
// 2 x {E8M0, 128}, MXFP8 1 x {E8M0, 256}). Wiring only.
module array_records #(
  parameter int N         = 4,
  parameter int CODE_BITS = 64
) (
  input  logic [N*(8+CODE_BITS)-1:0] block,
  output logic [N*8-1:0]             scales,
  output logic [N*CODE_BITS-1:0]     codes
);
  for (genvar j = 0; j < N; j++) begin : g_rec
    assign scales[8*j +: 8]               = block[(8 + CODE_BITS)*j +: 8];
    assign codes[CODE_BITS*j +: CODE_BITS] = block[(8 + CODE_BITS)*j + 8 +: CODE_BITS];
  end
endmodule
