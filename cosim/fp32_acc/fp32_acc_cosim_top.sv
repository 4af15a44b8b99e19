// fp32_acc_cosim_top: NV parameter sets of rtl/fp32_acc.sv side by side on one input stream, so
// one Verilated model checks them all (cosim/fp32_acc/main.cpp). Not synthesised.
// cfg[32v +: 32] = {group 0, latency 1, 16'b0, ROUND_RZ, MANT_BITS[6:0]} of variant v (the
// register takes its new value at the clock edge of the operation: latency 1). The harness reads
// the parameter sets from the model itself, so this list is the only place they are written
// down: every set of scripts/synth.sh and the extremes m4 / m1, each with both roundings (m1 with
// round-to-nearest: issue 30's sampling hole of class 1, docs/formal.md). A smaller NV keeps the first NV
// sets (NV >= 3, so that `out` is a VlWide port in the Verilated model).
// As in cosim/common/cosim_top.sv, `in` holds one clock step's words as the bench lists them
// (word 0 = {add_valid, init, clear}, word 1 = init_value, word 2 = addend) and `out` the output
// words (acc of variant v at out[32v +: 32]), so the harness drives it with the shared BusPorts.
module fp32_acc_cosim_top #(
  parameter int NV = 12
) (
  input  logic             clk,
  input  logic             rst_n,
  input  logic [95:0]      in,
  output logic [NV*32-1:0] out,
  output logic [NV*32-1:0] cfg
);
  function automatic int mant_of(int v);
    case (v)
      0, 1:    mant_of = 23;
      2, 3:    mant_of = 13;
      4, 8:    mant_of = 10;
      5, 9:    mant_of = 7;
      6, 11:   mant_of = 4;
      default: mant_of = 1;
    endcase
  endfunction
  function automatic int rz_of(int v);
    case (v)
      1, 3, 5, 7, 8, 11: rz_of = 1;
      default:       rz_of = 0;
    endcase
  endfunction

  for (genvar v = 0; v < NV; v++) begin : g_var
    localparam int MB = mant_of(v);
    localparam int RZ = rz_of(v);
    fp32_acc #(.MANT_BITS(MB), .ROUND_RZ(RZ)) u_acc (
      .clk, .rst_n, .clear(in[0]), .init(in[1]), .init_value(in[32 +: 32]), .add_valid(in[2]),
      .addend(in[64 +: 32]), .acc(out[32*v +: 32])
    );
    assign cfg[32*v +: 32] = {4'd0, 4'd1, 16'd0, RZ[0], MB[6:0]};
  end
  logic unused_ok;  // the rest of the control word
  assign unused_ok = &{1'b0, in[31:3]};
endmodule
