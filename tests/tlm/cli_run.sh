#!/usr/bin/env bash
# `hifsim run` end to end (ctest tlm.cli_run): results bit-identical to `hifsim gemm` for every
# format, both engines (tlm, analytic) give the same JSON numbers, outputs and manifest exist,
# bad configs fail with one clear line, shape-only traces run timing-only.
#   cli_run.sh HIFSIM REPO_ROOT OUT_DIR
set -euo pipefail
# shellcheck source=tests/common/cli_prelude.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/cli_prelude.sh"  # H ROOT OUT A fail

for f in hif4 nvfp4 mxfp4 hif8 bf16; do
  cfg=$ROOT/configs/units/$f-32x32.yaml
  "$H" gemm --format "$f" --a "$A" --b "$A" --out "$OUT/ref_$f.npy" --quiet
  for e in tlm analytic; do
    "$H" run --config "$cfg" --gemm 64,64,1024 --a "$A" --b "$A" --engine $e --out "$OUT/$f-$e" \
        --c-out "$OUT/c_${f}_${e}.npy" --set tiling.m=32,tiling.n=32,tiling.k=256 --quiet
    cmp -s "$OUT/ref_$f.npy" "$OUT/c_${f}_${e}.npy" || fail "$f $e: C differs from hifsim gemm"
    for x in result.json result.csv manifest.json; do [[ -s $OUT/$f-$e/$x ]] || fail "$f $e: no $x"; done
  done
  # Same cycles, actions and checksum from both engines (only the wall-clock part differs).
  a=$(grep -v -E '"(wall_seconds|simulated_cycles_per_second|engine)"' "$OUT/$f-tlm/result.json")
  b=$(grep -v -E '"(wall_seconds|simulated_cycles_per_second|engine)"' "$OUT/$f-analytic/result.json")
  [[ "$a" == "$b" ]] || fail "$f: tlm and analytic results differ"
  grep -q '"checksum": "[0-9a-f]\{16\}"' "$OUT/$f-tlm/result.json" || fail "$f: no checksum"
done

# Timing-only: no checksum, the same cycles as with values.
"$H" run --config "$ROOT/configs/units/hif4-32x32.yaml" --gemm 64,64,1024 --timing-only --out "$OUT/t" \
    --set tiling.m=32,tiling.n=32,tiling.k=256 --quiet
grep -q '"checksum": null' "$OUT/t/result.json" || fail "timing-only wrote a checksum"
c1=$(grep -m1 '"cycles": ' "$OUT/t/result.json")
c2=$(grep -m1 '"cycles": ' "$OUT/hif4-tlm/result.json")
[[ "$c1" == "$c2" ]] || fail "timing-only cycles differ: $c1 vs $c2"

# A shape-only trace runs timing-only; one CSV line per op plus TOTAL.
"$H" run --config "$ROOT/configs/units/hif4-32x32.yaml" --trace "$ROOT/traces/shapes/llama3-8b-decode-b64" \
    --out "$OUT/trace" --quiet
[[ $(wc -l < "$OUT/trace/result.csv") -eq 11 ]] || fail "trace CSV: expected header + 9 ops + TOTAL"
grep -q '"values": false' "$OUT/trace/result.json" || fail "shape-only trace computed values"

# Bad configs: exit code 2, one line naming file, field and reason.
printf 'schema: hifsim-unit/1\nname: x\npe: {format: hif4}\narray: {rows: 0, cols: 4}\n' > "$OUT/bad.yaml"
if "$H" run --config "$OUT/bad.yaml" --gemm 4,4,64 --out "$OUT/bad" 2> "$OUT/bad.err"; then fail "bad config accepted"; fi
grep -q "bad.yaml: array.rows: must be in \[1, 1024\], got 0 (line 4)" "$OUT/bad.err" || fail "message: $(cat "$OUT/bad.err")"
if "$H" run --config "$ROOT/configs/units/hif4-32x32.yaml" --set array.colz=3 --gemm 4,4,64 --out "$OUT/bad" 2> "$OUT/bad2.err"; then
  fail "unknown override accepted"
fi
grep -q "array.colz: unknown field; did you mean 'array.cols'?" "$OUT/bad2.err" || fail "message: $(cat "$OUT/bad2.err")"
# A training step (--recipe): per-kind lines, kinds adding up to the TOTAL, identical CSV from both
# engines; --recipe without --trace is refused naming the option.
for e in tlm analytic; do
  "$H" run --config "$ROOT/configs/units/nvfp4-32x32.yaml" --trace "$ROOT/traces/stories260k-train/trace.yaml" \
      --recipe nvfp4 --engine $e --out "$OUT/step-$e" --quiet > "$OUT/step-$e.txt"
done
cmp -s "$OUT/step-tlm/training_step.csv" "$OUT/step-analytic/training_step.csv" || fail "training step: engines differ"
grep -q '^  rht  ' "$OUT/step-tlm.txt" || fail "training step: no rht line: $(cat "$OUT/step-tlm.txt")"
awk -F, '$1 == "all" && $2 != "TOTAL" { s += $4 } $2 == "TOTAL" { t = $4 } END { exit !(s == t && t > 0) }' \
    "$OUT/step-tlm/training_step.csv" || fail "training step: kinds do not add up to the TOTAL"
# BF16 on a BF16 unit: its BF16 GEMMs and its FP32 ones (timed on BF16 PEs) in one TLM elaboration.
for e in tlm analytic; do
  "$H" run --config "$ROOT/configs/units/bf16-32x32.yaml" --trace "$ROOT/traces/stories260k-train/trace.yaml" \
      --recipe bf16 --engine $e --out "$OUT/step-bf16-$e" --quiet > /dev/null || fail "training step bf16 $e failed"
done
cmp -s "$OUT/step-bf16-tlm/training_step.csv" "$OUT/step-bf16-analytic/training_step.csv" || fail "training step bf16: engines differ"
if "$H" run --config "$ROOT/configs/units/nvfp4-32x32.yaml" --gemm 64,64,64 --recipe nvfp4 --out "$OUT/bad" 2> "$OUT/bad3.err"; then
  fail "--recipe without --trace accepted"
fi
grep -q -- "--recipe: needs --trace" "$OUT/bad3.err" || fail "message: $(cat "$OUT/bad3.err")"
echo "cli_run: all checks passed"
