#!/usr/bin/env python3
"""scripts/pdk/node_tables.py: the step hifsim_flows.pdk.node_tables (python/hifsim_flows/pdk/node_tables.py; --help)."""
import _flow; _flow.run("node_tables")  # noqa: E702
