hifsim_pkg.sv
hifsim_pipe_reg.sv
hifsim_round_fp32.sv
nvfp4_dot64.sv
