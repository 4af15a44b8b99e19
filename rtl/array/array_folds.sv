// array_folds: the position of a WS fold walk in array_core, shared by the streamer (rows of A
// into the weights, one per gather of fa cycles) and the weight loader (rows of B weights, one PE
// row per gather of fb cycles). Each active cycle advances the gather; its last cycle moves a row
// (`tick`); after the fold's last row the walk moves to the next fold, K folds kf < nkf inside
// column passes pc < npc, wrapping to (0, 0) after the step's last fold.
module array_folds (
  input  logic       clk,
  input  logic       rst_n,
  input  logic       running,
  input  logic       act,        // the walk is active this cycle
  input  logic [7:0] gn,         // cycles per row (the gather)
  input  logic [7:0] rows,       // rows per fold
  input  logic [7:0] nkf,
  input  logic [7:0] npc,
  output logic [7:0] g,          // cycle within the gather
  output logic [7:0] row,
  output logic [7:0] kf,
  output logic [7:0] pc,
  output logic       tick,       // a row moves this cycle
  output logic       row_last,   // the current row is the fold's last
  output logic       step_last   // the current fold is the step's last
);
  assign tick      = act && g + 8'd1 == gn;
  assign row_last  = row + 8'd1 == rows;
  assign step_last = kf + 8'd1 == nkf && pc + 8'd1 == npc;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      g <= '0; row <= '0; kf <= '0; pc <= '0;
    end else if (!running) begin
      g <= '0; row <= '0; kf <= '0; pc <= '0;
    end else if (act) begin
      g <= tick ? 8'd0 : g + 8'd1;
      if (tick) begin
        if (!row_last) row <= row + 8'd1;
        else begin
          row <= 8'd0;
          if (kf + 8'd1 != nkf) kf <= kf + 8'd1;
          else begin
            kf <= 8'd0;
            pc <= (pc + 8'd1 == npc) ? 8'd0 : pc + 8'd1;
          end
        end
      end
    end
  end
endmodule
