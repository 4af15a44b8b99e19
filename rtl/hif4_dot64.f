hifsim_pkg.sv
hifsim_pipe_reg.sv
hif4_dot64.sv
