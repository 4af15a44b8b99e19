#!/usr/bin/env bash
# scripts/cost_synth.sh: the synthesis rows the cost model's area fit uses (docs/cost.md, "Area").
#
# 1. The component probes of rtl/probes/ (multiplier, adder, adder tree, shifter, normalizer,
#    multiplexer, max tree) over several widths, synthesised with exactly the recipe of
#    scripts/synth.sh (read_verilog -sv, chparam, synth -flatten, check -assert, stat,
#    stat -tech cmos) and written in the same CSV columns:
#      module,parameters,cells,transistors,flip_flops,transistors_exclude_ffs,yosys_version,seconds
# 2. With --units: the matrix-unit modules of scripts/synth.sh (its own UNITS table), appended,
#    and the STAGES=0 dot units of the VALIDATION list below that synth.sh does not cover.
#
# The committed snapshot configs/cost/synth.csv is what tests/cost and `hifsim cost` read (no
# Yosys needed at test time). Regenerate it with:
#   bash scripts/cost_synth.sh --units --out configs/cost/synth.csv
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# module | parameter sets (NAME=VALUE pairs joined by ';', sets separated by spaces; "-" = none)
PROBES=(
  "cost_probe_mul|WA=2;WB=2 WA=3;WB=3 WA=4;WB=4 WA=5;WB=5 WA=6;WB=6 WA=8;WB=8 WA=4;WB=8 WA=13;WB=8 WA=17;WB=6 WA=11;WB=11 WA=16;WB=16 WA=24;WB=24"
  "cost_probe_add|W=4 W=8 W=12 W=16 W=24 W=32 W=48 W=64"
  "cost_probe_tree|N=4;W=9 N=8;W=9 N=16;W=9 N=32;W=9 N=64;W=9 N=8;W=14 N=4;W=21 N=2;W=49 N=64;W=16 N=16;W=12"
  "cost_probe_shift|W=8;S=1 W=14;S=2 W=16;S=3 W=21;S=5 W=8;S=6 W=16;S=6 W=32;S=5 W=24;S=4"
  "cost_probe_norm|W=8 W=12 W=16 W=22 W=24 W=27 W=32 W=40 W=51 W=64 W=72"
  "cost_probe_mux|W=8;N=2 W=16;N=2 W=32;N=2 W=8;N=4 W=16;N=4 W=8;N=8 W=4;N=16"
  "cost_probe_smmul|W=2 W=3 W=4 W=5 W=6 W=8"
  "cost_probe_dec_e2m1|-"
  "cost_probe_dec_hif8|-"
  "cost_probe_max|N=4;W=6 N=8;W=7 N=16;W=7 N=64;W=7 N=64;W=10 N=32;W=9"
)

# Validation rows (--units): combinational (STAGES=0) dot units of rtl/ that the unit inventories
# are checked against (tests/cost), synthesised with the same recipe unless scripts/synth.sh
# already produced the same module and parameters. module | parameter set; the sources are the
# module's file list rtl/<module>.f.
VALIDATION=(
  # ---- BEGIN generated from the unit catalog (validation sets)
  "nvfp4_dot64|STAGES=0"
  "mxfp4_dot64|STAGES=0"
  # ---- END generated from the unit catalog
)
# shellcheck source=scripts/rtl_files.sh
source "$ROOT/scripts/rtl_files.sh"

OUT="$ROOT/build/synth/cost_synth.csv"
ONLY=""
JOBS=1
UNITS=0
LIST=0
usage() {
  cat <<USAGE
usage: scripts/cost_synth.sh [--out FILE] [--only REGEX] [--jobs N] [--units] [--list]

Synthesises the cost-model probes (rtl/probes/) with Yosys and writes the CSV the area fit reads
(same columns as scripts/synth.sh). --units also runs scripts/synth.sh and appends its rows.
  --out FILE     CSV path (default build/synth/cost_synth.csv)
  --only REGEX   only probe runs whose "module parameters" matches REGEX
  --jobs N       parallel Yosys runs (default 1)
  --units        append the unit modules of scripts/synth.sh (takes a few minutes)
  --list         print the probe runs and exit
Snapshot used by the tests: bash scripts/cost_synth.sh --units --out configs/cost/synth.csv
USAGE
}
while (($#)); do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --out) OUT="$2"; shift 2 ;;
    --only) ONLY="$2"; shift 2 ;;
    --jobs) JOBS="$2"; shift 2 ;;
    --units) UNITS=1; shift ;;
    --list) LIST=1; shift ;;
    *) echo "cost_synth.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
