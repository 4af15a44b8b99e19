#!/usr/bin/env python3
"""Pareto-front plot of a sweep's results.csv: energy per MAC (x) against accuracy (y, SQNR in dB
when the sweep measured it, else throughput) with area as the marker colour; the points that no
other point beats on energy, accuracy and area at once are circled and listed.

    pareto.py DIR/results.csv --out DIR/pareto      (writes pareto.png, pareto.svg, pareto.csv)
"""
import argparse
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def front(points):
    """Indices of the points (energy, accuracy, area) that no other point dominates: lower or equal
    energy, higher or equal accuracy, lower or equal area, and strictly better in one.

    O(n log n + n f) for a front of f points, instead of comparing every pair (10^5 points: 10^10
    comparisons). In order of energy, then accuracy descending, then area, every point that could
    dominate one comes before it; `stair` holds the (accuracy, area) front of the points seen so
    far, sorted by accuracy, where area rises with accuracy, so the least area at or above an
    accuracy is the first entry at or above it. Equal points do not dominate each other: they
    are judged once and share the verdict."""
    import bisect

    order = sorted(set(points), key=lambda p: (p[0], -p[1], p[2]))
    stair_acc, stair_area = [], []  # accuracy ascending; area ascending along it
    on_front = set()
    for e, acc, area in order:
        k = bisect.bisect_left(stair_acc, acc)
        if k < len(stair_acc) and stair_area[k] <= area:
            continue  # an earlier point has energy <=, accuracy >=, area <=, and is not equal
        on_front.add((e, acc, area))
        # Insert (acc, area), dropping the entries it now covers (accuracy <= acc, area >= area).
        lo = k
        while lo > 0 and stair_area[lo - 1] >= area:
            lo -= 1
        hi = k
        if hi < len(stair_acc) and stair_acc[hi] == acc:
            hi += 1
        stair_acc[lo:hi] = [acc]
        stair_area[lo:hi] = [area]
    return [i for i, p in enumerate(points) if p in on_front]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results")
    ap.add_argument("--out", required=True, help="output path without extension")
    a = ap.parse_args(argv)
    with open(a.results, newline="") as f:
        rows = list(csv.DictReader(f))
    # Points the cost model does not cover have no energy: they are listed, not plotted.
    skipped = [r["id"] for r in rows if r.get("energy_pj_per_mac", "") == ""]
    rows = [r for r in rows if r.get("energy_pj_per_mac", "") != ""]
    if skipped:
        print(f"[pareto] {len(skipped)} points without energy (cost_unsupported in results.csv) are not plotted")
    if not rows:
        sys.exit(f"{a.results}: no rows with energy")
    # A point whose accuracy is invalid (NaN/Inf outputs: accuracy_valid false, the figures empty) has
    # no SQNR to rank: it is listed and left out of the plot and the front, never placed by a default.
    if "sqnr_db" in rows[0]:
        bad = [r["id"] for r in rows if r.get("accuracy_valid", "true") == "false" or r["sqnr_db"] == ""]
        bad_ids = set(bad)  # once: a set built per row would make this quadratic at 10^5 points
        rows = [r for r in rows if r["id"] not in bad_ids]
        if bad:
            print(f"[pareto] {len(bad)} points with invalid accuracy (NaN/Inf outputs) are not plotted: {', '.join(bad[:5])}"
                  + (" ..." if len(bad) > 5 else ""))
        if not rows:
            sys.exit(f"{a.results}: every point's accuracy is invalid (NaN/Inf outputs): nothing to plot")
    acc_key = "sqnr_db" if rows[0].get("sqnr_db") not in (None, "") else None
    note = ""
    if acc_key and len({r[acc_key] for r in rows}) < 2:
        # The sweep did not change the arithmetic: accuracy is one number; plot throughput instead.
        note = f" (SQNR {float(rows[0][acc_key]):.2f} dB at every point)"
        acc_key = None
    pts = []
    for r in rows:
        e = float(r["energy_pj_per_mac"])
        area = float(r["area_mm2"])
        acc = float(r[acc_key]) if acc_key else float(r["macs"]) / max(1.0, float(r["cycles"]))
        pts.append((e, acc, area))

    idx = front(pts)
    fig, ax = plt.subplots(figsize=(6.8, 4.6))
    # Thousands of points: small markers, and rasterized so the SVG stays small (10^5 vectors would
    # make a file of tens of MB that browsers draw slowly).
    many = len(pts) > 2000
    sc = ax.scatter([p[0] for p in pts], [p[1] for p in pts], c=[p[2] for p in pts], cmap="viridis",
                    s=4 if many else 28, zorder=2, rasterized=many)
    ax.scatter([pts[i][0] for i in idx], [pts[i][1] for i in idx], s=110, facecolors="none", edgecolors="red",
               linewidths=1.5, zorder=3, label=f"Pareto front ({len(idx)} of {len(pts)})")
    fig.colorbar(sc, ax=ax, label="area (mm²)")
    ax.set_xlabel("energy per MAC (pJ)")
    ax.set_ylabel("GEMM SQNR (dB)" if acc_key else "throughput (MACs per cycle)")
    ax.set_title("Design sweep: energy, " + ("accuracy" if acc_key else "throughput") + " and area" + note, fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.savefig(a.out + ".png", dpi=110, bbox_inches="tight")
    fig.savefig(a.out + ".svg", bbox_inches="tight")
    with open(a.out + ".csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        for i in idx:
            w.writerow(rows[i])
    print(f"[pareto] {len(idx)} of {len(pts)} points on the front: {a.out}.png, {a.out}.csv")
    return 0


if __name__ == "__main__":
    sys.exit(main())
