hifsim_pkg.sv
hifsim_pipe_reg.sv
transpose_buffer.sv
