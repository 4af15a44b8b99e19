#!/usr/bin/env bash
# The random long level (docs/tlm.md section 11) in rounds, so that a run with a wall-clock
# budget covers every configuration evenly: round r runs, for every PE type x variant {a, b} x
# dataflow {os, ws} x control {sequencer, program}, `tlm_calibration --random PER_ROUND
# --random-tiles --seed <SEED0 + r>`; no job starts after the deadline. Two jobs run at a time.
# `--summary` then folds every round's table into one line per configuration (shapes, mean and
# largest |cycle error|, shapes off, values).
# The ctest `calibration-long.*` (200 shapes, seed 1001, one process per configuration) is the
# fixed-size form of the same check.
#
#   cosim/tlm_calibration/long_rounds.sh BIN OUTDIR DEADLINE_EPOCH PER_ROUND SEED0 PE...
#   cosim/tlm_calibration/long_rounds.sh --summary OUTDIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

if [[ ${1:-} == --summary ]]; then
  out=$2
  # Table rows: | M | N | K | tiles | steps | order | TLM | RTL | error | values |
  # A job's CPU seconds (jobs.log, user + system of tlm_calibration) are shared over its rows.
  for f in "$out"/tables/*.md; do
    b=$(basename "$f" .md)
    cpu=$(sed -n "s/^$b rc=.* cpu=\([0-9.]*\)s\$/\1/p" "$out/jobs.log" 2>/dev/null | tail -1)
    awk -v cfg="${b%-r*}" -v cpu="${cpu:-0}" -F'|' 'NF >= 11 && $2 ~ /^ *[0-9]+ *$/ {
        e = $10; gsub(/[ %+]/, "", e); if (e < 0) e = -e
        row[++n] = cfg " " e " " ($11 ~ /bit-identical/ ? 1 : 0) }
      END { for (i = 1; i <= n; i++) print row[i], cpu / n }' "$f"
  done | sort -k1,1 | awk '
    { if ($1 != c) { if (c != "") out(); c = $1; n = s = mx = off = bad = t = 0 }
      n++; s += $2; if ($2 > mx) mx = $2; if ($2 > 0) off++; if (!$3) bad++; t += $4 }
    function out() { printf "%-28s shapes %4d  mean |error| %.3f %%  largest %.2f %%  off %d  values %s  CPU %.2f s/shape\n",
                     c, n, s / n, mx, off, (bad ? bad " DIFFER" : "bit-identical"), t / n }
    END { if (c != "") out() }'
  exit 0
fi

bin=$1 out=$2 deadline=$3 per=$4 seed0=$5
shift 5
mkdir -p "$out/tables"
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
for r in $(seq 1 100); do
  for pe in "$@"; do
    for v in a b; do
      for df in os ws; do
        for mode in seq prog; do echo "$r $pe $v $df $mode"; done
      done
    done
  done
done | xargs -P 2 -L 1 bash -c '
  r=$0 pe=$1 v=$2 df=$3 mode=$4
  [[ $(date +%s) -lt '"$deadline"' ]] || exit 0
  name=$pe-$v-$df-$mode-r$r
  args=(--pe $pe --config '"$root"'/configs/units/rtl/$pe-$v.yaml --set array.dataflow=$df
        --random '"$per"' --random-tiles --seed $(('"$seed0"' + r)) --table '"$out"'/tables/$name.md)
  [[ $mode == seq ]] && args+=(--seq)
  s=$(date +%s.%N)
  rc=0; /usr/bin/time -f "%U %S" -o '"$out"'/$name.cpu '"$bin"' "${args[@]}" > '"$out"'/$name.log 2>&1 || rc=$?
  cpu=$(awk "END { print \$1 + \$2 }" '"$out"'/$name.cpu 2>/dev/null || echo "?")
  echo "$name rc=$rc wall=$(echo "$(date +%s.%N) - $s" | bc)s cpu=${cpu}s" >> '"$out"'/jobs.log
  exit 0'
