#!/usr/bin/env bash
# The 200-step runs of every shipped recipe on stories260K (label train-long, docs/training.md
# "Loss gaps"): `hifsim train` per recipe with the same seed and data, then the loss-gap table
# and the combined loss plot (scripts/train_summary.py). Fails when bf16 ends more than 2 % above
# fp32. Usage: train_recipes.sh HIFSIM OUT_DIR [STEPS] [SEED] [RECIPES...]
set -euo pipefail
hifsim=$1 out=$2 steps=${3:-200} seed=${4:-0}
shift $(( $# < 4 ? $# : 4 ))
recipes=("$@")
[ ${#recipes[@]} -gt 0 ] || recipes=(fp32 bf16 nvfp4 mxfp4 hif4 hif8)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
python=${HIFSIM_PYTHON:-$here/../.venv/bin/python}
mkdir -p "$out"
start=$(date +%s)
for r in "${recipes[@]}"; do
  t0=$(date +%s.%N)
  "$hifsim" train --recipe "$r" --steps "$steps" --seed "$seed" --quiet --out "$out/$r"
  echo "$r: $(python3 -c "print(f'{$(date +%s.%N) - $t0:.1f}')") s" | tee -a "$out/times.txt"
done
echo "all ${#recipes[@]} recipes: $(( $(date +%s) - start )) s (load: $(cut -d' ' -f1-3 /proc/loadavg))" | tee -a "$out/times.txt"
"$python" "$here/train_summary.py" "$out" "${recipes[@]}"
