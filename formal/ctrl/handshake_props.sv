// handshake_props: the control properties every pipelined unit must meet, checked by ABC pdr
// (unbounded, formal/prove.py) on a wrapper formal/ctrl_wrap.py generates around the unit:
//
//   latency   out_ready high implies in_ready high; when out_ready was high in each of the last
//             STAGES cycles, out_valid is exactly the accepted input (in_valid && in_ready) of
//             STAGES cycles earlier (at STAGES 0: out_valid = in_valid, below)
//   protocol  the items inside (accepted in - delivered out) never go below
//             0 (no output without an input) or above STAGES (no item duplicated or lost in a
//             register), out_valid implies an item inside, and at STAGES 0 the unit is wires
//             (out_valid = in_valid, in_ready = out_ready)
//   reset     every property from the first cycle after rst_n low; rst_n low empties the unit
//
// Reset is asserted in the first cycle (assumption); after it rst_n is free, and the reference
// history restarts on every reset (a cycle with rst_n low is a cycle after which the unit is
// empty: the properties are checked again from the next cycle).
module handshake_props #(
  parameter int STAGES = 3
) (
  input logic clk,
  input logic rst_n,
  input logic in_valid,
  input logic in_ready,
  input logic out_valid,
  input logic out_ready
);
  localparam int WC = $clog2(STAGES + 2) + 1;
  logic            first = 1'b1;
  logic [STAGES:0] hist = '0;     // hist[i]: an input was accepted i + 1 cycles ago
  logic [WC-1:0]   inside = '0;   // accepted - delivered, before this cycle
  logic [STAGES:0] ready_hist = '0;  // ready_hist[i]: out_ready was high i + 1 cycles ago
  logic            acc_in, del_out, accepted_stages_ago;
  assign acc_in  = in_valid && in_ready;
  assign del_out = out_valid && out_ready;
  always_ff @(posedge clk) begin
    first <= 1'b0;
    if (!rst_n) begin
      hist   <= '0;
      inside <= '0;
    end else begin
      hist <= (STAGES + 1)'({hist, acc_in});
      ready_hist <= (STAGES + 1)'({ready_hist, out_ready});
      inside <= inside + WC'(acc_in) - WC'(del_out);
    end
  end
  always_comb begin
    accepted_stages_ago = (STAGES == 0) ? acc_in : hist[(STAGES > 0) ? STAGES - 1 : 0];
    if (first) assume (!rst_n);
    if (!first && rst_n) begin
      if (out_ready) assert (in_ready);
      if (STAGES > 0 && &ready_hist[(STAGES > 0) ? STAGES - 1 : 0 : 0]) assert (out_valid == accepted_stages_ago);
      if (STAGES == 0) begin
        assert (out_valid == in_valid);
        assert (in_ready == out_ready);
      end else begin
        assert (!out_valid || inside != 0);
        assert ($signed({1'b0, inside}) <= STAGES);
        assert (!(del_out && inside == 0));
      end
    end
  end
endmodule
