"""The converter of SkyWater's published per-cell data (hifsim_flows.pdk.published_liberty) and
the three committed corner files (docs/cost.md §11.10).

1. On the hand-made fixture (tests/pdk/published_fixture: three cells in the published schema's
   shape, values of our own): the Liberty it writes reads in OpenSTA (3 cells, no warning) and
   Yosys (3 cell types), and every table of it reads back equal to the JSON (no transposed or
   shifted rows).
2. Broken values (a short table row, a non-number in a table, a pin without a direction, a
   negative capacitance) stop it with the file and the field, and leave an existing output as it was.
3. The committed sky130_fd_sc_hd__<corner>.lib.gz: their digests equal the manifest's, each reads
   in OpenSTA with the manifest's cell count and no warning, and the published tt areas equal the
   subset's (compare_liberty's area column).
"""
import hashlib
import json
import os
import shutil
import tempfile

from hifsim_flows.pdk import compare_liberty, liberty_read, published_liberty  # PYTHONPATH: python/
from pdk_test_common import COMMITTED, LIB, ROOT, check, finish, run, step

FIXTURE = os.path.join(ROOT, "tests", "pdk", "published_fixture")
PREFIX = "sky130_fd_sc_hd__"


def sta_reads(path, work):
    """(cell count OpenSTA sees, its output)."""
    tcl = os.path.join(work, "read.tcl")
    with open(tcl, "w") as f:
        f.write(f"read_liberty {path}\nputs \"CELLS [llength [get_lib_cells */*]]\"\nexit\n")
    rc, out, err = run(["sta", "-no_splash", "-exit", tcl])
    text = out + err
    n = [int(ln.split()[1]) for ln in text.splitlines() if ln.startswith("CELLS ")]
    return (n[0] if n and rc == 0 else -1), text


def convert(tree, out, *extra):
    return run([*step("published_liberty"), "--dir", tree, "--corner", "tt_025C_1v80", "--out", out, *extra])


def tables_of(obj, path=""):
    """{path: values} of every table in a published JSON object, path by group kind and args."""
    found = {}
    if isinstance(obj, list):
        for i, e in enumerate(obj):
            found.update(tables_of(e, f"{path}[{i}]"))
    elif isinstance(obj, dict):
        for k, v in obj.items():
            if isinstance(v, dict) and "values" in v:
                found[f"{path}/{k.split(',')[0]}"] = v["values"]
            elif isinstance(v, (dict, list)):
                found.update(tables_of(v, f"{path}/{k}"))
    return found


def lib_tables(g, path=""):
    found = {}
    counts = {}
    for s in g.groups:
        if "values" in s.complex:
            found[f"{path}/{s.kind}"] = liberty_read.table(s)
            continue
        key = s.kind + ("," + ",".join(s.args) if s.args else "")
        same = [x for x in g.groups if x.kind == s.kind and x.args == s.args and "values" not in x.complex]
        if len(same) > 1:
            i = counts.get(key, 0)
            counts[key] = i + 1
            key += f"[{i}]"
        found.update(lib_tables(s, f"{path}/{key}"))
    return found


