"""Report rendering and plots: python -m hifsim.report.render_report OUT (the format comparison
report), hifsim.report.pareto (sweep Pareto plots), hifsim.report.results_parquet."""
