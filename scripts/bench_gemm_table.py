#!/usr/bin/env python3
"""Table of scripts/bench_gemm.sh: reads bench_gemm's JSON (one file per kernel variant,
hifsim-<variant>.json) and the numpy peer's JSON lines (peer1.jsonl, peerN.jsonl) from OUT,
prints the markdown table and, unless --no-doc, writes it into docs/performance.md between the
gemm:begin/end markers.

usage: bench_gemm_table.py OUT NCPU [--no-doc] DOC
"""
import glob
import json
import os
import re
import sys

# Issue 13's targets: hifsim / numpy float32 at the largest thread count.
TARGETS = {"hif4": 1.0, "nvfp4": 0.5, "mxfp4": 0.5, "mxfp8-e4m3": 0.15, "mxfp8-e5m2": 0.15,
           "fp8-e4m3": 0.15, "fp8-e5m2": 0.15, "hif8": 0.15, "bf16": 0.08}
ORDER = list(TARGETS)
# The instruction each format's kernel spends its multiply-accumulates in (docs/performance.md,
# "Kernel design"): the int8 family in vpdpbusd (AVX-512 VNNI zmm, AVX-VNNI ymm) or vpmaddubsw
# (AVX2), the fp family in double-precision FMAs (its int16 kernel, where it runs, is measured
# against the same FP64 ceiling). bench/simd_peak measures each one's ceiling.
INT8 = ("hif4", "nvfp4", "mxfp4")
CEILING = {("avx512", True): "avx512_vnni_int8", ("avxvnni", True): "avxvnni_int8",
           ("avx2", True): "avx2_maddubs_int8", ("avx512", False): "avx512_fma_fp64",
           ("avxvnni", False): "avx2_fma_fp64", ("avx2", False): "avx2_fma_fp64",
           ("amx", True): "avx512_vnni_int8", ("amx", False): "avx512_fma_fp64"}
# The amx variant runs HiF4 on the tile unit (tdpbsud) and everything else as avx512.
CEILING_OF_FORMAT = {("amx", "hif4"): "amx_int8"}
SHAPES = ("1024x1024x1024", "4096x4096x512")
UNIT = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def load_peer(path, key="macs_per_second"):
    best = {}
    for line in open(path):
        r = json.loads(line)
        best[r["shape"]] = max(best.get(r["shape"], 0.0), r.get(key, 0.0))
    return best


def shape_macs(shape):
    m, n, k = (int(v) for v in shape.split("x"))
    return m * n * k


def load_peaks(path):
    """bench/simd_peak's JSON lines: {ceiling name: MAC per CPU second of one thread} (skipped
    ceilings left out)."""
    if not os.path.exists(path):
        return {}
    return {r["ceiling"]: r["macs_per_cpu_second"] for r in map(json.loads, open(path)) if "macs_per_cpu_second" in r}


