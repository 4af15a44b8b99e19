# shellcheck shell=bash
# scripts/yosys_row.sh: the one Yosys recipe of scripts/synth.sh (units) and
# scripts/cost_synth.sh (cost probes), sourced by both so that their rows stay comparable (the
# cost model fits probe rows and checks unit rows against each other).
#
# yosys_row DIR SRCS MOD PARAMS LOG WORK
#   In DIR: read_verilog -sv SRCS, chparam PARAMS (NAME=VALUE pairs joined by ';', "-" = the
#   module's defaults), synth -flatten [MOD's options of scripts/synth_options.txt] -top MOD, check -assert, `stat` (WORK.stat) and
#   `stat -tech cmos` (WORK.cmos); Yosys log in LOG. Prints the CSV row
#     module,parameters,cells,transistors,flip_flops,transistors_exclude_ffs,yosys_version,seconds
#   and returns 0, or returns 1 when Yosys fails. Needs $YOSYS and $YVER (its version line).
#   flip_flops counts the $_DFF*/$_SDFF*/$_DLATCH* cells: `stat -tech cmos` has no cost for them,
#   so `transistors` excludes them (transistors_exclude_ffs = yes; Yosys prints "N+").
yosys_row() {
  local dir="$1" srcs="$2" mod="$3" params="$4" log="$5" work="$6" chp="" kv kvs
  if [[ "$params" != "-" ]]; then
    IFS=';' read -ra kvs <<<"$params"
    for kv in "${kvs[@]}"; do chp+="chparam -set ${kv%%=*} ${kv#*=} $mod; "; done
  fi
  # The unit's extra `synth` options (scripts/synth_options.txt, shared with the sky130 flow).
  local opts
  opts=$(awk -v m="$mod" '{sub(/#.*/, "")} $1 == m {$1 = ""; sub(/^ +/, ""); print; exit}' \
    "$(dirname "${BASH_SOURCE[0]}")/synth_options.txt")
  local t0 t1
  t0=$(date +%s.%N)
  (cd "$dir" && "$YOSYS" -l "$log" -q -p \
    "read_verilog -sv $srcs; ${chp}synth -flatten ${opts:+$opts }-top $mod; check -assert; tee -o $work.stat stat; tee -o $work.cmos stat -tech cmos" \
    >/dev/null 2>&1) || return 1
  t1=$(date +%s.%N)
  local cells tr ffs excl=no
  cells=$(awk '/Number of cells:/ {v=$4} END {print v}' "$work.stat")
  tr=$(awk '/Estimated number of transistors:/ {v=$5} END {print v}' "$work.cmos")
  ffs=$(awk '$1 ~ /^\$_(DFF|SDFF|DFFE|SDFFE|SDFFCE|DLATCH|ALDFF|DFFSR|DFFSRE)/ {s+=$2} END {print s+0}' "$work.stat")
  if [[ "$tr" == *+ ]]; then excl=yes; tr="${tr%+}"; fi
  printf '%s,%s,%s,%s,%s,%s,%s,%.1f\n' "$mod" "$params" "$cells" "$tr" "$ffs" "$excl" "$YVER" \
    "$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')"
}

# yosys_rows TAG: calls `run_one K ENTRY` (the caller's: writes $TMP/K.row or $TMP/K.fail) for
# every ENTRY of the caller's RUNS array ("module|...|parameters", K = 1, 2, ...), $JOBS at a time,
# then writes $TMP/out.csv (the header and the rows in RUNS order), prints each failure to stderr
# and sets FAILS to their count.
yosys_rows() {
  local tag="$1" i=0 k r
  for r in "${RUNS[@]}"; do
    i=$((i + 1))
    echo "[$tag] ($i/${#RUNS[@]}) ${r%%|*} ${r##*|}"
    run_one "$i" "$r" &
    while (($(jobs -rp | wc -l) >= JOBS)); do wait -n || true; done
  done
  wait
  FAILS=0
  {
    echo "module,parameters,cells,transistors,flip_flops,transistors_exclude_ffs,yosys_version,seconds"
    for ((k = 1; k <= ${#RUNS[@]}; k++)); do
      if [[ -f "$TMP/$k.row" ]]; then cat "$TMP/$k.row"; fi
    done
  } >"$TMP/out.csv"
  for ((k = 1; k <= ${#RUNS[@]}; k++)); do
    if [[ -f "$TMP/$k.fail" ]]; then cat "$TMP/$k.fail" >&2; FAILS=$((FAILS + 1)); fi
  done
}
