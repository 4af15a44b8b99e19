"""The unit catalog (model/datapath/hw_catalog.cpp; `hifsim units --json` prints the same): every
RTL unit with its parameters (default, range), its variant sets per purpose (lint, drift,
regression, sweep, synthesis, validation, calibration) and each set's cost-model config."""
from __future__ import annotations

import json

from . import _ext


def unit_catalog() -> dict:
    """{"schema": "hifsim-units/1", "synthesis_order": [...], "units": [{"name", "params", "sets", ...}]}."""
    return json.loads(_ext.unit_catalog_json())
