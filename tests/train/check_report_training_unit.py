#!/usr/bin/env python3
"""The report's training-unit section (label train), on synthetic data: render_report.py on a report
folder holding data/training_unit.json (schema hifsim-training-unit/1, written by `hifsim compare`
on a training trace) shows the stacked-bar plot and the area and energy tables, one row per format,
a block the step does not use as "—", a proxy block marked (PROXY), the totals; a skipped format and
an absent file are named under "Not in this report". Rendered as `hifsim compare` renders: python -m
hifsim.report.render_report, the built package on PYTHONPATH. Usage: check_report_training_unit.py"""
import json
import os
import sys
import tempfile

from check_report_training import render  # beside this file: renders as `hifsim compare` does

BLOCKS = ["dot_units", "quantizer_rn", "quantizer_sr", "rht", "transpose_buffer", "sram", "dram"]


def row(fmt, area, energy, used, proxy, eproxy=()):
    blocks = [{"block": b, "used": b in used, "instances": 1, "area_mm2": a if b in used else 0.0,
               "energy_uj": e if b in used else 0.0, "area_proxy": b in proxy, "energy_proxy": b in proxy or b in eproxy,
               "area_source": f"{b} area src",
               "energy_source": f"{b} energy src"} for b, a, e in zip(BLOCKS, area, energy)]
    return {"format": fmt, "recipe": fmt, "config": f"configs/units/{fmt}-32x32.yaml", "step_cycles": 800000,
            "area_mm2": sum(b["area_mm2"] for b in blocks), "energy_uj": sum(b["energy_uj"] for b in blocks),
            "blocks": blocks}


def write(d):
    rows = [row("hif4", [1.5, 0.25, 0, 0, 0.125, 2.0, 0], [100, 20, 0, 0, 5, 50, 700],
                {"dot_units", "quantizer_rn", "transpose_buffer", "sram", "dram"}, {"transpose_buffer"}, {"quantizer_rn"}),
            row("nvfp4", [1.25, 0.5, 0.75, 0.0625, 0.125, 2.0, 0], [90, 10, 8, 2, 5, 50, 600], set(BLOCKS),
                {"quantizer_rn", "transpose_buffer"}),
            {"format": "mxfp8-e4m3", "recipe": "mxfp8-e4m3", "config": "c.yaml",
             "skipped": "no recipe configs/recipes/mxfp8-e4m3.yaml"}]
    with open(os.path.join(d, "data", "training_unit.json"), "w") as f:
        json.dump({"schema": "hifsim-training-unit/1", "node": "sky130", "trace": "t/trace.yaml", "blocks": BLOCKS,
                   "rows": rows, "notes": ["note one"]}, f)


def main():
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "data"))
        write(d)
        md = render(d)
        assert "![training_unit](plots/training_unit.png)" in md, md
        assert os.path.getsize(os.path.join(d, "plots", "training_unit.png")) > 10000
        assert "## Training unit: area and energy per training step by block" in md, md
        assert ("| format | recipe | dot units | quantizers RN | quantizers SR | RHT | transpose buffer | SRAM | total |"
                in md), md
        assert "| hif4 | hif4 | 1.5 | 0.25 | — | — | 0.125 (PROXY) | 2 | 3.875 |" in md, md
        assert "| nvfp4 | nvfp4 | 1.25 | 0.5 (PROXY) | 0.75 | 0.0625 | 0.125 (PROXY) | 2 | 4.688 |" in md, md
        assert "| hif4 | hif4 | 100 | 20 (PROXY) | — | — | 5 (PROXY) | 50 | 700 | 875 | 800,000 |" in md, md
        assert "| nvfp4 | nvfp4 | 90 | 10 (PROXY) | 8 | 2 | 5 (PROXY) | 50 | 600 | 765 | 800,000 |" in md, md
        assert "nvfp4 quantizers SR: area quantizer_sr area src; energy quantizer_sr energy src." in md, md
        assert "training unit, mxfp8-e4m3: no recipe configs/recipes/mxfp8-e4m3.yaml" in md, md
        assert "training unit (data/training_unit.json): not produced" not in md, md
        assert 'alt="training_unit"' in open(os.path.join(d, "report.html")).read()
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "data"))
        md = render(d)
        assert "training unit (data/training_unit.json): not produced by this run" in md, md
        assert "training_unit" not in md.split("## Not in this report")[0], md
    print("report training-unit section: plot, area and energy tables (unused —, proxies marked, totals), "
          "skipped and absent data named")
    return 0


if __name__ == "__main__":
    sys.exit(main())
