"""hifsim's timing core next to SCALE-Sim 3 (docs/tlm.md, "Side by side with SCALE-Sim 3").

Run by scripts/peers/scalesim_side_by_side.sh with the python of SCALE-Sim's own venv
(scripts/peers/scalesim_venv.sh); prints a Markdown table.

Mapping. A hifsim PE is a W-wide dot unit (one W-element block per cycle); a SCALE-Sim PE is
one MAC per cycle. One hifsim block is one SCALE-Sim element: GEMM M x N x K on hifsim is
M x N x K' with K' = K / W on SCALE-Sim, the same R x C array, the same dataflow. Both sides
are held compute-bound: SCALE-Sim with its ideal (CALC) interface bandwidth, counted without its
prefetch; hifsim with a memory of 64 KiB/cycle and latency 0 (its first tile load and last store
still take their bus cycles: the `fill`/`drain` columns), a systolic interconnect like
SCALE-Sim's (operands skewed across the array) and a pinned tiling of R x C output tiles with
the whole K in one tile (WS: all M rows in one tile), so both tools step through the same folds.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time

# (M, N, K): one fold, K folds (none: K is one tile), M and N folds, partial folds, a long K.
SHAPES = [(32, 32, 4096), (64, 64, 2048), (128, 128, 4096), (96, 160, 1024), (256, 256, 4096),
          (512, 128, 2048), (64, 64, 16384)]

SCALESIM_CFG = """[general]
run_name = {name}

[architecture_presets]
ArrayHeight: {r}
ArrayWidth: {c}
IfmapSramSzkB: 4096
FilterSramSzkB: 4096
OfmapSramSzkB: 4096
IfmapOffset: 0
FilterOffset: 100000000
OfmapOffset: 200000000
Bandwidth: 64
Dataflow: {df}
ReadRequestBuffer: 32
WriteRequestBuffer: 32

[layout]
IfmapCustomLayout: False
IfmapSRAMBankBandwidth: 10
IfmapSRAMBankNum: 10
IfmapSRAMBankPort: 2
FilterCustomLayout: False
FilterSRAMBankBandwidth: 10
FilterSRAMBankNum: 10
FilterSRAMBankPort: 2

[sparsity]
SparsitySupport: false
SparseRep: ellpack_block
OptimizedMapping: false
BlockSize: 8
RandomNumberGeneratorSeed: 40

[run_presets]
InterfaceBandwidth: CALC
UseRamulatorTrace: False
"""


def scalesim_cycles(work, df, r, c, m, n, kp):
    """SCALE-Sim 3 compute cycles (without prefetch) of one GEMM, and its wall seconds."""
    from scalesim.scale_sim import scalesim
    name = f"{df}_{m}_{n}_{kp}"
    d = os.path.join(work, name)
    os.makedirs(d)
    cfg, topo, layout = (os.path.join(d, f) for f in ("scale.cfg", "topo.csv", "layout.csv"))
    with open(cfg, "w") as f:
        f.write(SCALESIM_CFG.format(name=name, r=r, c=c, df=df))
    with open(topo, "w") as f:
        f.write(f"Layer, M, N, K,\ng, {m}, {n}, {kp},\n")
    with open(layout, "w") as f:
        f.write("Layer,\n")  # no custom layout: the loader only needs the file
    t0 = time.perf_counter()
    s = scalesim(save_disk_space=True, verbose=False, config=cfg, topology=topo, layout=layout, input_type_gemm=True)
    s.run_scale(top_path=os.path.join(d, "out"))
    wall = time.perf_counter() - t0
    with open(os.path.join(d, "out", name, "COMPUTE_REPORT.csv")) as f:
        row = next(csv.DictReader(f, skipinitialspace=True))
    return int(row["Total Cycles"]), int(row["Stall Cycles"]), wall


def hifsim_cycles(work, hifsim, config, df, r, c, m, n, k):
    """hifsim timing-only cycles (total and breakdown) of one GEMM on the pinned tiling, and wall seconds."""
    out = os.path.join(work, f"h_{df}_{m}_{n}_{k}")
    # OS: one R x C output tile per step (SCALE-Sim's OS fold); WS: all M rows stream past each
    # weight fold (SCALE-Sim's WS), so the tile holds every row of M.
    mt = r if df == "os" else m
    sets = (f"array.dataflow={df},array.rows={r},array.cols={c},array.interconnect=systolic,"
            f"memory.latency=0,memory.bytes_per_cycle=65536,tiling.m={mt},tiling.n={c},tiling.k={k},tiling.order=mnk")
    t0 = time.perf_counter()
    subprocess.run([hifsim, "run", "--config", config, "--set", sets, "--gemm", f"{m},{n},{k}", "--timing-only",
                    "--engine", "analytic", "--no-cost", "--quiet", "--out", out], check=True)
    wall = time.perf_counter() - t0
    with open(os.path.join(out, "result.json")) as f:
        g = json.load(f)["gemms"][0]
    return g["cycles"], g["tiling"], wall


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hifsim", required=True, help="the hifsim binary")
    ap.add_argument("--config", required=True, help="hifsim unit config (its PE format gives W)")
    ap.add_argument("--width", type=int, default=64, help="the config's dot width W (K' = K / W)")
    ap.add_argument("--rows", type=int, default=32)
    ap.add_argument("--cols", type=int, default=32)
    a = ap.parse_args()
    # SCALE-Sim's figure counts the array only (no prefetch, no stores, ideal bandwidth); hifsim's
    # comparable figure is compute + drain (the array's issue cycles and its pipeline/skew tail);
    # its fill and memory columns are the bus time of the first loads and the stores (one bus
    # cycle per tile-row transaction even at 64 KiB/cycle), which SCALE-Sim does not count.
    print("| dataflow | M | N | K (K') | folds | SCALE-Sim cycles (per fold) | hifsim compute + drain (per fold) |"
          " difference | hifsim total = fill + compute + memory + drain | wall s: SCALE-Sim / hifsim |")
    print("|---|---:|---:|---|---:|---:|---:|---:|---|---|")
    with tempfile.TemporaryDirectory() as work:
        for df in ("os", "ws"):
            for m, n, k in SHAPES:
                kp = k // a.width
                ss, stall, ss_wall = scalesim_cycles(work, df, a.rows, a.cols, m, n, kp)
                if stall:
                    sys.exit(f"SCALE-Sim reported {stall} stall cycles for {m}x{n}x{kp}: not compute-bound")
                cyc, _, h_wall = hifsim_cycles(work, a.hifsim, a.config, df, a.rows, a.cols, m, n, k)
                # SCALE-Sim folds: OS over M x N output tiles, WS over K' x N weight tiles (K' on the rows).
                folds = -(-m // a.rows) * -(-n // a.cols) if df == "os" else -(-kp // a.rows) * -(-n // a.cols)
                arr = cyc["compute"] + cyc["drain"]
                diff = 100.0 * (arr - ss) / ss
                print(f"| {df.upper()} | {m} | {n} | {k} ({kp}) | {folds} | {ss} ({ss / folds:.1f}) | {arr}"
                      f" ({arr / folds:.1f}) | {diff:+.1f} % | {cyc['total']} = {cyc['fill']} + {cyc['compute']} +"
                      f" {cyc['memory_stall']} + {cyc['drain']} | {ss_wall:.2f} / {h_wall:.3f} |")
                sys.stdout.flush()


if __name__ == "__main__":
    main()
