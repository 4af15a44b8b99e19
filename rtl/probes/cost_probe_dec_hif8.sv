// cost_probe_dec_hif8: the HiF8 element decode of the HiF8 dot unit (hif8.md): the 7-bit
// magnitude code -> 4-bit significand 1.mmm (mantissa padded to 3 bits) and 6-bit signed
// exponent of that significand's LSB; the dot field selects one of five layouts, codes below
// 0x08 are denormals 2^(c-23). NaN/Inf are flagged elsewhere. Area probe for the cost model
// (docs/cost.md); not bit-exact RTL of a unit.
module cost_probe_dec_hif8 (
  input  logic [6:0] c,
  output logic [3:0] sig,
  output logic [5:0] e
);
  always_comb begin
    logic [3:0] mag;
    mag = 4'd0;
    if (c < 7'h08) begin
      sig = 4'd8;
      e   = {3'b000, c[2:0]} - 6'd26;
    end else if (c >= 7'h60) begin
      sig = {2'b10, c[0], 1'b0};
      mag = 4'd8 + {1'b0, c[3:1]};
      e   = c[4] ? (6'd0 - {2'b00, mag}) - 6'd3 : {2'b00, mag} - 6'd3;
    end else if (c >= 7'h40) begin
      sig = {2'b10, c[1:0]};
      mag = 4'd4 + {2'b00, c[3:2]};
      e   = c[4] ? (6'd0 - {2'b00, mag}) - 6'd3 : {2'b00, mag} - 6'd3;
    end else if (c >= 7'h20) begin
      sig = {1'b1, c[2:0]};
      mag = 4'd2 + {3'b000, c[3]};
      e   = c[4] ? (6'd0 - {2'b00, mag}) - 6'd3 : {2'b00, mag} - 6'd3;
    end else if (c >= 7'h10) begin
      sig = {1'b1, c[2:0]};
      e   = c[3] ? 6'd0 - 6'd4 : 6'd1 - 6'd3;
    end else begin
      sig = {1'b1, c[2:0]};
      e   = 6'd0 - 6'd3;
    end
  end
endmodule
