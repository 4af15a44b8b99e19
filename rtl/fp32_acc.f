hifsim_pkg.sv
hifsim_fp_add.sv
fp32_acc.sv
