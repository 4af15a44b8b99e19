#!/usr/bin/env python3
"""`hifsim compare` on the stories260K training trace writes the training-unit comparison
(docs/training.md, "The training unit in the report") and the report shows it: one row per format
of the area and the energy tables, each cell the figure of data/training_unit.json, the blocks each
recipe uses (NVFP4: SR quantizers and the 16-point Hadamard unit; MXFP4: SR and a 32-point RHT, a
proxy; HiF4: neither), the blocks' areas from the sky130 rows where they exist (hif4_quantizer,
sr_quantizer: not proxies), each format's step cycles equal to `hifsim run --recipe <format>`'s, the
blocks adding up to the totals, and the plot; a bad --training-unit value is refused before
anything runs.

Checked on traces/stories260k-train (tensors from scripts/capture/ensure_traces.sh --only
stories260k; exit 77 = skipped when they are absent). Usage: check_compare_training_unit.py HIFSIM ROOT"""
import json
import os
import subprocess
import sys
import tempfile

HIFSIM, ROOT = sys.argv[1], sys.argv[2]
TRACE = os.path.join(ROOT, "traces", "stories260k-train")
if not os.path.isdir(os.path.join(TRACE, "tensors")):
    print("SKIP: no tensors in traces/stories260k-train (bash scripts/capture/ensure_traces.sh --only stories260k)")
    sys.exit(77)
FORMATS = ["hif4", "nvfp4", "mxfp4"]
QUICK = ["--residual", "none", "--ppl-tokens", "0", "--train-steps", "0", "--cost-sample", "64", "--quiet"]
TITLES = {"dot_units": "dot units", "quantizer_rn": "quantizers RN", "quantizer_sr": "quantizers SR", "rht": "RHT",
          "transpose_buffer": "transpose buffer", "sram": "SRAM", "dram": "DRAM"}


def hifsim(*args):
    r = subprocess.run([HIFSIM, *args], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, (args, r.stderr[-3000:])
    return r


def section_rows(md, heading):
    """{format: {column: cell}} of the table under `### heading` in the training-unit section."""
    part = md.split("## Training unit: area and energy per training step by block", 1)[1].split("\n## ", 1)[0]
    lines = [l for l in part.split(f"### {heading}", 1)[1].split("### ", 1)[0].strip().splitlines() if l.startswith("|")]
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    return {r[0]: dict(zip(head, r)) for r in ([c.strip() for c in l.strip("|").split("|")] for l in lines[2:])}


def cell(b, key, proxy):
    return "—" if not b["used"] else f"{b[key]:.4g}" + (" (PROXY)" if b[proxy] else "")


def main():
    with tempfile.TemporaryDirectory(prefix="hifsim-training-unit-") as tmp:
        out = os.path.join(tmp, "report")
        hifsim("compare", "--trace", TRACE, "--formats", ",".join(FORMATS), "--out", out, *QUICK)
        tu = json.load(open(os.path.join(out, "data", "training_unit.json")))
        md = open(os.path.join(out, "report.md")).read()
        assert tu["schema"] == "hifsim-training-unit/1" and tu["node"] == "sky130", tu
        assert [r["format"] for r in tu["rows"]] == FORMATS, tu["rows"]
        rows = {r["format"]: {b["block"]: b for b in r["blocks"]} for r in tu["rows"]}
        used = {f: {b for b, x in rows[f].items() if x["used"]} for f in FORMATS}
        common = {"dot_units", "quantizer_rn", "transpose_buffer", "sram", "dram"}
        assert used["hif4"] == common, used
        assert used["nvfp4"] == used["mxfp4"] == common | {"quantizer_sr", "rht"}, used
        assert "hadamard16" in rows["nvfp4"]["rht"]["area_source"] and not rows["nvfp4"]["rht"]["area_proxy"]
        assert "hadamard32" in rows["mxfp4"]["rht"]["area_source"] and rows["mxfp4"]["rht"]["area_proxy"]
        for f, unit in (("hif4", "quantizer_rn"), ("nvfp4", "quantizer_sr")):
            b = rows[f][unit]
            assert "sky130 mapped cell area" in b["area_source"] and not b["area_proxy"], b
        assert rows["nvfp4"]["quantizer_sr"]["instances"] == 4, rows["nvfp4"]["quantizer_sr"]  # 64 elements/cycle, 16 per unit
        for r in tu["rows"]:
            assert abs(sum(b["area_mm2"] for b in r["blocks"]) - r["area_mm2"]) <= 1e-9 * r["area_mm2"], r
            assert abs(sum(b["energy_uj"] for b in r["blocks"]) - r["energy_uj"]) <= 1e-9 * r["energy_uj"], r
            assert all(b["area_mm2"] > 0 and b["energy_uj"] > 0 for b in r["blocks"] if b["used"] and b["block"] != "dram"), r
            # The step is `hifsim run`'s (timing is load- and sample-independent).
            step = os.path.join(tmp, "step-" + r["format"])
            hifsim("run", "--config", f"configs/units/{r['format']}-32x32.yaml", "--trace", TRACE, "--recipe", r["format"],
                   "--engine", "analytic", "--timing-only", "--out", step, "--quiet")
            ran = json.load(open(os.path.join(step, "training_step.json")))
            assert r["step_cycles"] == ran["step"]["cycles"]["total"], (r["format"], r["step_cycles"], ran["step"])
        # The report's tables: every cell the JSON's figure, in the JSON's order.
        area, energy = section_rows(md, "Area (mm², sky130)"), section_rows(md, "Energy per training step (µJ, sky130)")
        assert list(area) == list(energy) == FORMATS, (area, energy)
        for r in tu["rows"]:
            f = r["format"]
            for b in r["blocks"]:
                if b["block"] != "dram":
                    assert area[f][TITLES[b["block"]]] == cell(b, "area_mm2", "area_proxy"), (f, b, area[f])
                assert energy[f][TITLES[b["block"]]] == cell(b, "energy_uj", "energy_proxy"), (f, b, energy[f])
            assert area[f]["total"] == f"{r['area_mm2']:.4g}" and energy[f]["total"] == f"{r['energy_uj']:.4g}", r
            assert energy[f]["step cycles"] == f"{r['step_cycles']:,}", (energy[f], r)
        assert "![training_unit](plots/training_unit.png)" in md
        assert "training unit (data/training_unit.json)" not in md
        # A bad --training-unit is refused before anything runs (off is the renderer's absent case,
        # tests/train/check_report_training_unit.py).
        r = subprocess.run([HIFSIM, "compare", "--trace", TRACE, "--out", os.path.join(tmp, "bad"), "--training-unit", "yes"],
                           capture_output=True, text=True, cwd=ROOT)
        assert r.returncode != 0 and "--training-unit" in r.stderr and "auto, on or off" in r.stderr, r.stderr
        assert not os.path.exists(os.path.join(tmp, "bad"))
    print("compare on stories260k-train: training-unit rows per format, blocks per recipe, sky130 rows, step cycles = "
          "hifsim run's, table cells = data, plot; a bad option refused")
    return 0


if __name__ == "__main__":
    sys.exit(main())
