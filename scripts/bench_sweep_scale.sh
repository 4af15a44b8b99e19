#!/usr/bin/env bash
# The sweep at scale (docs/sweeps.md, "Throughput at scale"): a 10^5-point timing+cost sweep on
# this machine, interrupted with SIGKILL and resumed, then merged and plotted. Prints the figures
# the docs quote: points per second per core (wall and CPU), peak memory, merge time, Pareto plot
# time, and the resume checks (every point exactly once; a fresh run of a 1-in-1000 sample gives
# byte-identical results).
#
#   bash scripts/bench_sweep_scale.sh [--sweep S.yaml] [--kill-at PERCENT] [--jobs N] [--out DIR]
#
# Defaults: configs/sweeps/hif4-design-space-100k.yaml, SIGKILL once 30 % of the points are
# finished, --jobs 2, a new folder under /tmp. Runs $HIFSIM_BIN, else build/bin/hifsim (copy it
# elsewhere to keep rebuilding while this runs). Long: on 2 idle cores about 15 minutes
# (estimated from CPU times; docs/sweeps.md).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HIFSIM="${HIFSIM_BIN:-$ROOT/build/bin/hifsim}"
PY="$ROOT/.venv/bin/python"
SWEEP="$ROOT/configs/sweeps/hif4-design-space-100k.yaml"
KILL_AT=30
JOBS=2
OUT=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --sweep) SWEEP=$2; shift 2 ;;
    --kill-at) KILL_AT=$2; shift 2 ;;
    --jobs) JOBS=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    *) sed -n '2,13p' "$0"; exit 2 ;;
  esac
done
[[ -x $HIFSIM ]] || { echo "bench_sweep_scale: $HIFSIM is not built" >&2; exit 1; }
[[ -n $OUT ]] || OUT=$(mktemp -d /tmp/hifsim-sweep-scale-XXXXXX)
[[ ! -e $OUT/records ]] || { echo "bench_sweep_scale: $OUT already holds a sweep" >&2; exit 1; }
say() { printf '[bench] %s\n' "$*"; }
# /usr/bin/time's "wall user sys maxrss_kb" of a command, into the variable named $1.
timed() {
  local var=$1 f
  shift
  f=$(mktemp)
  /usr/bin/time -f '%e %U %S %M' -o "$f" "$@" || true
  printf -v "$var" '%s' "$(tail -n 1 "$f")"
  rm -f "$f"
}
field() { awk -v i="$2" '{print $i}' <<<"$1"; }
calc() { awk "BEGIN { printf \"%.1f\", $* }"; }
records() { cat "$OUT"/records/*.jsonl 2>/dev/null | wc -l; }  # complete lines only

say "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load: $(cut -d' ' -f1-3 /proc/loadavg)"
say "sweep: $SWEEP, folder: $OUT, --jobs $JOBS"

timed t_dry "$HIFSIM" sweep --sweep "$SWEEP" --out "$OUT" --dry-run --quiet >"$OUT.ids"
N=$(grep -c '' "$OUT.ids")
say "expand + check $N points (--dry-run): $(field "$t_dry" 1) s wall, peak $(( $(field "$t_dry" 4) / 1024 )) MiB"

# The interrupted run: SIGKILL once KILL_AT % of the points are finished (no chance to clean up,
# like a node failure).
f1=$(mktemp)
/usr/bin/time -f '%e %U %S %M' -o "$f1" "$HIFSIM" sweep --sweep "$SWEEP" --out "$OUT" --jobs "$JOBS" --quiet --no-plots \
  2>"$OUT.run1.log" &
tpid=$!
sleep 1
pid=$(pgrep -P $tpid)
while kill -0 "$pid" 2>/dev/null && (( $(records) * 100 < N * KILL_AT )); do sleep 1; done
kill -KILL "$pid" 2>/dev/null || true
wait $tpid 2>/dev/null || true
t_run1=$(tail -n 1 "$f1")
rm -f "$f1"
first=$(records)
say "run 1: killed with SIGKILL after $(field "$t_run1" 1) s ($(field "$t_run1" 2) s user), $first points finished"

# The resumed run, to the end (it merges at the end too).
timed t_run2 "$HIFSIM" sweep --sweep "$SWEEP" --out "$OUT" --jobs "$JOBS" --no-plots 2>"$OUT.run2.log"
say "run 2 (resume): $(grep -m1 'already done' "$OUT.run2.log" | sed 's/^\[sweep\] //')"
say "run 2: $(field "$t_run2" 1) s wall, $(field "$t_run2" 2) s user, peak $(( $(field "$t_run2" 4) / 1024 )) MiB"
grep -i 'warning' "$OUT.run2.log" | sed 's/^/[bench]   /' || true

# Every point exactly once, from the records themselves.
"$PY" - "$OUT" "$N" <<'EOF'
import collections, os, sys
out, n = sys.argv[1], int(sys.argv[2])
ids = collections.Counter()
files = sorted(os.listdir(os.path.join(out, "records")))
for name in files:
    with open(os.path.join(out, "records", name)) as f:
        for line in f:
            if line.endswith("\n"):
                ids[line[7:23]] += 1
twice = sum(1 for c in ids.values() if c > 1)
print(f"[bench] records: {len(files)} files, {sum(ids.values())} lines, {len(ids)} distinct points of {n}, "
      f"{twice} evaluated twice")
sys.exit(0 if len(ids) == n and twice == 0 else 1)
EOF

timed t_merge "$HIFSIM" sweep --sweep "$SWEEP" --out "$OUT" --merge-only --quiet --no-plots
rows=$(( $(grep -c '' "$OUT/results.csv") - 1 ))
say "merge of $rows points (--merge-only): $(field "$t_merge" 1) s wall, peak $(( $(field "$t_merge" 4) / 1024 )) MiB"
timed t_plot env PYTHONPATH="$ROOT/build/python" "$PY" -m hifsim.report.pareto "$OUT/results.csv" --out "$OUT/pareto"
say "Pareto plot of $rows points: $(field "$t_plot" 1) s wall ($OUT/pareto.png)"

# Exactness: a fresh run of every 1000th point reproduces the interrupted-and-resumed results.
timed t_sample "$HIFSIM" sweep --sweep "$SWEEP" --out "$OUT.sample" --shard 0/1000 --jobs "$JOBS" --quiet --no-plots
"$PY" - "$OUT" "$OUT.sample" <<'EOF'
import os, sys
def results(out):
    r = {}
    for name in os.listdir(os.path.join(out, "records")):
        with open(os.path.join(out, "records", name)) as f:
            for line in f:
                if line.endswith("\n"):
                    r[line[7:23]] = line[line.index(',"result":'):]
    return r
big, sample = results(sys.argv[1]), results(sys.argv[2])
same = sum(1 for k, v in sample.items() if big.get(k) == v)
print(f"[bench] fresh run of a 1-in-1000 sample: {same} of {len(sample)} results byte-identical")
sys.exit(0 if same == len(sample) and sample else 1)
EOF

evaluated=$(( N - first ))
wall2=$(field "$t_run2" 1)
cpu2=$(calc "$(field "$t_run2" 2) + $(field "$t_run2" 3)")
say "throughput of run 2 ($evaluated points, --jobs $JOBS; includes checking all $N configs and the merge):" \
    "$(calc "$evaluated / $wall2 / $JOBS") points/s/core by wall time," \
    "$(calc "$evaluated / $cpu2") points per CPU-second"
say "throughput of run 1 ($first points in $(field "$t_run1" 1) s): $(calc "$first / $(field "$t_run1" 1) / $JOBS") points/s/core by wall time"
say "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
