"""Per-cell ratios of two Liberty files: A / B for every cell of A that B also has.

  python -m hifsim_flows.pdk.compare_liberty A B [--slew 0.1] [--load 0.008] [--markdown]

Written to set the project's ngspice subset (A: configs/cost/sky130/sky130_fd_sc_hd_subset.lib)
against SkyWater's published data (B: sky130_fd_sc_hd__tt_025C_1v80.lib.gz). Columns, each the
ratio A / B at one operating point (default: input slew 0.1 ns, load 8 fF, the middle point of
the subset's grid; B's tables are interpolated bilinearly there, as an STA tool does):
  area      cell area (the same LEF sizes: 1.00 expected);
  cap       input pin capacitance, mean of the per-pin ratios;
  delay     (cell_rise + cell_fall) / 2 per input -> output arc, mean of the per-arc ratios;
            several timing groups of one arc (when-conditions, both senses) count by their worst;
  energy    internal energy of an output transition: rise + fall of the arc's output-pin
            internal_power (several when-groups: their mean), plus the input pin's own
            internal_power (rise + fall) where the library has one, mean over the arcs
            (--output-pin-energy: the output pin's part only, the convention of issue 29's figures);
  clock     a flip-flop's clock-pin energy per cycle (rise + fall of the CLK pin's internal_power).
The summary row gives the geometric mean over the cells of each column.
"""
import argparse
import math
import sys

from .flow_error import FlowError
from .liberty_read import at, internal_energies, parse, templates


def _arcs(cell, templates, slew, load, input_energy=True):
    """{(input, output): {'delay': ..., 'energy': ...}} of one cell."""
    pins = {p.args[0]: p for p in cell.sub("pin")}
    arcs = {}
    for out, p in pins.items():
        if p.attrs.get("direction") != "output":
            continue
        for t in p.sub("timing"):
            if t.attrs.get("timing_type", "combinational") not in ("combinational", "rising_edge", "falling_edge"):
                continue
            rel = t.attrs.get("related_pin")
            d = arcs.setdefault((rel, out), {"rise": [], "fall": [], "energy": []})
            for edge in ("rise", "fall"):
                for g in t.sub(f"cell_{edge}"):
                    d[edge].append(at(g, templates, slew, load))
        for ip in p.sub("internal_power"):
            rel = ip.attrs.get("related_pin")
            if (rel, out) in arcs:
                e = sum(at(g, templates, slew, load) for k in ("rise_power", "fall_power") for g in ip.sub(k))
                arcs[(rel, out)]["energy"].append(e)
    out = {}
    for (rel, o), d in arcs.items():
        if not d["rise"] or not d["fall"]:
            continue
        e = sum(d["energy"]) / len(d["energy"]) if d["energy"] else float("nan")
        if input_energy:
            e += _input_energy(pins.get(rel), templates, slew, load)
        out[(rel, o)] = {"delay": (max(d["rise"]) + max(d["fall"])) / 2, "energy": e}
    return out


def _input_energy(pin, templates, slew, load):
    e = internal_energies(pin, templates, slew, load, own=True) if pin is not None else []
    return sum(e) / len(e) if e else 0.0


def _clock_energy(cell, templates, slew, load):
    for p in cell.sub("pin"):
        if p.attrs.get("clock") == "true":
            return _input_energy(p, templates, slew, load)
    return None


def _caps(cell):
    return {p.args[0]: float(p.attrs["capacitance"]) for p in cell.sub("pin")
            if p.attrs.get("direction") == "input" and "capacitance" in p.attrs}


def _mean(xs):
    xs = [x for x in xs if x is not None and math.isfinite(x)]
    return sum(xs) / len(xs) if xs else None


def compare(path_a, path_b, slew=0.1, load=0.008, input_energy=True):
    """rows of (cell, {'area','cap','delay','energy','clock'}: ratio A/B or None)."""
    la, lb = parse(path_a), parse(path_b)
    ta, tb = templates(la), templates(lb)
    cb = {c.args[0]: c for c in lb.sub("cell")}
    rows = []
    for ca in la.sub("cell"):
        name = ca.args[0]
        if name not in cb:
            raise FlowError(path_b, f"has no cell {name} (in {path_a})")
        b = cb[name]
        r = {"area": float(ca.attrs["area"]) / float(b.attrs["area"])}
        capa, capb = _caps(ca), _caps(b)
        r["cap"] = _mean([capa[p] / capb[p] for p in capa if p in capb and capb[p] > 0])
        aa, ab = _arcs(ca, ta, slew, load, input_energy), _arcs(b, tb, slew, load, input_energy)
        common = [k for k in aa if k in ab]
        r["delay"] = _mean([aa[k]["delay"] / ab[k]["delay"] for k in common])
        r["energy"] = _mean([aa[k]["energy"] / ab[k]["energy"] for k in common if ab[k]["energy"] > 0])
        ka, kb = _clock_energy(ca, ta, slew, load), _clock_energy(b, tb, slew, load)
        r["clock"] = ka / kb if ka is not None and kb else None
        r["arcs"] = len(common)
        rows.append((name, r))
    return rows


COLUMNS = ("area", "cap", "delay", "energy", "clock")


def geomean(rows, col):
    xs = [r[col] for _, r in rows if r[col] is not None and r[col] > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def render(rows, markdown):
    f = (lambda x: "–" if x is None else f"{x:.2f}")
    lines = []
    if markdown:
        lines.append("| cell | arcs | " + " | ".join(COLUMNS) + " |")
        lines.append("|---|---|" + "---|" * len(COLUMNS))
        for name, r in rows:
            lines.append(f"| {name.split('__')[-1]} | {r['arcs']} | " + " | ".join(f(r[c]) for c in COLUMNS) + " |")
        lines.append("| **geometric mean** | | " + " | ".join(f"**{f(geomean(rows, c))}**" for c in COLUMNS) + " |")
    else:
        lines.append(f"{'cell':<28}{'arcs':>5}" + "".join(f"{c:>8}" for c in COLUMNS))
        for name, r in rows:
            lines.append(f"{name:<28}{r['arcs']:>5}" + "".join(f"{f(r[c]):>8}" for c in COLUMNS))
        lines.append(f"{'geometric mean':<28}{'':>5}" + "".join(f"{f(geomean(rows, c)):>8}" for c in COLUMNS))
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a", help="Liberty A (numerator), e.g. configs/cost/sky130/sky130_fd_sc_hd_subset.lib")
    ap.add_argument("b", help="Liberty B (denominator), e.g. the published tt_025C_1v80 .lib.gz")
    ap.add_argument("--slew", type=float, default=0.1, help="input slew, ns (default 0.1)")
    ap.add_argument("--load", type=float, default=0.008, help="output load, pF (default 0.008)")
    ap.add_argument("--output-pin-energy", action="store_true",
                    help="energy column from the output pins' internal_power only")
    ap.add_argument("--markdown", action="store_true", help="a Markdown table (docs/cost.md)")
    a = ap.parse_args(argv)
    try:
        rows = compare(a.a, a.b, a.slew, a.load, not a.output_pin_energy)
    except FlowError as e:
        print(f"compare_liberty: {e}", file=sys.stderr)
        return 1
    what = "output pin only" if a.output_pin_energy else "output arc + input pin"
    print(f"A / B at input slew {a.slew:g} ns, load {a.load * 1000:g} fF, energy {what}; A = {a.a}, B = {a.b}")
    print(render(rows, a.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
