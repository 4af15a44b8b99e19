#!/usr/bin/env bash
# tests/python/fresh_venv.sh SRC WORK: the "real pip install" test of the Python package.
#   1. `pip wheel SRC`: scikit-build-core builds the C++ model, the `hifsim` program and the
#      nanobind extension from the sources into one wheel (no build/ folder is used);
#   2. a fresh virtual environment WORK/venv (python3 -m venv) gets `pip install <wheel>` and
#      pytest, and from another folder must import the installed copies and run the command;
#   3. when Debian's python3-torch is installed, WORK/venv-torch (system site packages: torch
#      and numpy from Debian) gets the same wheel, for the hifsim.torch tests.
set -euo pipefail
SRC="$(cd "$1" && pwd)"; WORK="$2"
say() { printf '[python.install] %s\n' "$*"; }
rm -rf "$WORK"; mkdir -p "$WORK/wheel"
python3 -m venv "$WORK/venv"
V="$WORK/venv/bin/python"
t0=$(date +%s)
say "pip wheel $SRC (builds the C++ model and the extension)"
"$V" -m pip wheel -q --disable-pip-version-check --no-deps -w "$WORK/wheel" "$SRC"
WHEEL=$(ls "$WORK"/wheel/hifsim-*.whl)
t1=$(date +%s)
say "built $(basename "$WHEEL") in $((t1 - t0)) s"
"$V" -m pip install -q --disable-pip-version-check "$WHEEL" "pytest==9.0.2"
say "installed into a fresh venv in $(($(date +%s) - t1)) s"

check_import() {  # the modules must be the venv's installed copies, not source or build files
  (cd "$(mktemp -d)" && "$1" - "$2" <<'PY'
import sys
from pathlib import Path
venv = Path(sys.argv[1]).resolve()
import numpy as np
import hifsim, hifsim._ext
for mod in (hifsim, hifsim._ext):
    where = Path(mod.__file__).resolve()
    assert (venv / "lib") in where.parents, f"{mod.__name__} imported from {where}, not from {venv}'s site-packages"
c = hifsim.gemm(np.ones((2, 64), np.float32), np.ones((3, 64), np.float32), "bf16")
assert c.shape == (2, 3) and float(c[0, 0]) == 64.0, c
print("[python.install] import hifsim from", Path(hifsim.__file__).parent, "; bf16 gemm(ones) =", float(c[0, 0]))
PY
  )
}
check_import "$V" "$WORK/venv"
"$WORK/venv/bin/hifsim" --version
"$WORK/venv/bin/hifsim" table --format hif8 | sed -n 1,2p

if /usr/bin/python3 -c "import torch" 2>/dev/null; then
  /usr/bin/python3 -m venv --system-site-packages "$WORK/venv-torch"
  "$WORK/venv-torch/bin/python" -m pip install -q --disable-pip-version-check --no-deps "$WHEEL"
  "$WORK/venv-torch/bin/python" -m pip install -q --disable-pip-version-check "pytest==9.0.2"
  check_import "$WORK/venv-torch/bin/python" "$WORK/venv-torch"
  say "venv-torch: torch $("$WORK/venv-torch/bin/python" -c 'import torch; print(torch.__version__)') from Debian"
else
  say "no torch for /usr/bin/python3 (Debian python3-torch): the hifsim.torch tests will fail"
fi
say "ok"
