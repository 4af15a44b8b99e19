#!/usr/bin/env bash
# `hifsim cost` end to end (ctest cost.cli): outputs and their fields, the unit comparison, a
# missing table entry failing with file + field, and the cost section of `hifsim run`.
#   cli_cost.sh HIFSIM REPO_ROOT OUT_DIR
set -euo pipefail
# shellcheck source=tests/common/cli_prelude.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/cli_prelude.sh"  # H ROOT OUT A fail

# A GEMM on real values: every output and the fields the issue asks for.
"$H" cost --config "$ROOT/configs/units/hif4-32x32.yaml" --gemm 64,64,1024 --a "$A" --b "$A" --out "$OUT/g" --quiet
for x in cost.json cost.csv manifest.json; do [[ -s $OUT/g/$x ]] || fail "no $x"; done
for k in total_mm2 logic_ge sram_mm2 energy_per_op_pj energy_per_mac_pj energy_per_gemm_pj compute buffers memory power_w edp_js alpha; do
  grep -q "\"$k\"" "$OUT/g/cost.json" || fail "cost.json has no $k"
done

# Same config twice: identical numbers (the sample is seeded).
"$H" cost --config "$ROOT/configs/units/hif4-32x32.yaml" --gemm 64,64,1024 --a "$A" --b "$A" --out "$OUT/g2" --quiet
cmp -s <(grep -v '"tables"' "$OUT/g/cost.json") <(grep -v '"tables"' "$OUT/g2/cost.json") || fail "not reproducible"

# Formats differ on the same data.
"$H" cost --config "$ROOT/configs/units/nvfp4-32x32.yaml" --gemm 64,64,1024 --a "$A" --b "$A" --out "$OUT/n" --quiet
d1=$(grep -m1 '"dot": ' "$OUT/g/cost.json"); d2=$(grep -m1 '"dot": ' "$OUT/n/cost.json")
[[ "$d1" != "$d2" ]] || fail "hif4 and nvfp4 dot energies are equal"

# Area only (no GEMM) and a shape-only trace (seeded normal values).
"$H" cost --config "$ROOT/configs/units/bf16-32x32.yaml" --out "$OUT/area" --quiet
grep -q '"total_mm2"' "$OUT/area/cost.json" || fail "area-only report"
"$H" cost --config "$ROOT/configs/units/mxfp4-32x32.yaml" --trace "$ROOT/traces/shapes/llama3-8b-decode-b64" --sample 256 \
    --out "$OUT/shape" --quiet
grep -q 'seeded normal values' "$OUT/shape/cost.json" || fail "shape-only trace: activity source not named"

# The unit comparison: five rows and the paper's claims.
"$H" cost --compare-units --sample 512 --out "$OUT/cmp" > "$OUT/cmp.txt"
[[ $(grep -c '^| \(hif4\|nvfp4\|mxfp4\|hif8\|bf16\) x' "$OUT/cmp/compare.md") -eq 5 ]] || fail "compare.md rows"
grep -q 'about 1/3 of NVFP4' "$OUT/cmp/compare.md" || fail "compare.md: paper claims"

# What is costed: a unit's components, widths and register ranks as CSV (the RTL's cut table and
# widths: tests/hw checks them against the elaborated module); a bad parameter is named.
"$H" cost --inventory --unit nvfp4_dot64 --set STAGES=3 > "$OUT/inv.csv"
head -1 "$OUT/inv.csv" | grep -q '^unit,parameters,component,class,p1,p2,count,cut,after,shared,ge_each,ge,what$' || fail "inventory header"
grep -q '^nvfp4_dot64,STAGES=3,s4.mul,mul,13,8,4,0,,no,' "$OUT/inv.csv" || fail "inventory: s4.mul row"
grep -q '^nvfp4_dot64,STAGES=3,pipe.c3,reg,105,0,1,3,s4,no,' "$OUT/inv.csv" || fail "inventory: rank after s4"
[[ $(grep -c ',pipe.c' "$OUT/inv.csv") -eq 3 ]] || fail "inventory: STAGES=3 has 3 ranks"
if "$H" cost --inventory --unit hif8_dot --set N=16,X=3 > /dev/null 2> "$OUT/inv.err"; then fail "unknown unit parameter accepted"; fi
grep -q "hif8_dot: X: unknown parameter" "$OUT/inv.err" || fail "inventory message: $(cat "$OUT/inv.err")"

# A missing coefficient: exit non-zero, one line naming the file and the entry.
mkdir -p "$OUT/tables"
cp "$ROOT"/configs/cost/*.yaml "$ROOT"/configs/cost/synth.csv "$OUT/tables/"
grep -v '^e_mul:' "$ROOT/configs/cost/energy-45nm.yaml" > "$OUT/tables/energy-45nm.yaml"
if "$H" cost --tables "$OUT/tables" --config "$ROOT/configs/units/hif4-32x32.yaml" --gemm 64,64,64 --out "$OUT/bad" 2> "$OUT/bad.err"; then
  fail "missing entry accepted"
fi
grep -q "tables/energy-45nm.yaml: e_mul: missing entry" "$OUT/bad.err" || fail "message: $(cat "$OUT/bad.err")"

# hifsim run reports a cost section.
"$H" run --config "$ROOT/configs/units/hif4-32x32.yaml" --gemm 64,64,1024 --a "$A" --b "$A" --engine analytic \
    --set tiling.m=32,tiling.n=32,tiling.k=256 --out "$OUT/run" --quiet
grep -q '"cost": {' "$OUT/run/result.json" || fail "hifsim run: no cost section"
grep -q '"energy_per_mac_pj"' "$OUT/run/result.json" || fail "hifsim run: no energy per MAC"
# A config the cost model does not cover: the run goes on, the cost section says why.
"$H" run --config "$ROOT/configs/units/hif4-32x32.yaml" --gemm 64,64,256 --engine analytic --timing-only \
    --set pe.accumulator=kulisch --out "$OUT/kul" --quiet
grep -q '"unsupported": ".*pe.accumulator: kulisch' "$OUT/kul/result.json" || fail "kulisch: no unsupported note"
echo "cli_cost: all checks passed"
