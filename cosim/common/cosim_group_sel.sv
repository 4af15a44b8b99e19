// cosim_group_sel: the handshake of the cosim top (cosim/common/cosim_top.sv), whose NI unit
// instances form groups of PG consecutive instances. The instances of group `sel` get the
// top's in_valid / out_ready and drive its in_ready / out_valid / out (the AND of their
// handshakes: the instances of a group share STAGES and stay in lockstep; a divergence stalls or
// reorders and is caught); every other instance sees in_valid = 0 and out_ready = 0 and stays
// empty. Only the harnesses use this (docs/cosim.md); it is not synthesised.
module cosim_group_sel #(
  parameter int NI = 1,   // instances
  parameter int PG = 1,   // instances per group (NI / PG groups, at most 16)
  parameter int OW = 32   // output bits per instance
) (
  input  logic [3:0]       sel,
  input  logic             in_valid,
  output logic             in_ready,
  output logic             out_valid,
  input  logic             out_ready,
  output logic [PG*OW-1:0] out,
  output logic [NI-1:0]    inst_in_valid,
  input  logic [NI-1:0]    inst_in_ready,
  input  logic [NI-1:0]    inst_out_valid,
  output logic [NI-1:0]    inst_out_ready,
  input  logic [NI*OW-1:0] inst_out
);
  localparam int NG = NI / PG;

  for (genvar i = 0; i < NI; i++) begin : g_inst
    assign inst_in_valid[i]  = in_valid && (sel == 4'(i / PG));
    assign inst_out_ready[i] = out_ready && (sel == 4'(i / PG));
  end

  always_comb begin
    in_ready  = 1'b0;
    out_valid = 1'b0;
    out       = '0;
    for (int g = 0; g < NG; g++) begin
      if (sel == 4'(g)) begin
        in_ready  = &inst_in_ready[PG*g +: PG];
        out_valid = &inst_out_valid[PG*g +: PG];
        out       = inst_out[PG*OW*g +: PG*OW];
      end
    end
  end
endmodule