with tempfile.TemporaryDirectory() as work:
    # 1. The fixture converts to a Liberty both tools read, with the tables unchanged.
    lib = os.path.join(work, "fixture.lib")
    rc, _, err = convert(FIXTURE, lib)
    check(rc == 0, f"fixture converts: {err.strip()}")
    n, text = sta_reads(lib, work)
    check(n == 3, f"OpenSTA reads the 3 fixture cells: {text.strip()}")
    check("Warning" not in text and "Error" not in text, f"OpenSTA: no warning on the fixture: {text.strip()}")
    rc, out, err = run(["yosys", "-p", f"read_liberty -lib {lib}"])
    check(rc == 0 and "Imported 3 cell types" in out, f"Yosys imports 3 cell types: {err.strip()[-300:]}")
    parsed = liberty_read.parse(lib)
    for cell in parsed.sub("cell"):
        base = cell.args[0][len(PREFIX):]
        with open(os.path.join(FIXTURE, "cells", base.rsplit("_", 1)[0],
                               f"{cell.args[0]}__tt_025C_1v80.lib.json")) as f:
            want = tables_of(json.load(f))
        got = lib_tables(cell)
        flat = {k: (v if isinstance(v[0], list) else [v]) for k, v in want.items()}
        check(set(got) == set(flat), f"{base}: the same tables ({sorted(set(got) ^ set(flat))[:4]})")
        for k in flat:
            if k in got:
                check(got[k] == [[float(x) for x in r] for r in flat[k]], f"{base}{k}: values read back equal")

    # 2. Broken values are caught, naming the file and the field; the old output stays.
    nand = os.path.join("cells", "nand2", f"{PREFIX}nand2_1__tt_025C_1v80.lib.json")

    def broken(what, edit, expect):
        tree = os.path.join(work, "broken")
        shutil.rmtree(tree, ignore_errors=True)
        shutil.copytree(FIXTURE, tree)
        with open(os.path.join(tree, nand)) as f:
            cell = json.load(f)
        edit(cell)
        with open(os.path.join(tree, nand), "w") as f:
            json.dump(cell, f)
        out = os.path.join(work, "old.lib")
        with open(out, "w") as f:
            f.write("old\n")
        rc, _, err = convert(tree, out)
        check(rc == 1 and nand in err and expect in err, f"{what}: exit {rc}, message {err.strip()!r}")
        check(open(out).read() == "old\n", f"{what}: the existing output is untouched")

    def short_row(c):
        c["pin,Y"]["timing"][1]["cell_rise,del_2_2"]["values"][1].pop()

    def text_value(c):
        c["pin,Y"]["internal_power"][0]["fall_power,out_2_2"]["values"][0][1] = "0.1x"

    def no_direction(c):
        del c["pin,B"]["direction"]

    def negative_cap(c):
        c["pin,A"]["capacitance"] = -0.002

    broken("short table row", short_row, "pin,Y/timing[1]/cell_rise,del_2_2/values: expected 2 rows of 2 values")
    broken("text in a table", text_value, "expected a number, got '0.1x'")
    broken("pin without direction", no_direction, "pin,B/direction: None is not one of")
    broken("negative capacitance", negative_cap, "pin,A/capacitance: negative capacitance")

    # 3. The committed corner files.
    with open(os.path.join(COMMITTED, "published_manifest.json")) as f:
        manifest = json.load(f)
    check(manifest.get("source_commit") and len(manifest["source_commit"]) == 40, "manifest names the source commit")
    check(manifest.get("converter_version") == published_liberty.CONVERTER_VERSION, "manifest: the converter's version")
    for corner in published_liberty.CORNERS:
        entry = manifest["corners"].get(corner, {})
        path = os.path.join(COMMITTED, f"{PREFIX}{corner}.lib.gz")
        check(entry.get("file") == os.path.basename(path), f"{corner}: in the manifest")
        with open(path, "rb") as f:
            packed = f.read()
        check(hashlib.sha256(packed).hexdigest() == entry.get("sha256"), f"{corner}: digest equals the manifest's")
        plain = published_liberty.plain_copy(path, work)
        with open(plain, "rb") as f:
            check(hashlib.sha256(f.read()).hexdigest() == entry.get("liberty_sha256"), f"{corner}: text digest")
        n, text = sta_reads(plain, work)
        check(n == entry.get("cell_count") == len(entry.get("cells", [])) and n > 400,
              f"{corner}: OpenSTA reads {n} cells, the manifest lists {entry.get('cell_count')}")
        check("Warning" not in text and "Error" not in text, f"{corner}: OpenSTA: no warning: {text.strip()[:300]}")
        os.remove(plain)
    rows = compare_liberty.compare(LIB, os.path.join(COMMITTED, f"{PREFIX}tt_025C_1v80.lib.gz"))
    check(rows and all(abs(r["area"] - 1) < 1e-9 for _, r in rows), "published tt areas equal the subset's")

    # 4. The mapping copy (mapping_lib.py): the cells the flow may use, every tool reads it.
    from hifsim_flows.pdk import cells as C, mapping_lib  # noqa: E402
    from hifsim_flows.pdk.gate_sim import CellLib  # noqa: E402
    from hifsim_flows.pdk.flow_error import FlowError  # noqa: E402
    tt = os.path.join(COMMITTED, f"{PREFIX}tt_025C_1v80.lib.gz")
    mapped = mapping_lib.mapping_copy(tt, work)
    lib = CellLib(mapped)
    names = set(lib.cells)
    check(len(names) == 271, f"mapping copy: 271 cells, {len(names)}")
    check(all(C.mapping_allowed(n) for n in names), "mapping copy: only allowed cells")
    check({PREFIX + c for c in ("dfxtp_1", "nand2_1", "a21oi_1", "mux2_1", "maj3_1", "xor2_1", "inv_16")} <= names,
          "mapping copy keeps the plain flop and the logic cells")
    check(not {PREFIX + c for c in ("dfrtp_1", "fa_1", "clkbuf_1", "conb_1", "dlygate4sd1_1", "ebufn_1", "sdfxtp_1")} & names,
          "mapping copy drops reset/scan flops, adders, clock, tie, delay and tri-state cells")
    n, text = sta_reads(mapped, work)
    check(n == 271 and "Error" not in text, f"OpenSTA reads the mapping copy: {n} cells {text.strip()[:200]}")
    check(mapping_lib.mapping_copy(tt, work) == mapped, "the copy is rewritten only when it differs")
    # Every kept cell's output function evaluates (gate_sim's reader) on every input combination.
    import itertools  # noqa: E402
    import numpy as np  # noqa: E402  (gate_sim evaluates on numpy bool vectors)
    for name in sorted(names):
        for pin, d in lib.cells[name]["pins"].items():
            if d.get("direction") == "output" and lib.cells[name]["ff"] is None:
                f = lib.function(name, pin)
                ins = [p for p, q in lib.cells[name]["pins"].items() if q.get("direction") == "input"]
                f({p: np.array(bits, bool) for p, bits in zip(ins, zip(*itertools.product((0, 1), repeat=len(ins))))})
    import numpy as np  # noqa: E402  (gate_sim evaluates on numpy bool vectors)
    a, b = np.array([0, 0, 1, 1], bool), np.array([0, 1, 0, 1], bool)
    check(list(lib.function(f"{PREFIX}nand2_1", "Y")({"A": a, "B": b})) == [True, True, True, False],
          "nand2_1's published function is a NAND")
    check(list(lib.function(f"{PREFIX}xor2_1", "X")({"A": a, "B": b})) == [False, True, True, False],
          "xor2_1's published function is an XOR")
    # The published data book input-pin energy; the ngspice subset none; the clock energy per cycle
    # is rise + fall of the clock pin.
    check(lib.input_energy_pj(f"{PREFIX}nand2_1", "A") > 0, "published nand2_1.A has its own internal energy")
    check(CellLib(LIB).input_energy_pj(f"{PREFIX}nand2_1", "A") == 0, "the ngspice subset books none on inputs")
    ratio = CellLib(LIB).clock_energy_pj(f"{PREFIX}dfxtp_1") / lib.clock_energy_pj(f"{PREFIX}dfxtp_1")
    check(abs(ratio - 0.42) < 0.02, f"dfxtp_1 clock energy ngspice / published {ratio:.3f} (the 0.42 of docs/cost.md 11.10)")
    # A file cut inside a cell: the file and the line, no copy written.
    cut = os.path.join(work, "cut.lib")
    with open(plain_tt := published_liberty.plain_copy(tt, work)) as f:
        t = f.read()
    k = t.index(f"cell ({PREFIX}nand2_1)")
    open(cut, "w").write(t[:k + 2000])
    try:
        mapping_lib.mapping_copy(cut, os.path.join(work, "cut-out"))
        check(False, "a cut file is refused")
    except FlowError as e:
        check("cut.lib" in str(e) and "is not closed" in str(e) and not os.path.exists(os.path.join(work, "cut-out")),
              f"a cut file is refused with file and reason, nothing written: {e}")
    os.remove(plain_tt)

finish()
