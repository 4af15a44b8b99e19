#!/usr/bin/env python3
"""scripts/pdk/build_liberty.py: the step hifsim_flows.pdk.build_liberty (python/hifsim_flows/pdk/build_liberty.py; --help)."""
import _flow; _flow.run("build_liberty")  # noqa: E702
