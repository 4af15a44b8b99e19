#!/usr/bin/env bash
# scripts/synth.sh: Yosys synthesis report of the RTL (docs/cosim.md, "Synthesis report").
#
# For every module and parameter set in UNITS below: read_verilog -sv, chparam, synth -flatten
# (Yosys generic gates), then `stat` and `stat -tech cmos`. Writes one CSV row per run:
#
#   module,parameters,cells,transistors,flip_flops,transistors_exclude_ffs,yosys_version,seconds
#
#   cells          generic cells after synth (gates + flip-flops), the `stat` total
#   transistors    `stat -tech cmos` estimate (Yosys's CMOS gate costs)
#   flip_flops     $_DFF*/$_SDFF*/$_DLATCH* cells: `stat -tech cmos` has no cost for them, so
#                  `transistors` excludes them (transistors_exclude_ffs = yes; Yosys prints "N+")
#
# Parameters are written NAME=VALUE joined by ';' (no commas, so the CSV needs no quoting).
# The cost model fits area coefficients to this CSV. UNITS is generated from the unit catalog's
# synthesis sets (model/datapath/hw_catalog.cpp; `hifsim units --update scripts/synth.sh`).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# module | parameter sets separated by spaces; inside a set, NAME=VALUE pairs separated by ';'
# ("-" = the module's defaults). A module's sources are its file list rtl/<module>.f.
# Every STAGES value of every unit, except hif8_dot N=64 exact and bf16_dot64 W=64 at STAGES=0
# (fully combinational): Yosys 0.23's `synth -flatten` of either did not finish in 27 / 10 min of
# CPU (1.7 / 0.9 GB) on 2026-12-02, where their STAGES=1 runs take 7-11 min end to end (docs/results/sky130-2026-12-02.md).
UNITS=(
  # ---- BEGIN generated from the unit catalog (synthesis sets; hifsim units --update scripts/synth.sh)
  "hif4_dot64|STAGES=0 STAGES=1 STAGES=2 STAGES=3 STAGES=4 STAGES=5"
  "fp32_acc|MANT_BITS=23;ROUND_RZ=0 MANT_BITS=23;ROUND_RZ=1 MANT_BITS=13;ROUND_RZ=0 MANT_BITS=13;ROUND_RZ=1 MANT_BITS=10;ROUND_RZ=0 MANT_BITS=10;ROUND_RZ=1 MANT_BITS=7;ROUND_RZ=0 MANT_BITS=7;ROUND_RZ=1"
  "nvfp4_dot64|STAGES=0 STAGES=1 STAGES=2 STAGES=3 STAGES=4 STAGES=5"
  "mxfp4_dot64|STAGES=0 STAGES=1 STAGES=2 STAGES=3 STAGES=4"
  "mxfp8_dot32|E5M2=0;STAGES=0 E5M2=0;STAGES=1 E5M2=0;STAGES=2 E5M2=0;STAGES=3 E5M2=1;STAGES=2"
  "hif8_dot|N=16;W=24 N=16;W=40 N=16;W=82 N=32;W=24 N=32;W=40 N=32;W=82 N=64;W=24 N=64;W=40 N=64;W=82 N=64;W=40;STICKY=1 N=64;W=0;STAGES=1 N=64;W=0;STAGES=2 N=64;W=0;STAGES=3 N=64;W=0;STAGES=4"
  "bf16_dot64|W=32;STICKY=1 W=64;STICKY=1 W=64;STICKY=0 W=64;STICKY=1;STAGES=1 W=64;STICKY=1;STAGES=2 W=64;STICKY=1;STAGES=4"
  "sparse_residual_add|STAGES=0 STAGES=1 STAGES=2 STAGES=3 STAGES=4 STAGES=5"
  "hif4_quantizer|STAGES=0 STAGES=1 STAGES=2 STAGES=3 STAGES=4 STAGES=3;ELEM_RNE=1;CMP_BF16=1"
  "hadamard16|STAGES=0 STAGES=1 STAGES=2 STAGES=3 STAGES=4 STAGES=5"
  "sr_quantizer|STAGES=0 STAGES=1 STAGES=2 STAGES=3 STAGES=4 STAGES=5 STAGES=6 STAGES=4;SR_BITS=4 STAGES=4;SR_BITS=16 STAGES=4;FMT=1 STAGES=4;FMT=2"
  "transpose_buffer|STAGES=0 STAGES=1 T=8;W=32 T=16;W=16"
  # ---- END generated from the unit catalog
)

# shellcheck source=scripts/rtl_files.sh
source "$ROOT/scripts/rtl_files.sh"  # unit_sources: a module's sources from rtl/<module>.f

OUT="$ROOT/build/synth/synth.csv"
ONLY=""
JOBS=1
KEEP_LOGS=0

