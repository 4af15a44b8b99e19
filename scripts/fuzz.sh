#!/usr/bin/env bash
# scripts/fuzz.sh: build the libFuzzer harnesses of fuzz/ (build-fuzz/, clang-14, ASan + UBSan)
# and run each of them. docs/testing.md ("Fuzzing") lists the harnesses, the campaign figures and
# the findings.
#
#   bash scripts/fuzz.sh --smoke [SECONDS]   every harness for SECONDS (default 10): the CI step
#   bash scripts/fuzz.sh --runs N            every harness for N executions (the campaign: 1000000)
#   ... --max-time S                         with --runs: stop a harness after S seconds all the same
#   ... --only fuzz_npy,fuzz_trace           a subset
#   ... --no-build                           use the harnesses already in build-fuzz/bin
#
# Build folder: build-fuzz/, or $HIFSIM_FUZZ_BUILD.
#
# The committed seeds (fuzz/corpus/<name>/, without the fuzz_ prefix) and the inputs of past
# findings (fuzz/regressions/<name>/) are read, never written, and replayed first on every run:
# new inputs accumulate in build-fuzz/corpus/<harness>/, and a crashing input is saved to
# build-fuzz/findings/<harness>/ and makes the script exit 1 (the input to turn into a
# regression input and a test).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
MODE=smoke SECONDS_EACH=10 RUNS=0 MAX_TIME=0 ONLY="" BUILD=1
while (($#)); do
  case "$1" in
    --smoke) MODE=smoke; if [[ ${2:-} =~ ^[0-9]+$ ]]; then SECONDS_EACH=$2; shift; fi ;;
    --runs) MODE=runs; RUNS=${2:?--runs needs a count}; shift ;;
    --max-time) MAX_TIME=${2:?--max-time needs seconds}; shift ;;
    --only) ONLY=${2:?--only needs a list}; shift ;;
    --no-build) BUILD=0 ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "fuzz.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
CXX_FUZZ="${HIFSIM_FUZZ_CXX:-clang++-14}"
B="${HIFSIM_FUZZ_BUILD:-build-fuzz}"
command -v "$CXX_FUZZ" >/dev/null || { echo "fuzz.sh: $CXX_FUZZ not found (scripts/setup.sh installs clang-14)" >&2; exit 2; }
JOBS="${HIFSIM_JOBS:-$(nproc)}"

if ((BUILD)); then
  t0=$(date +%s)
  cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$CXX_FUZZ" \
    -DHIFSIM_FUZZ=ON -DHIFSIM_FAST_ONLY=ON >/dev/null
  cmake --build "$B" -j "$JOBS" --target fuzzers >/dev/null
  echo "[fuzz] harnesses built in $(( $(date +%s) - t0 )) s"
fi

HARNESSES=(fuzz_npy fuzz_safetensors fuzz_unit_config fuzz_sweep fuzz_trace fuzz_packed)
[[ -n "$ONLY" ]] && IFS=, read -r -a HARNESSES <<<"$ONLY"
status=0
printf '[fuzz] %-18s %12s %8s %8s %s\n' harness executions seconds corpus result
for h in "${HARNESSES[@]}"; do
  seeds="fuzz/corpus/${h#fuzz_}"
  work="$B/corpus/$h" findings="$B/findings/$h"
  mkdir -p "$work" "$findings"
  [[ -d "$seeds" ]] || { echo "fuzz.sh: no seed corpus $seeds" >&2; exit 2; }
  regressions="fuzz/regressions/${h#fuzz_}"
  [[ -d "$regressions" ]] && seeds="$seeds $regressions"
  limit=(-max_total_time="$SECONDS_EACH" -dict="fuzz/corpus/${h#fuzz_}.dict")
  [[ $MODE == runs ]] && limit=(-runs="$RUNS" -dict="fuzz/corpus/${h#fuzz_}.dict")
  [[ $MODE == runs && $MAX_TIME != 0 ]] && limit+=(-max_total_time="$MAX_TIME")
  log="$B/$h.log"
  s0=$(date +%s)
  # -timeout: one input may take at most 10 s; -rss_limit_mb: a reader that allocates what the
  # input merely claims is a finding, not a slow machine.
  if "$B/bin/$h" "${limit[@]}" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$findings/" "$work" $seeds >"$log" 2>&1; then
    result=ok
  else
    result="FINDING (see $log, $findings/)"
    status=1
  fi
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  printf '[fuzz] %-18s %12s %8s %8s %s\n' "$h" "$execs" "$(( $(date +%s) - s0 ))" "$(ls "$work" | wc -l)" "$result"
done
exit $status
