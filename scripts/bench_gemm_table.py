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
SHAPES = ("1024x1024x1024", "4096x4096x512")


def load_peer(path):
    best = {}
    for line in open(path):
        r = json.loads(line)
        best[r["shape"]] = max(best.get(r["shape"], 0.0), r["macs_per_second"])
    return best


def main(argv):
    out, ncpu = argv[1], int(argv[2])
    no_doc = "--no-doc" in argv
    doc = [a for a in argv[3:] if a != "--no-doc"][0]
    peer = {1: load_peer(os.path.join(out, "peer1.jsonl")), ncpu: load_peer(os.path.join(out, "peerN.jsonl"))}
    rows, ctx = [], None
    for path in sorted(glob.glob(os.path.join(out, "hifsim-*.json"))):
        h = json.load(open(path))
        ctx = ctx or h["context"]
        rate, kernel, fallback, load = {}, {}, {}, {}
        for b in h["benchmarks"]:
            if b.get("run_type") == "aggregate" or "error_occurred" in b:
                continue
            m = re.match(r"gemm/([^/]+)/([^/]+)/(\d+)", b["name"])
            fmt, shape, thr = m.group(1), m.group(2), int(m.group(3))
            shape = "1024x1024x1024" if shape == "1024^3" else shape
            rate[(fmt, shape, thr)] = b["MAC/s"]
            kernel[(fmt, shape)] = b.get("label", "").split(" ", 1)[-1]
            fallback[(fmt, shape)] = int(b.get("fallback_blocks", 0))
            load.setdefault((fmt, shape), []).append(b.get("load1", -1))
        for f in ORDER:
            for shape in SHAPES:
                if (f, shape) not in kernel:
                    continue
                one, alln = rate.get((f, shape, 1)), rate.get((f, shape, ncpu))
                p1, pn = peer[1].get(shape), peer[ncpu].get(shape)
                rows.append((f, shape, kernel[(f, shape)], one, alln, p1, pn, fallback[(f, shape)],
                             max(load[(f, shape)])))
    g = lambda v: f"{v / 1e9:.1f}" if v else "-"
    r = lambda a, b: f"{a / b:.2f}" if (a and b) else "-"
    lines = [
        "<!-- gemm:begin (written by scripts/bench_gemm.sh; edit the script, not this table) -->",
        "Bit-exact GEMM C = A·Bᵀ in 10⁹ multiply-accumulates per second (GMAC/s): Gaussian operands quantized "
        "outside the timed region; the engine with its operand packing is timed. "
        f"CPU: {ctx.get('cpu', '?')}, {ctx['num_cpus']} CPUs. Peer in the same run: numpy float32 `a @ b.T` "
        "(OpenBLAS), best of the runs before and after hifsim's. `load` is the highest 1-minute load average "
        "seen during the row's measurements (other jobs on the machine).",
        "",
        f"| format | shape | kernel | 1 thread | {ncpu} threads | numpy 1 thread | numpy {ncpu} threads | "
        f"ratio 1 thread | ratio {ncpu} threads | target | fallback blocks | load |",
        "|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for (f, shape, k, one, alln, p1, pn, fb, ld) in rows:
        tgt = TARGETS[f]
        met = "" if not (alln and pn) else (" ✓" if alln / pn >= tgt else " ✗")
        lines.append(f"| {f} | {shape} | {k} | {g(one)} | {g(alln)} | {g(p1)} | {g(pn)} | {r(one, p1)} | "
                     f"{r(alln, pn)} | {tgt}{met} | {fb} | {ld:.1f} |")
    lines.append("<!-- gemm:end -->")
    block = "\n".join(lines)
    print(block)
    if not no_doc:
        text = open(doc).read()
        if "<!-- gemm:begin" in text:
            text = re.sub(r"<!-- gemm:begin.*?<!-- gemm:end -->", lambda m: block, text, flags=re.S)
        else:
            text = text.rstrip("\n") + "\n\n## GEMM engine (model/datapath/gemm)\n\n" + block + "\n"
        open(doc, "w").write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
