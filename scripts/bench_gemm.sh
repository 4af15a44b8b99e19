#!/usr/bin/env bash
# GEMM-engine speed: builds bench/bench_gemm (Release), runs it and the numpy float32 matmul
# peer (scripts/bench_peer_numpy_gemm.py, OpenBLAS, 1 thread and all threads) in the same
# session, and writes the table into the GEMM section of docs/performance.md (between the
# gemm:begin/end markers).
#   HIFSIM_BENCH_BUILD  build directory (default build/)
#   HIFSIM_JOBS         parallel build jobs (default: nproc)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
BUILD="${HIFSIM_BENCH_BUILD:-build}"
JOBS="${HIFSIM_JOBS:-$(nproc)}"
PY="$ROOT/.venv/bin/python"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
NCPU="$(nproc)"

cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD" -j "$JOBS" --target bench_gemm
echo "[bench] hifsim bench_gemm (Google Benchmark)"
"$BUILD/bin/bench_gemm" --benchmark_out="$OUT/hifsim.json" --benchmark_out_format=json
echo "[bench] numpy float32 matmul peer, 1 and $NCPU threads"
OPENBLAS_NUM_THREADS=1 "$PY" scripts/bench_peer_numpy_gemm.py > "$OUT/peer1.jsonl"
OPENBLAS_NUM_THREADS="$NCPU" "$PY" scripts/bench_peer_numpy_gemm.py > "$OUT/peerN.jsonl"

"$PY" - "$OUT" docs/performance.md "$NCPU" <<'PYEOF'
import json, os, re, sys, subprocess
out, doc, ncpu = sys.argv[1], sys.argv[2], int(sys.argv[3])
h = json.load(open(os.path.join(out, "hifsim.json")))
peer = {}
for name, t in (("peer1.jsonl", 1), ("peerN.jsonl", ncpu)):
    for line in open(os.path.join(out, name)):
        r = json.loads(line)
        peer[(r["shape"], t)] = r["macs_per_second"]
rate, kernel = {}, {}
for b in h["benchmarks"]:
    if b.get("run_type") == "aggregate":
        continue
    m = re.match(r"gemm/([^/]+)/([^/]+)/(\d+)", b["name"])
    fmt, shape, thr = m.group(1), m.group(2), int(m.group(3))
    shape = "1024x1024x1024" if shape == "1024^3" else shape
    rate[(fmt, shape, thr)] = b["MAC/s"]
    kernel[fmt] = b.get("label", "").split(" ", 1)[-1]
ctx = h["context"]
cpu = subprocess.run(["sh", "-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"], capture_output=True, text=True).stdout.strip()
g = lambda v: f"{v / 1e9:.2f}" if v else "-"
lines = [
    "<!-- gemm:begin (written by scripts/bench_gemm.sh; edit the script, not this table) -->",
    f"Bit-exact GEMM C = A·Bᵀ throughput in 10⁹ multiply-accumulates per second (GMAC/s), Gaussian "
    f"operands quantized outside the timed region (the engine with its operand repacking is timed). "
    f"Machine: {cpu}, {ctx['num_cpus']} CPUs, load average at start "
    f"{', '.join(f'{x:.2f}' for x in ctx.get('load_avg', []))}. Peer in the same run: numpy float32 "
    f"`a @ b.T` (OpenBLAS), best of ≥3 runs.",
    "",
    f"| format | shape | kernel | 1 thread | {ncpu} threads | numpy fp32 1 thread | numpy fp32 {ncpu} threads | hifsim / numpy ({ncpu} threads) |",
    "|---|---|---|---|---|---|---|---|",
]
order = ["hif4", "nvfp4", "mxfp4", "hif8", "mxfp8-e4m3", "bf16"]
for f in order:
    for shape in ("1024x1024x1024", "4096x4096x512"):
        one, alln = rate.get((f, shape, 1)), rate.get((f, shape, ncpu))
        if one is None and alln is None:
            continue
        p1, pn = peer.get((shape, 1)), peer.get((shape, ncpu))
        ratio = f"{alln / pn:.2f}" if (alln and pn) else "-"
        lines.append(f"| {f} | {shape} | {kernel.get(f, '')} | {g(one)} | {g(alln)} | {g(p1)} | {g(pn)} | {ratio} |")
lines += ["<!-- gemm:end -->"]
block = "\n".join(lines)
text = open(doc).read()
if "<!-- gemm:begin" in text:
    text = re.sub(r"<!-- gemm:begin.*?<!-- gemm:end -->", lambda m: block, text, flags=re.S)
else:
    text = text.rstrip("\n") + "\n\n## GEMM engine (model/datapath/gemm)\n\n" + block + "\n"
open(doc, "w").write(text)
print(block)
PYEOF
