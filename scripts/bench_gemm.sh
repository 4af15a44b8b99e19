#!/usr/bin/env bash
# GEMM-engine speed: builds bench/bench_gemm (Release), runs it and the numpy float32 matmul
# peer (scripts/bench_peer_numpy_gemm.py, OpenBLAS, 1 thread and all threads) in the same
# session, prints the CPU, the kernel variant and the load, and writes the table into the GEMM
# section of docs/performance.md (between the gemm:begin/end markers), with each kernel's share of
# the machine's SIMD ceiling for its instruction (bench/simd_peak: the roofline statement).
#   HIFSIM_BENCH_BUILD     build directory (default build/)
#   HIFSIM_JOBS            parallel build jobs (default: nproc)
#   HIFSIM_BENCH_VARIANTS  kernel variants to measure, e.g. "amx avx512 avxvnni avx2" (default: the
#                          automatic choice only); each runs bench_gemm with HIFSIM_KERNEL set
#   HIFSIM_BENCH_FILTER    Google Benchmark filter (default: every format and shape)
#   HIFSIM_BENCH_NO_DOC=1  print the table only, leave docs/performance.md alone
#   HIFSIM_BENCH_COMMAND=1 also time the whole `hifsim gemm` process (read, quantize, GEMM, write,
#                          manifest) against the engine alone on the same GEMM (bench/gemm_scaling):
#                          hif4 and nvfp4, 1024^3 and 2048^3, 1 and all threads (builds hifsim too)
# `scripts/bench_gemm.sh --whole-command` runs only that comparison.
set -euo pipefail
# shellcheck source=scripts/bench_env.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench_env.sh"  # ROOT (cd there), BUILD, JOBS, PY, OUT, bench_build
VARIANTS="${HIFSIM_BENCH_VARIANTS:-auto}"
FILTER="${HIFSIM_BENCH_FILTER:-.}"
NCPU="$(nproc)"

# The whole `hifsim gemm` process (read, quantize, GEMM, write, manifest) against its engine alone
# (bench/gemm_scaling: the GEMM of operands quantized outside, result freshly allocated) on the same
# shape, in the same run: hif4 and nvfp4, 1024^3 and 2048^3, 1 and all threads, 3 runs each, medians
# (issue 27's target: at most 1.25x at 2048^3). Wall time is what `time` shows; the CPU-time ratio
# (process user + system against the engine's CPU per run) moves less with other jobs on the
# machine. Each line carries the 1-minute load.
whole_command() {
  bench_build hifsim gemm_scaling
  "$PY" scripts/bench_gemm_command.py "$BUILD/bin/hifsim" "$BUILD/bin/gemm_scaling" "$OUT" 1 "$NCPU"
}
if [[ ${1:-} == --whole-command ]]; then
  whole_command
  exit 0
fi
bench_build bench_gemm simd_peak
echo "[bench] CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $NCPU CPUs; load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "[bench] numpy float32 matmul peer, 1 and $NCPU threads"
OPENBLAS_NUM_THREADS=1 "$PY" scripts/bench_peer_numpy_gemm.py > "$OUT/peer1.jsonl"
OPENBLAS_NUM_THREADS="$NCPU" "$PY" scripts/bench_peer_numpy_gemm.py > "$OUT/peerN.jsonl"
for v in $VARIANTS; do
  echo "[bench] hifsim bench_gemm, kernel variant: $v"
  HIFSIM_KERNEL="$v" "$BUILD/bin/bench_gemm" --benchmark_filter="$FILTER" \
    --benchmark_out="$OUT/hifsim-$v.json" --benchmark_out_format=json
done
# The machine's instruction ceilings per CPU second of one thread (the roofline denominators).
echo "[bench] SIMD multiply-accumulate ceilings (bench/simd_peak)"
"$BUILD/bin/simd_peak" 1 > "$OUT/peak1.jsonl"
# The peer once more at the end: the ratio uses the better of the two peer runs, so a load
# change during the session cannot flatter hifsim.
OPENBLAS_NUM_THREADS=1 "$PY" scripts/bench_peer_numpy_gemm.py >> "$OUT/peer1.jsonl"
OPENBLAS_NUM_THREADS="$NCPU" "$PY" scripts/bench_peer_numpy_gemm.py >> "$OUT/peerN.jsonl"

if [[ -n ${HIFSIM_BENCH_COMMAND:-} ]]; then
  whole_command
fi

"$PY" scripts/bench_gemm_table.py "$OUT" "$NCPU" ${HIFSIM_BENCH_NO_DOC:+--no-doc} docs/performance.md
