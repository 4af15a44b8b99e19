#!/usr/bin/env bash
# GEMM-engine speed: builds bench/bench_gemm (Release), runs it and the numpy float32 matmul
# peer (scripts/bench_peer_numpy_gemm.py, OpenBLAS, 1 thread and all threads) in the same
# session, prints the CPU, the kernel variant and the load, and writes the table into the GEMM
# section of docs/performance.md (between the gemm:begin/end markers), with each kernel's share of
# the machine's SIMD ceiling for its instruction (bench/simd_peak: the roofline statement).
#   HIFSIM_BENCH_BUILD     build directory (default build/)
#   HIFSIM_JOBS            parallel build jobs (default: nproc)
#   HIFSIM_BENCH_VARIANTS  kernel variants to measure, e.g. "avx512 avx2 portable" (default: the
#                          automatic choice only); each runs bench_gemm with HIFSIM_KERNEL set
#   HIFSIM_BENCH_FILTER    Google Benchmark filter (default: every format and shape)
#   HIFSIM_BENCH_NO_DOC=1  print the table only, leave docs/performance.md alone
#   HIFSIM_BENCH_COMMAND=1 also time the whole `hifsim gemm --format hif4` process at 2048^3 (read,
#                          quantize, GEMM, write, manifest) against the engine alone on the same
#                          GEMM (bench/gemm_scaling), 1 and all threads (builds hifsim too)
set -euo pipefail
# shellcheck source=scripts/bench_env.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench_env.sh"  # ROOT (cd there), BUILD, JOBS, PY, OUT, bench_build
VARIANTS="${HIFSIM_BENCH_VARIANTS:-auto}"
FILTER="${HIFSIM_BENCH_FILTER:-.}"
NCPU="$(nproc)"

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
  bench_build hifsim gemm_scaling
  for t in 1 "$NCPU"; do
    "$BUILD/bin/gemm_scaling" hif4 2048 2048 2048 "$t" 5 > "$OUT/engine$t.jsonl"
    "$PY" - "$BUILD/bin/hifsim" "$OUT" "$t" <<'PY'
import json, statistics, subprocess, sys, time
import numpy as np
hifsim, out, t = sys.argv[1:4]
r = np.random.default_rng(0)
for n in "ab":
    np.save(f"{out}/{n}.npy", r.standard_normal((2048, 2048), dtype=np.float32))
walls = []
for _ in range(5):  # the whole process, as `time` shows it
    t0 = time.perf_counter()
    subprocess.run([hifsim, "gemm", "--format", "hif4", "--threads", t, "--a", f"{out}/a.npy", "--b", f"{out}/b.npy",
                    "--out", f"{out}/c.npy", "--quiet"], check=True)
    walls.append(time.perf_counter() - t0)
c = statistics.median(walls)
e = json.loads(open(f"{out}/engine{t}.jsonl").readline())["median_wall_s"]
load = open("/proc/loadavg").read().split()[0]
print(f"[bench] hifsim gemm --format hif4 --threads {t}, 2048^3: whole process {c:.3f} s (median of 5), "
      f"engine alone {e:.3f} s (gemm_scaling): {c / e:.2f}x (target <= 1.25x); load {load}")
PY
  done
fi

"$PY" scripts/bench_gemm_table.py "$OUT" "$NCPU" ${HIFSIM_BENCH_NO_DOC:+--no-doc} docs/performance.md
