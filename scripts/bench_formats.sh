#!/usr/bin/env bash
# Format-library speed: builds bench/bench_quantize (Release), runs it and the ml-dtypes /
# en-dtypes peer (scripts/bench_peer_mldtypes.py) in the same session, and writes the table
# into the formats section of docs/performance.md (between the formats:begin/end markers).
#   HIFSIM_BENCH_BUILD  build directory (default build/)
#   HIFSIM_JOBS         parallel build jobs (default: nproc)
set -euo pipefail
# shellcheck source=scripts/bench_env.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench_env.sh"  # ROOT (cd there), BUILD, JOBS, PY, OUT, bench_build

bench_build bench_quantize
echo "[bench] hifsim bench_quantize (Google Benchmark, median of 5)"
"$BUILD/bin/bench_quantize" --benchmark_filter='BM_qdq' --benchmark_repetitions=5 \
  --benchmark_report_aggregates_only=true --benchmark_out="$OUT/hifsim.json" --benchmark_out_format=json >/dev/null
echo "[bench] ml-dtypes / en-dtypes peer"
"$PY" scripts/bench_peer_mldtypes.py --json "$OUT/peer.json"

"$PY" - "$OUT/hifsim.json" "$OUT/peer.json" docs/performance.md <<'PYEOF'
import json, os, re, sys, platform, subprocess
hj, pj, doc = sys.argv[1:4]
h = json.load(open(hj)); p = json.load(open(pj))
rate = {}
for b in h["benchmarks"]:
    if b.get("aggregate_name") != "median":
        continue
    m = re.match(r"BM_qdq/format:(\d+)/threads:(\d+)/portable:(\d)", b["run_name"])
    fmt = b["label"].split()[0]
    rate[(fmt, int(m.group(2)), int(m.group(3)))] = b["bytes_per_second"] / 1e9
threads_all = max(t for (_, t, _) in rate)
peer_of = {"hif4": None, "hif8": "hifloat8", "nvfp4": "float4_e2m1fn", "mxfp4": "float4_e2m1fn",
           "mxfp8-e4m3": "float8_e4m3fn", "fp8-e4m3": "float8_e4m3fn", "fp8-e5m2": "float8_e5m2",
           "bf16": "bfloat16", "fp4-e2m1": "float4_e2m1fn"}
order = ["hif4", "hif8", "nvfp4", "mxfp4", "mxfp8-e4m3", "fp8-e4m3", "fp8-e5m2", "bf16", "fp4-e2m1"]
ctx = h["context"]
cpu = subprocess.run(["sh", "-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"], capture_output=True, text=True).stdout.strip()
lines = [
    "<!-- formats:begin (written by scripts/bench_formats.sh; edit the script, not this table) -->",
    f"Quantize-dequantize throughput, GB/s of float32 input, {p['rows']} x {p['cols']} float32 "
    f"({p['bytes']/1e6:.1f} MB), median of 5 (hifsim) / 7 (peer) runs. Machine: {cpu}, "
    f"{ctx['num_cpus']} CPUs, load average at start {', '.join(f'{x:.2f}' for x in ctx.get('load_avg', []))}. "
    f"Peer: numpy `x.astype(T).astype(float32)` with ml-dtypes {p['ml_dtypes']} (en-dtypes for hifloat8), one thread.",
    "",
    f"| format | hifsim 1 thread | hifsim {threads_all} threads | hifsim portable (no AVX2), 1 thread | peer cast (1 thread) | peer | hifsim 1 thread / peer |",
    "|---|---|---|---|---|---|---|",
]
for f in order:
    one = rate.get((f, 1, 0)); allt = rate.get((f, threads_all, 0)); port = rate.get((f, 1, 1))
    peer = peer_of[f]; pv = p["gbps"].get(peer) if peer else None
    ratio = f"{one / pv:.1f}x" if (pv and one) else "-"
    lines.append(f"| {f} | {one:.2f} | {allt:.2f} | {port:.2f} | {pv:.3f} | {peer or '-'} | {ratio} |" if pv else
                 f"| {f} | {one:.2f} | {allt:.2f} | {port:.2f} | - | - | - |")
lines += ["", "Notes: nvfp4 and mxfp4 include the block-scale computation and the per-tensor amax pass; "
          "the ml-dtypes cast they are compared with is the bare E2M1 element cast (no scaling), so "
          "the comparison is conservative. fp4-e2m1 is hifsim's bare element path (saturating RNE), "
          "the like-for-like peer of `float4_e2m1fn`.",
          "<!-- formats:end -->"]
block = "\n".join(lines)
text = open(doc).read() if os.path.exists(doc) else "# Performance\n"
if "<!-- formats:begin" in text:
    text = re.sub(r"<!-- formats:begin.*?<!-- formats:end -->", lambda m: block, text, flags=re.S)
else:
    text = text.rstrip("\n") + "\n\n## Formats (model/formats/)\n\n" + block + "\n"
open(doc, "w").write(text)
print(block)
PYEOF
