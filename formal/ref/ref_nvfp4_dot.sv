// ref_nvfp4_dot: the formal reference for nvfp4_dot64, written from the NVFP4 definition
// (docs/formats.md: 16-element E2M1 blocks with an E4M3 scale; OCP MX 5.3.3 for E2M1, OCP OFP8
// for E4M3; docs/datapath.md section 2), not from the RTL:
//   E2M1 element: (-1)^s x {0, 0.5, 1, 1.5, 2, 3, 4, 6}[code & 7]
//   E4M3 scale (E4M3FN, bias 7): e = 0: (-1)^s m 2^-9; e > 0: (-1)^s (8 + m) 2^(e - 10);
//     S.1111.111 = NaN; no infinity. Written as sig x 2^(sh - 9), sh = max(e - 1, 0).
//   dot = sum_j (sum of the 16 products of sub-block j) x scA[j] x scB[j], exact: in units of
//         2^-20 (quarter units x 2^-9 x 2^-9) an integer below 2^50 in magnitude
// out = that exact value rounded once to FP32 (ref_round: roundTiesToEven); NaN (0x7FC00000) when
// any of the eight scales is NaN; an exactly zero dot is +0. The FP32 per-tensor scales are not
// part of the unit (docs/datapath.md section 2: the GEMM applies alpha = fl(sA sB) after the
// accumulation), so not part of this reference either.
// Split at the unit's stage contract (formal/nv/nv_miter.sv): ref_nvfp4_front gives the four
// sub-block sums S[j] (quarter units), ref_nvfp4_tail the rest from S[j] and the scale codes.
// Formal-only: never synthesised.
module ref_nvfp4_front (
  input  logic [255:0] a,
  input  logic [255:0] b,
  output logic [51:0]  s     // S[j] at [13j +: 13]
);
  function automatic logic [3:0] e2m1_x2(input logic [2:0] m);   // the OCP value table x 2
    case (m)
      3'd0: e2m1_x2 = 4'd0;
      3'd1: e2m1_x2 = 4'd1;
      3'd2: e2m1_x2 = 4'd2;
      3'd3: e2m1_x2 = 4'd3;
      3'd4: e2m1_x2 = 4'd4;
      3'd5: e2m1_x2 = 4'd6;
      3'd6: e2m1_x2 = 4'd8;
      default: e2m1_x2 = 4'd12;
    endcase
  endfunction
  always_comb begin
    logic signed [19:0] acc, p;
    for (int j = 0; j < 4; j++) begin
      acc = '0;   // element order, one chain; |S| <= 16 x 144 = 2304
      for (int k = 16*j; k < 16*j + 16; k++) begin
        p = 20'(e2m1_x2(a[4*k +: 3]) * e2m1_x2(b[4*k +: 3]));
        acc = (a[4*k+3] ^ b[4*k+3]) ? acc - p : acc + p;
      end
      s[13*j +: 13] = 13'(acc);
    end
  end
endmodule

module ref_nvfp4_tail (
  input  logic [51:0] s,     // S[j] at [13j +: 13], two's complement, quarter units
  input  logic [31:0] sa,
  input  logic [31:0] sb,
  output logic [31:0] out
);
  logic signed [55:0] t;     // the exact dot in units of 2^-20
  logic               nan;
  always_comb begin
    logic [3:0] sga, sgb;
    logic [4:0] sha, shb;
    logic [7:0] ss;
    logic signed [55:0] term;
    t   = '0;
    nan = 1'b0;
    for (int j = 0; j < 4; j++) begin
      // E4M3 code fields: sign [7], exponent [6:3], mantissa [2:0]
      nan = nan || (sa[8*j +: 7] == 7'h7F) || (sb[8*j +: 7] == 7'h7F);
      sga = (sa[8*j+3 +: 4] == 4'd0) ? {1'b0, sa[8*j +: 3]} : {1'b1, sa[8*j +: 3]};
      sgb = (sb[8*j+3 +: 4] == 4'd0) ? {1'b0, sb[8*j +: 3]} : {1'b1, sb[8*j +: 3]};
      sha = (sa[8*j+3 +: 4] == 4'd0) ? 5'd0 : 5'(sa[8*j+3 +: 4]) - 5'd1;
      shb = (sb[8*j+3 +: 4] == 4'd0) ? 5'd0 : 5'(sb[8*j+3 +: 4]) - 5'd1;
      // S[j]/4 x sigA 2^(shA-9) x sigB 2^(shB-9) = S[j] sigA sigB 2^(shA+shB) x 2^-20
      ss   = 8'(sga) * 8'(sgb);
      term = (56'($signed(s[13*j +: 13])) * {48'd0, ss}) << (sha + shb);
      t = (sa[8*j+7] ^ sb[8*j+7]) ? t - term : t + term;
    end
  end
  logic [31:0] rounded;
  ref_round #(.WS(56), .WE(8), .P(24), .RZ(0)) u_round (.sum(t), .lsb_exp(-8'sd20), .out(rounded));
  assign out = nan ? 32'h7FC00000 : rounded;
endmodule

module ref_nvfp4_dot (
  input  logic [255:0] a,
  input  logic [255:0] b,
  input  logic [31:0]  sa,
  input  logic [31:0]  sb,
  output logic [31:0]  out
);
  logic [51:0] s;
  ref_nvfp4_front u_front (.a, .b, .s);
  ref_nvfp4_tail  u_tail (.s, .sa, .sb, .out);
endmodule
