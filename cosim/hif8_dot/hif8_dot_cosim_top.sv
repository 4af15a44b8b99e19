// hif8_dot_cosim_top: NV parameter sets of rtl/hif8_dot.sv side by side, in lockstep on one
// valid/ready handshake, so one Verilated model checks them all (cosim/hif8_dot/main.cpp). Not
// synthesised. A variant with N lanes takes the first N codes of a and b.
// cfg[16v +: 16] = {STICKY, N[6:0], W[7:0]} of variant v: the harness reads the parameter sets
// from the model, so this list is the only place they are written down.
module hif8_dot_cosim_top #(
  parameter int NV     = 4,
  parameter int STAGES = 4
) (
  input  logic             clk,
  input  logic             rst_n,
  input  logic             in_valid,
  output logic             in_ready,
  input  logic [511:0]     a,
  input  logic [511:0]     b,
  output logic             out_valid,
  input  logic             out_ready,
  output logic [NV*32-1:0] out,
  output logic [NV*16-1:0] cfg
);
  function automatic int n_of(int v);
    case (v)
      0:       n_of = 64;
      1, 2:    n_of = 32;
      default: n_of = 16;
    endcase
  endfunction
  function automatic int w_of(int v);
    case (v)
      0:       w_of = 0;    // exact (the model's default)
      1:       w_of = 24;
      2:       w_of = 40;
      default: w_of = 8;
    endcase
  endfunction
  function automatic int sticky_of(int v);
    sticky_of = (v >= 2) ? 1 : 0;
  endfunction

  logic [NV-1:0] rdy, vld;
  for (genvar v = 0; v < NV; v++) begin : g_var
    localparam int N  = n_of(v);
    localparam int W  = w_of(v);
    localparam int ST = sticky_of(v);
    hif8_dot #(.N(N), .W(W), .STICKY(ST), .STAGES(STAGES)) u_dot (
      .clk, .rst_n, .in_valid, .in_ready(rdy[v]), .a(a[8*N-1:0]), .b(b[8*N-1:0]),
      .out_valid(vld[v]), .out_ready, .out(out[32*v +: 32])
    );
    assign cfg[16*v +: 16] = {ST[0], N[6:0], W[7:0]};
    if (N < 64) begin : g_unused
      logic unused_ok;  // the codes beyond lane N-1
      assign unused_ok = &{1'b0, a[511:8*N], b[511:8*N]};
    end
  end
  assign in_ready  = &rdy;
  assign out_valid = &vld;
endmodule
