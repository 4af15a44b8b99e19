// fp32_acc_cosim_top: NV parameter sets of rtl/fp32_acc.sv side by side on one input stream, so
// one Verilated model checks them all (cosim/fp32_acc/main.cpp). Not synthesised.
// cfg[32v +: 32] = {group 0, latency 1, 16'b0, ROUND_RZ, MANT_BITS[6:0]} of variant v (the
// register takes its new value at the clock edge of the operation: latency 1). The harness reads
// the parameter sets from the model itself, so this list is the only place they are written
// down: every set of scripts/synth.sh and the extremes m4 / m1. A smaller NV keeps the first NV
// sets (NV >= 3, so that `acc` is a VlWide port in the Verilated model).
module fp32_acc_cosim_top #(
  parameter int NV = 10
) (
  input  logic             clk,
  input  logic             rst_n,
  input  logic             clear,
  input  logic             init,
  input  logic [31:0]      init_value,
  input  logic             add_valid,
  input  logic [31:0]      addend,
  output logic [NV*32-1:0] acc,
  output logic [NV*32-1:0] cfg
);
  function automatic int mant_of(int v);
    case (v)
      0, 1:    mant_of = 23;
      2, 3:    mant_of = 13;
      4, 8:    mant_of = 10;
      5, 9:    mant_of = 7;
      6:       mant_of = 4;
      default: mant_of = 1;
    endcase
  endfunction
  function automatic int rz_of(int v);
    case (v)
      1, 3, 5, 7, 8: rz_of = 1;
      default:       rz_of = 0;
    endcase
  endfunction

  for (genvar v = 0; v < NV; v++) begin : g_var
    localparam int MB = mant_of(v);
    localparam int RZ = rz_of(v);
    fp32_acc #(.MANT_BITS(MB), .ROUND_RZ(RZ)) u_acc (
      .clk, .rst_n, .clear, .init, .init_value, .add_valid, .addend,
      .acc(acc[32*v +: 32])
    );
    assign cfg[32*v +: 32] = {4'd0, 4'd1, 16'd0, RZ[0], MB[6:0]};
  end
endmodule
