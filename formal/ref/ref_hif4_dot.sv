// ref_hif4_dot: the formal reference for hif4_dot64, written from the HiF4 unit definition
// (../shared/reference/hif4.md sections 1.2-1.4, layout (A) of section 2), not from the RTL:
//   V[k] = (-1)^s[k] * (m[k]/4) * 2^(E1_8[k>>3] + E1_16[k>>2]) * 2^(E-48) * (1 + M/4)
//   dot  = sum_k VA[k] * VB[k] = S * (4+MA)(4+MB) * 2^(EA+EB-104),
//          S = sum_k (-1)^(sa^sb) * ma*mb * 2^(local exponents of both), an integer
// out = that value in FP32 (exact by the format's range; ref_round rounds nothing), NaN
// (0x7FC00000) when either E6M2 scale is 0xFF, +0 for a zero dot. Products summed in element
// order, one adder chain: deliberately not the RTL's group tree.
module ref_hif4_dot (
  input  logic [287:0] a,
  input  logic [287:0] b,
  output logic [31:0]  out
);
  logic signed [39:0] s, big;
  logic [9:0]         x;
  always_comb begin
    logic [2:0] ma, mb;
    logic [2:0] sh;
    logic signed [39:0] p;
    s = '0;
    for (int k = 0; k < 64; k++) begin
      ma = a[32 + 4*k +: 3];
      mb = b[32 + 4*k +: 3];
      sh = 3'(a[8 + k/8]) + 3'(a[16 + k/4]) + 3'(b[8 + k/8]) + 3'(b[16 + k/4]);
      p  = 40'(ma * mb) << sh;
      s  = (a[32 + 4*k + 3] ^ b[32 + 4*k + 3]) ? s - p : s + p;
    end
    big = s * 40'((4 + a[1:0]) * (4 + b[1:0]));
    x   = 10'(a[7:2]) + 10'(b[7:2]) - 10'd104;
  end
  logic [31:0] rounded;
  ref_round #(.WS(40), .WE(10), .P(24), .RZ(0)) u_round (.sum(big), .lsb_exp(x), .out(rounded));
  assign out = (a[7:0] == 8'hFF || b[7:0] == 8'hFF) ? 32'h7FC00000 : rounded;
endmodule