usage() {
  cat <<EOF
usage: scripts/synth.sh [--out FILE] [--only REGEX] [--jobs N] [--keep-logs] [--list] [--list-sources] [--check-complete]

Synthesises every rtl/ module and parameter set with Yosys (generic cells; stat and
stat -tech cmos) and writes a CSV:
  module,parameters,cells,transistors,flip_flops,transistors_exclude_ffs,yosys_version,seconds

  --out FILE     CSV path (default build/synth/synth.csv); logs go next to it in logs/
  --only REGEX   only runs whose "module parameters" matches REGEX (grep -E), e.g. 'fp32_acc.*RZ=1'
  --jobs N       parallel Yosys runs (default 1; the machine's cores are shared)
  --keep-logs    keep every Yosys log (default: only the logs of failed runs)
  --list         print the runs and exit
  --list-sources print the runs as "module|sources|parameters" and exit (hifsim_flows.pdk reads this
                 list, so the sky130 flow synthesises exactly these units)
  --check-complete  exit 1 unless UNITS lists every top module of rtl/*.sv (a module that no
                 other rtl/*.sv file instantiates) and each has its file list rtl/<top>.f; runs no
                 synthesis (CTest rtl.synth_sh_lists_every_module)
EOF
}

LIST=0
CHECK=0
while (($#)); do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --out) OUT="$2"; shift 2 ;;
    --only) ONLY="$2"; shift 2 ;;
    --jobs) JOBS="$2"; shift 2 ;;
    --keep-logs) KEEP_LOGS=1; shift ;;
    --list) LIST=1; shift ;;
    --list-sources) LIST=2; shift ;;
    --check-complete) CHECK=1; shift ;;
    *) echo "synth.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
done

if ((CHECK)); then
  listed=" "
  missing=0
  for u in "${UNITS[@]}"; do
    listed+="${u%%|*} "
    [[ -f "$ROOT/rtl/${u%%|*}.f" ]] || { echo "synth.sh: ${u%%|*} has no file list rtl/${u%%|*}.f" >&2; missing=1; }
  done
  for f in "$ROOT"/rtl/*.sv; do
    mod="$(sed -n 's/^module \([A-Za-z_0-9]*\).*/\1/p' "$f" | head -1)"
    [[ -n "$mod" ]] || continue
    # Instantiated by another rtl/ module (`name #(` or `name u_...`): synthesised inside it.
    if grep -lE "^[[:space:]]*${mod}[[:space:]]*(#|u_)" "$ROOT"/rtl/*.sv | grep -qv "^$f\$"; then continue; fi
    if [[ "$listed" != *" $mod "* ]]; then
      echo "synth.sh: top module $mod ($f) is not in UNITS" >&2
      missing=1
    fi
  done
  ((missing)) && exit 1
  echo "synth.sh: UNITS lists every top module of rtl/*.sv"
  exit 0
fi

OUT="$(realpath -m "$OUT")"
YOSYS="${YOSYS:-yosys}"
command -v "$YOSYS" >/dev/null || { echo "synth.sh: yosys not found (scripts/setup.sh installs it)" >&2; exit 1; }
YVER="$("$YOSYS" -V | head -1)"

# The run list: "module|sources|params"
RUNS=()
for u in "${UNITS[@]}"; do
  IFS='|' read -r mod sets <<<"$u"
  srcs="$(unit_sources "$mod")"
  for p in $sets; do
    if [[ -n "$ONLY" ]] && ! grep -Eq -- "$ONLY" <<<"$mod $p"; then continue; fi
    RUNS+=("$mod|$srcs|$p")
  done
done
if ((LIST == 1)); then
  printf '%s\n' "${RUNS[@]}" | awk -F'|' '{print $1, $3}'
  exit 0
elif ((LIST == 2)); then
  printf '%s\n' "${RUNS[@]}"
  exit 0
fi
((${#RUNS[@]})) || { echo "synth.sh: no run matches --only '$ONLY'" >&2; exit 2; }

OUTDIR="$(dirname "$OUT")"
LOGDIR="$OUTDIR/logs"
mkdir -p "$LOGDIR"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# shellcheck source=scripts/yosys_row.sh
source "$ROOT/scripts/yosys_row.sh"  # yosys_row: the recipe and the CSV row (shared with cost_synth.sh)

# One run of RUNS ("module|sources|params"): writes $TMP/<n>.row (a CSV row) or $TMP/<n>.fail.
run_one() {
  local n="$1" mod srcs params row
  IFS='|' read -r mod srcs params <<<"$2"
  local log="$LOGDIR/${mod}_${params//[;=]/_}.log"
  if ! row="$(yosys_row "$ROOT/rtl" "$srcs" "$mod" "$params" "$log" "$TMP/$n")"; then
    echo "$mod $params: FAILED (log: $log)" >"$TMP/$n.fail"
    return
  fi
  echo "$row" >"$TMP/$n.row"
  ((KEEP_LOGS)) || rm -f "$log"
}

echo "[synth] ${#RUNS[@]} runs, $JOBS at a time, $YVER"
yosys_rows synth
mkdir -p "$OUTDIR"
mv "$TMP/out.csv" "$OUT"
if command -v column >/dev/null; then column -s, -t <"$OUT"; else cat "$OUT"; fi | sed 's/^/[synth]   /'
echo "[synth] wrote $OUT ($(( $(wc -l <"$OUT") - 1 )) rows)"
if ((FAILS)); then
  echo "[synth] $FAILS run(s) failed" >&2
  exit 1
fi
