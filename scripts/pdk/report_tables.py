#!/usr/bin/env python3
"""scripts/pdk/report_tables.py: the step hifsim_flows.pdk.report_tables (python/hifsim_flows/pdk/report_tables.py; --help)."""
import _flow; _flow.run("report_tables")  # noqa: E702
