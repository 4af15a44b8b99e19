#!/usr/bin/env bash
# tests/python/installed_prefix.sh BUILD SRC: `cmake --install BUILD --prefix P` gives a working
# P/bin/hifsim from any directory. Runs the main job's compare step with the installed program
# from an unrelated folder (on the stories260k trace of the source tree, whose tensors the test
# suite generates), and checks that the unit configs it read and the Python package that drew
# the report are the installed ones, not the source tree's.
set -euo pipefail
BUILD="$(cd "$1" && pwd)"; SRC="$(cd "$2" && pwd)"
P="$(mktemp -d)/prefix"; WORK="$(mktemp -d)"
trap 'rm -rf "$(dirname "$P")" "$WORK"' EXIT
cmake --install "$BUILD" --prefix "$P" >/dev/null
for f in bin/hifsim share/hifsim/configs/units/hif4-32x32.yaml share/hifsim/configs/cost/area.yaml \
         lib/hifsim/python/hifsim/__init__.py lib/hifsim/python/hifsim/report/render_report.py; do
  [[ -e "$P/$f" ]] || { echo "installed prefix lacks $f" >&2; exit 1; }
done
ls "$P"/lib/hifsim/python/hifsim/_ext*.so >/dev/null
cd "$WORK"
"$P/bin/hifsim" compare --trace "$SRC/traces/stories260k" --formats hif4,bf16 --residual none \
  --ppl-tokens 0 --cost-sample 64 --train-steps 0 --out out --quiet
[[ -s out/report.html && -s out/data/accuracy_summary.csv && -s out/data/units.csv ]] \
  || { echo "compare from the installed prefix wrote no report" >&2; exit 1; }
"${HIFSIM_PYTHON:-python3}" - "$P" "$SRC" out/manifest.json <<'PY'
import json, sys
prefix, src, manifest = sys.argv[1:4]
m = json.load(open(manifest))
configs = list(m["configs_xxh3_64"])
assert configs, "the manifest lists no unit configs"
for c in configs:
    assert c.startswith(prefix + "/share/hifsim/"), f"config {c} was not read from the installed prefix"
print(f"[installed_prefix] compare ran from {prefix}/bin/hifsim with {len(configs)} installed configs")
PY
echo "[installed_prefix] ok"
