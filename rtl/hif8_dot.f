hifsim_pkg.sv
hifsim_pipe_reg.sv
hifsim_round_fp32.sv
hifsim_aligned_dot.sv
hif8_dot.sv
