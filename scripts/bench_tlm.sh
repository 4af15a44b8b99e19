#!/usr/bin/env bash
# Speed of the matrix-unit model (docs/performance.md, "Matrix-unit model"): simulated cycles per
# wall-clock second of a 4096^3 GEMM on the 32 x 32 HiF4 unit (timing only, LT and AT; with
# values), and the wall time of every GEMM of one Llama-3-8B decoder layer at 2048 tokens in
# timing-only mode (71 GEMMs: 7 projections + 32 heads x 2 attention GEMMs, all simulated).
#   bash scripts/bench_tlm.sh [HIFSIM]     (default build/bin/hifsim)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
H="${1:-$ROOT/build/bin/hifsim}"
CFG="$ROOT/configs/units/hif4-32x32.yaml"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
py() { python3 -c "import json,sys; r=json.load(open('$1')); print($2)"; }
echo "machine: $(nproc) CPUs, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| run | simulated cycles | wall s | simulated cycles/s |"
echo "|---|---:|---:|---:|"
row() {  # name, result.json
  py "$2" "'| $1 | %d | %.3f | %.3g |' % (r['run']['simulated_cycles'], r['run']['wall_seconds'], r['run']['simulated_cycles_per_second'])"
}
for mode in lt at; do
  "$H" run --config "$CFG" --set sim.mode=$mode --gemm 4096,4096,4096 --timing-only --quiet --out "$OUT/t_$mode"
  row "4096^3, timing only, TLM $mode" "$OUT/t_$mode/result.json"
done
"$H" run --config "$CFG" --gemm 4096,4096,4096 --timing-only --engine analytic --quiet --out "$OUT/t_an"
row "4096^3, timing only, analytic (no SystemC)" "$OUT/t_an/result.json"
"$H" run --config "$CFG" --gemm 4096,4096,4096 --quiet --out "$OUT/v"
row "4096^3, with values, TLM lt" "$OUT/v/result.json"
start=$(date +%s.%N)
"$H" run --config "$CFG" --trace "$ROOT/traces/shapes/llama3-8b-prefill2048" --one-layer --simulate-all --quiet --out "$OUT/l"
end=$(date +%s.%N)
row "Llama-3-8B layer, 2048 tokens, 71 GEMMs, timing only, TLM lt" "$OUT/l/result.json"
echo
echo "Llama-3-8B layer: $(python3 -c "print('%.2f' % ($end - $start))") s wall for the whole hifsim run (process start to exit)"
