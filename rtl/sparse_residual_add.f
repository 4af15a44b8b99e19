hifsim_pkg.sv
hifsim_pipe_reg.sv
hifsim_round_fp32.sv
hifsim_fp_add.sv
hif4_dot_tail.sv
sparse_residual_add.sv
