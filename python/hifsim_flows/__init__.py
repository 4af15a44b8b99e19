"""hifsim_flows: the EDA flows around the RTL (docs/cost.md section 11): the sky130 flow in
hifsim_flows.pdk (characterization, synthesis and timing, gate-level energy, calibration, tables).

Not part of the hifsim wheel: the flows read the repository (rtl/, configs/) and run ngspice, Yosys
and OpenSTA. Run a step as a module with the repository's python/ folder on PYTHONPATH,
`PYTHONPATH=python python3 -m hifsim_flows.pdk.synth_all ...`; scripts/pdk/regenerate.sh runs
them all, and the steps the docs name keep their scripts/pdk/<step>.py entry points.
"""
