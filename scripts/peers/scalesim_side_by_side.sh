#!/usr/bin/env bash
# hifsim's timing core next to SCALE-Sim 3 on a GEMM shape set, both dataflows (docs/tlm.md,
# "Side by side with SCALE-Sim 3"): creates SCALE-Sim's own venv (scalesim_venv.sh) and prints the
# Markdown table of scalesim_side_by_side.py. Runs niced: it is a measurement, not a test.
#   bash scripts/peers/scalesim_side_by_side.sh [HIFSIM] [CONFIG]
#     (defaults build/bin/hifsim, configs/units/hif4-32x32.yaml)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
H="${1:-$ROOT/build/bin/hifsim}"
CFG="${2:-$ROOT/configs/units/hif4-32x32.yaml}"
PY="$(bash "$ROOT/scripts/peers/scalesim_venv.sh")"
echo "machine: $(nproc) CPUs, load average: $(cut -d' ' -f1-3 /proc/loadavg); $("$PY" -c 'import importlib.metadata as m; print("scalesim", m.version("scalesim"), "numpy", m.version("numpy"))')"
exec nice -n 10 "$PY" "$ROOT/scripts/peers/scalesim_side_by_side.py" --hifsim "$H" --config "$CFG"
