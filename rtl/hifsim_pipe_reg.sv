// hifsim_pipe_reg: one optional pipeline register rank with a valid/ready handshake.
//
// EN = 1: a register slice. The slice accepts when it is empty or when the next stage takes
// its content in the same cycle (up_ready = !valid || dn_ready), so a full pipeline moves one
// item per cycle and bubbles are squeezed out under back-pressure. The ready path is
// combinational through the chain of slices (fine for the short chains of the dot units).
// EN = 0: wires (valid, ready and data pass straight through).
//
// Shared by every dot unit: a unit is comb stage -> pipe_reg -> comb stage -> ... with EN taken
// from its STAGES parameter, so the cut points are documented in one place per unit.
module hifsim_pipe_reg #(
  parameter int W  = 1,
  parameter bit EN = 1'b1
) (
  input  logic         clk,
  input  logic         rst_n,
  input  logic         up_valid,
  output logic         up_ready,
  input  logic [W-1:0] up_data,
  output logic         dn_valid,
  input  logic         dn_ready,
  output logic [W-1:0] dn_data
);
  if (EN) begin : g_reg
    logic         v_q;
    logic [W-1:0] d_q;
    assign up_ready = !v_q || dn_ready;
    always_ff @(posedge clk or negedge rst_n) begin
      if (!rst_n) v_q <= 1'b0;
      else if (up_ready) v_q <= up_valid;
    end
    // Data registers need no reset: they are only read while v_q is set.
    always_ff @(posedge clk) begin
      if (up_ready && up_valid) d_q <= up_data;
    end
    assign dn_valid = v_q;
    assign dn_data  = d_q;
  end else begin : g_wire
    assign up_ready = dn_ready;
    assign dn_valid = up_valid;
    assign dn_data  = up_data;
    // clk and rst_n are unused in this configuration.
    logic unused_ok;
    assign unused_ok = &{1'b0, clk, rst_n};
  end
endmodule
