#!/usr/bin/env python3
"""scripts/pdk/calibrate.py: the step hifsim_flows.pdk.calibrate (python/hifsim_flows/pdk/calibrate.py; --help)."""
import _flow; _flow.run("calibrate")  # noqa: E702
