hifsim_pkg.sv
hifsim_pipe_reg.sv
hifsim_round_fp32.sv
mxfp8_dot32.sv