def main(argv):
    out, ncpu = argv[1], int(argv[2])
    no_doc = "--no-doc" in argv
    doc = [a for a in argv[3:] if a != "--no-doc"][0]
    peer = {1: load_peer(os.path.join(out, "peer1.jsonl")), ncpu: load_peer(os.path.join(out, "peerN.jsonl"))}
    peer_cpu = load_peer(os.path.join(out, "peer1.jsonl"), "macs_per_cpu_second")  # 1 thread
    peaks = load_peaks(os.path.join(out, "peak1.jsonl"))
    rows, ctx = [], None
    for path in sorted(glob.glob(os.path.join(out, "hifsim-*.json"))):
        h = json.load(open(path))
        ctx = ctx or h["context"]
        rate, kernel, fallback, load, cpu_rate, crit = {}, {}, {}, {}, {}, {}
        for b in h["benchmarks"]:
            if b.get("run_type") == "aggregate" or "error_occurred" in b:
                continue
            m = re.match(r"gemm/([^/]+)/([^/]+)/(\d+)", b["name"])
            fmt, shape, thr = m.group(1), m.group(2), int(m.group(3))
            shape = "1024x1024x1024" if shape == "1024^3" else shape
            rate[(fmt, shape, thr)] = b["MAC/s"]
            crit[(fmt, shape, thr)] = b.get("crit_cpu_s")
            if thr == 1:  # cpu_time is the main thread's: a rate only for the 1-thread runs
                cpu_rate[(fmt, shape)] = shape_macs(shape) / (b["cpu_time"] * UNIT[b.get("time_unit", "ns")])
            kernel[(fmt, shape)] = b.get("label", "").split(" ", 1)[-1]
            fallback[(fmt, shape)] = int(b.get("fallback_blocks", 0))
            load.setdefault((fmt, shape), []).append(b.get("load1", -1))
        for f in ORDER:
            for shape in SHAPES:
                if (f, shape) not in kernel:
                    continue
                one, alln = rate.get((f, shape, 1)), rate.get((f, shape, ncpu))
                p1, pn = peer[1].get(shape), peer[ncpu].get(shape)
                c1, cn = crit.get((f, shape, 1)), crit.get((f, shape, ncpu))
                rows.append((f, shape, kernel[(f, shape)], one, alln, p1, pn, fallback[(f, shape)],
                             max(load[(f, shape)]), cpu_rate.get((f, shape)), peer_cpu.get(shape),
                             c1 / cn if (c1 and cn) else None))
    def share(f, k, v):
        """The kernel's rate per CPU second as a share of its instruction's ceiling per CPU second."""
        c = peaks.get(CEILING_OF_FORMAT.get((k, f), CEILING.get((k, f in INT8))), 0)
        return f"{100 * v / c:.0f} % of {c / 1e9:.0f}" if (v and c) else "-"

    g = lambda v: f"{v / 1e9:.1f}" if v else "-"
    r = lambda a, b: f"{a / b:.2f}" if (a and b) else "-"
    lines = [
        "<!-- gemm:begin (written by scripts/bench_gemm.sh; edit the script, not this table) -->",
        "Bit-exact GEMM C = A·Bᵀ in 10⁹ multiply-accumulates per second (GMAC/s): Gaussian operands quantized "
        "outside the timed region; the engine with its operand packing is timed. "
        f"CPU: {ctx.get('cpu', '?')}, {ctx['num_cpus']} CPUs. Peer in the same run: numpy float32 `a @ b.T` "
        "(OpenBLAS), best of the runs before and after hifsim's. `load` is the highest 1-minute load average "
        "seen during the row's measurements (other jobs on the machine). Per CPU second: the 1-thread rates "
        "over the process's CPU time instead of the wall time (GMAC per CPU second), which a loaded machine "
        "changes far less: the fairest ratio when `load` is high. SIMD ceiling used: that rate against "
        "bench/simd_peak's rate per CPU second of the instruction the kernel multiplies with (int8 family: "
        "vpdpbusd zmm / vpmaddubsw ymm; fp family: FP64 FMA zmm / ymm), in GMAC per CPU second: the "
        "roofline bound SIMD width x ports x clock, measured. Speed-up 1 → N threads: the wall-clock rates' "
        "ratio for hifsim and numpy, and hifsim's from the CPU time on its critical path (1-thread CPU "
        "time over the N-thread run's serial CPU time plus its busiest worker's per parallel phase: what "
        "N idle cores give; other jobs barely change it).",
        "",
        f"| format | shape | kernel | 1 thread | {ncpu} threads | numpy 1 thread | numpy {ncpu} threads | "
        f"ratio 1 thread | ratio {ncpu} threads | target | 1 thread per CPU second: hifsim / numpy | "
        "SIMD ceiling used (1 thread, per CPU second) | speed-up 1 → N threads: hifsim wall, hifsim CPU path, "
        "numpy wall | fallback blocks | load |",
        "|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for (f, shape, k, one, alln, p1, pn, fb, ld, c1, pc1, path) in rows:
        tgt = TARGETS[f]
        met = "" if not (alln and pn) else (" ✓" if alln / pn >= tgt else " ✗")
        lines.append(f"| {f} | {shape} | {k} | {g(one)} | {g(alln)} | {g(p1)} | {g(pn)} | {r(one, p1)} | "
                     f"{r(alln, pn)} | {tgt}{met} | {g(c1)} / {g(pc1)} = {r(c1, pc1)} | {share(f, k, c1)} | "
                     f"{r(alln, one)}, {f'{path:.2f}' if path else '-'}, {r(pn, p1)} | {fb} | {ld:.1f} |")
    lines.append("<!-- gemm:end -->")
    block = "\n".join(lines)
    print(block)
    if not no_doc:
        text = open(doc).read()
        if "<!-- gemm:begin" in text:
            text = re.sub(r"<!-- gemm:begin.*?<!-- gemm:end -->", lambda m: block, text, flags=re.S)
        else:
            text = text.rstrip("\n") + "\n\n## GEMM engine (model/gemm/gemm)\n\n" + block + "\n"
        open(doc, "w").write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
