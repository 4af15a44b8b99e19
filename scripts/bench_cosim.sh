#!/usr/bin/env bash
# scripts/bench_cosim.sh: co-simulation throughput per unit (docs/cosim.md, "Throughput").
# A benchmark, not a test: it checks nothing the cosim tests do not, it measures.
#
#   bash scripts/bench_cosim.sh [--build DIR] [--units "hif4_dot64 nvfp4_dot64 ..."] [--count N]
#                               [--callgrind N]
#
# For each unit whose harness is built (DIR/bin/cosim_<unit>), runs the quick-level regression
# of seed 1 with --count N (default 200000) twice: with the default handshake (random input
# bubbles 15 %, back-pressure 25 %) and back to back (--p-idle 0 --p-stall 0), and prints
# vectors per wall second and per CPU second of the harness (model, RTL, comparison and
# coverage included; the stimulus generation too). With --callgrind N it also counts the
# instructions per vector under valgrind: (Ir(N + 1000) - Ir(1000)) / N, which cancels the
# start-up and the directed corners and does not depend on the machine's load.
# The load average is printed with the figures: on a shared machine the wall rate is the load's.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="$ROOT/build"
UNITS="hif4_dot64 nvfp4_dot64 mxfp4_dot64 mxfp8_dot32 hif8_dot bf16_dot64 sparse_residual_add"
COUNT=200000
CG=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) BUILD="$2"; shift 2 ;;
    --units) UNITS="$2"; shift 2 ;;
    --count) COUNT="$2"; shift 2 ;;
    --callgrind) CG="$2"; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "bench_cosim.sh: unknown option '$1'" >&2; exit 3 ;;
  esac
done
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT

# Runs a harness; prints "wall_rate cpu_rate" (vectors per wall second, per CPU second of the
# process: user + system, from bash's `time`).
rates() {
  local count="$1" t; shift
  t=$( { TIMEFORMAT='%U %S %R'; time "$@" --seed 1 --count "$count" --out "$OUT" --no-coverage-check >/dev/null; } 2>&1 | tail -1)
  echo "$t" | awk -v n="$count" '{ printf "%.0f %.0f", n / $3, n / ($1 + $2) }'
}
# Instructions (valgrind Ir) of one run of `count` vectors.
irefs() {
  local exe="$1" count="$2"; shift 2
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$exe" --seed 1 --count "$count" --out "$OUT" \
    --no-coverage-check "$@" 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

echo "# cosim throughput, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# unit | vectors | default handshake: vectors/s wall, vectors/CPU-s | back to back: vectors/s wall, vectors/CPU-s | Ir/vector default, back to back"
for u in $UNITS; do
  exe="$BUILD/bin/cosim_$u"
  if [[ ! -x "$exe" ]]; then echo "$u | not built ($exe)"; continue; fi
  d=$(rates "$COUNT" "$exe")
  b=$(rates "$COUNT" "$exe" --p-idle 0 --p-stall 0)
  ir="-"
  if [[ "$CG" != 0 ]]; then
    i0=$(irefs "$exe" 1000); i1=$(irefs "$exe" $((CG + 1000)))
    j0=$(irefs "$exe" 1000 --p-idle 0 --p-stall 0); j1=$(irefs "$exe" $((CG + 1000)) --p-idle 0 --p-stall 0)
    ir="$(( (i1 - i0) / CG )), $(( (j1 - j0) / CG ))"
  fi
  echo "$u | $COUNT | ${d/ /, } | ${b/ /, } | $ir"
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
