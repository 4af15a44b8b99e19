#!/usr/bin/env bash
# The SCALE-Sim 3 peer (docs/tlm.md, "Side by side with SCALE-Sim"): its own virtual environment,
# because scalesim needs numpy < 2.3 and the project's .venv pins a newer numpy. Idempotent;
# prints the venv's python. Never touches .venv.
#   bash scripts/peers/scalesim_venv.sh [DIR]      (default build/peers/scalesim-venv)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VENV="${1:-$ROOT/build/peers/scalesim-venv}"
PINS=("scalesim==3.0.0" "numpy==2.2.6")
if [[ ! -x "$VENV/bin/python" ]]; then
  echo "[scalesim] creating $VENV" >&2
  python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c "import scalesim, numpy; assert numpy.__version__ == '${PINS[1]#numpy==}'" 2>/dev/null; then
  echo "[scalesim] installing ${PINS[*]}" >&2
  "$VENV/bin/pip" install --quiet "${PINS[@]}"
fi
echo "$VENV/bin/python"
