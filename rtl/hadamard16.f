hifsim_pkg.sv
hifsim_pipe_reg.sv
hifsim_fp_add.sv
hifsim_round_fp32.sv
hadamard16.sv
