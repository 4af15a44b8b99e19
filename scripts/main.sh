#!/usr/bin/env bash
# The main job from a fresh clone: installs what is missing, builds, and runs the format
# comparison. (Until `hifsim compare` lands this is the codec comparison on the shipped
# sample array; the command name stays the same.)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
JOBS="${HIFSIM_JOBS:-$(nproc)}"
bash scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$JOBS" --target hifsim
OUT="reports/codec-comparison"
mkdir -p "$OUT"
FORMATS="hif4,nvfp4,mxfp4,hif8,mxfp8-e4m3,fp8-e4m3,bf16"
for f in ${FORMATS//,/ }; do
  echo "[main] quantizing traces/sample/activations.npy to $f"
  build/bin/hifsim quantize --format "$f" --in traces/sample/activations.npy --out "$OUT/$f.npy"
done
.venv/bin/python scripts/codec_compare.py --input traces/sample/activations.npy --dir "$OUT" --formats "$FORMATS"
echo "[main] results in $OUT/comparison.md and $OUT/comparison.csv"