done
OUT="$(realpath -m "$OUT")"
YOSYS="${YOSYS:-yosys}"

RUNS=()
for u in "${PROBES[@]}"; do
  IFS='|' read -r mod sets <<<"$u"
  for p in $sets; do
    if [[ -n "$ONLY" ]] && ! grep -Eq -- "$ONLY" <<<"$mod $p"; then continue; fi
    RUNS+=("$mod|$p")
  done
done
if ((LIST)); then printf '%s\n' "${RUNS[@]}" | tr '|' ' '; exit 0; fi
command -v "$YOSYS" >/dev/null || { echo "cost_synth.sh: yosys not found (scripts/setup.sh installs it)" >&2; exit 1; }
YVER="$("$YOSYS" -V | head -1)"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# shellcheck source=scripts/yosys_row.sh
source "$ROOT/scripts/yosys_row.sh"  # yosys_row: exactly the recipe and CSV row of scripts/synth.sh

# One run: "module|params" (a probe) or "module|sources|params" (a unit module of rtl/); writes
# $TMP/<n>.row (a CSV row) or $TMP/<n>.fail.
run_one() {
  local n="$1" mod="${2%%|*}" params="${2##*|}" row
  local dir="$ROOT/rtl/probes" srcs="$mod.sv"
  if [[ "$2" == *"|"*"|"* ]]; then dir="$ROOT/rtl"; srcs="${2#*|}"; srcs="${srcs%|*}"; fi
  if ! row="$(yosys_row "$dir" "$srcs" "$mod" "$params" "$TMP/$n.log" "$TMP/$n")"; then
    echo "$mod $params: FAILED" >"$TMP/$n.fail"
    cp "$TMP/$n.log" "$OUT.$mod.$n.log" 2>/dev/null || true
    return
  fi
  echo "$row" >"$TMP/$n.row"
}

mkdir -p "$(dirname "$OUT")"
echo "[cost_synth] ${#RUNS[@]} probe runs, $JOBS at a time, $YVER"
yosys_rows cost_synth
fails=$FAILS
if ((UNITS)); then
  echo "[cost_synth] unit modules: scripts/synth.sh"
  bash "$ROOT/scripts/synth.sh" --out "$TMP/units.csv" --jobs "$JOBS" || fails=$((fails + 1))
  [[ -f "$TMP/units.csv" ]] && tail -n +2 "$TMP/units.csv" >>"$TMP/out.csv"
  k=1000
  for v in "${VALIDATION[@]}"; do
    IFS='|' read -r mod params <<<"$v"
    if [[ -f "$TMP/units.csv" ]] && grep -q "^$mod,$params," "$TMP/units.csv"; then continue; fi
    srcs="$(unit_sources "$mod")" || { fails=$((fails + 1)); continue; }
    k=$((k + 1))
    echo "[cost_synth] validation: $mod $params"
    run_one "$k" "$mod|$srcs|$params"
    if [[ -f "$TMP/$k.row" ]]; then cat "$TMP/$k.row" >>"$TMP/out.csv"; fi
    if [[ -f "$TMP/$k.fail" ]]; then cat "$TMP/$k.fail" >&2; fails=$((fails + 1)); fi
  done
fi
mv "$TMP/out.csv" "$OUT"
echo "[cost_synth] wrote $OUT ($(( $(wc -l <"$OUT") - 1 )) rows)"
if ((fails)); then echo "[cost_synth] $fails failure(s)" >&2; exit 1; fi
