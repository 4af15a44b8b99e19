hifsim_pkg.sv
hifsim_pipe_reg.sv
sr_quantizer.sv
