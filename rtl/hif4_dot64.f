hifsim_pkg.sv
hifsim_pipe_reg.sv
hifsim_round_fp32.sv
hif4_dot_tail.sv
hif4_dot64.sv
