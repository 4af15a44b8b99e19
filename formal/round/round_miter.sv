// round_miter: hifsim_round_fp32 (the RTL, one parameter set) against ref_round (the
// reference from IEEE semantics) for every input the parameter set allows: |sum| < 2^MAG_BITS
// and lsb_exp in [LSB_EXP_MIN, LSB_EXP_MAX] (the defaults allow every input). Combinational, so
// a 1-step proof covers every input (tests/formal/run_formal.py).
module round_miter #(
  parameter int WS = 32,
  parameter int WE = 11,
  parameter int MAG_BITS    = WS,
  parameter int LSB_EXP_MIN = -(2 ** (WE - 1)),
  parameter int LSB_EXP_MAX = 2 ** (WE - 1) - 1
) (
  input logic [WS-1:0] sum,
  input logic [WE-1:0] lsb_exp
);
  logic [31:0] out_rtl, out_ref;
  hifsim_round_fp32 #(.WS(WS), .WE(WE), .MAG_BITS(MAG_BITS), .LSB_EXP_MIN(LSB_EXP_MIN),
                      .LSB_EXP_MAX(LSB_EXP_MAX)) dut (.sum, .lsb_exp, .out(out_rtl));
  ref_round #(.WS(WS), .WE(WE), .P(24), .RZ(0)) ref_model (.sum, .lsb_exp, .out(out_ref));

  logic [WS:0] mag;
  assign mag = sum[WS-1] ? ({1'b0, ~sum} + 1'b1) : {1'b0, sum};
  always_comb begin
    assume ((mag >> MAG_BITS) == '0 || MAG_BITS >= WS);
    assume ($signed(lsb_exp) >= LSB_EXP_MIN && $signed(lsb_exp) <= LSB_EXP_MAX);
    assert (out_rtl == out_ref);
  end
endmodule
