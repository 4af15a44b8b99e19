hifsim_pkg.sv
hifsim_pipe_reg.sv
hifsim_round_fp32.sv
mxfp4_dot64.sv
