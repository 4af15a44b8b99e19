// cost_probe_dec_e2m1: the E2M1 (FP4) element decode of the NVFP4/MXFP4 dot units, magnitude
// code -> value in half units {0,1,2,3,4,6,8,12}. Area probe for the cost model (docs/cost.md).
module cost_probe_dec_e2m1 (
  input  logic [2:0] c,
  output logic [3:0] y
);
  always_comb begin
    case (c)
      3'd0: y = 4'd0;
      3'd1: y = 4'd1;
      3'd2: y = 4'd2;
      3'd3: y = 4'd3;
      3'd4: y = 4'd4;
      3'd5: y = 4'd6;
      3'd6: y = 4'd8;
      default: y = 4'd12;
    endcase
  end
endmodule
