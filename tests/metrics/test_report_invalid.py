#!/usr/bin/env python3
"""Invalid accuracy in the Python outputs (label `metrics`): the perplexity files and the report
renderer never turn NaN/Inf into a score.

- hifsim.perplexity.result_row: a NaN perplexity, or a finite one computed through NaN/Inf quantized
  values, is invalid: null in perplexity.json (strict JSON: json.dump used to write NaN, which is
  not JSON), "invalid" in perplexity.csv and .md, and the count of non-finite values.
- render_report.md_table / plots: "invalid" cells print as "invalid (NaN/Inf)", never through a
  number formatter; invalid points are named on the accuracy-vs-energy plot instead of drawn.
- pareto.py: points with invalid accuracy are listed and left off the plot and the front.
"""
import csv
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

# The package as staged by the build (PYTHONPATH=<build>/python, set by CMake).
from hifsim import perplexity as ep  # noqa: E402
from hifsim.report import render_report as rr  # noqa: E402


class PerplexityRows(unittest.TestCase):
    def test_rows(self):
        self.assertTrue(ep.result_row("hif8", "none", 12.5, 10.0, 0)["valid"])
        self.assertEqual(ep.result_row("hif8", "none", 12.5, 10.0, 0)["ratio_to_fp32"], 1.25)
        for p, n in [(float("nan"), 0), (float("inf"), 0), (11.0, 3)]:
            r = ep.result_row("fp8-e4m3", "none", p, 10.0, n)
            self.assertFalse(r["valid"], (p, n))
            self.assertIsNone(r["perplexity"])
            self.assertIsNone(r["ratio_to_fp32"])
            self.assertEqual(r["nonfinite_quantized_values"], n)
        self.assertEqual(ep.row_text(ep.result_row("x", "none", 11.0, 10.0, 3)),
                         ("invalid (3 NaN/Inf values after quantization)", "invalid"))

    def test_files(self):
        rows = [ep.result_row("fp32", "none", 10.0, 10.0, 0), ep.result_row("fp8-e4m3", "none", float("nan"), 10.0, 0),
                ep.result_row("hif8", "none", 10.5, 10.0, 0)]
        with tempfile.TemporaryDirectory() as d:
            ep.write_results(d, {"model": "m", "tokens": 4}, rows, "title")
            with open(os.path.join(d, "perplexity.json")) as f:
                text = f.read()
            self.assertNotIn("NaN", text)
            doc = json.loads(text, parse_constant=lambda c: self.fail(f"non-JSON constant {c}"))
            self.assertIsNone(doc["rows"][1]["perplexity"])
            with open(os.path.join(d, "perplexity.csv")) as f:
                got = list(csv.DictReader(f))
            self.assertEqual((got[1]["perplexity"], got[1]["valid"]), ("invalid", "false"))
            self.assertEqual(float(got[2]["perplexity"]), 10.5)
            md = open(os.path.join(d, "perplexity.md")).read()
            self.assertIn("| fp8-e4m3 | none | fake | invalid (NaN/Inf perplexity) | invalid |", md)
            self.assertNotIn("nan", md.lower().replace("nan/inf", ""))


class ReportTables(unittest.TestCase):
    def test_md_table_never_formats_invalid(self):
        rows = [{"format": "hif8", "sqnr_db": "30.123"}, {"format": "fp8-e4m3", "sqnr_db": "invalid"}]
        t = rr.md_table(rows, ["format", "sqnr_db"], fmt={"sqnr_db": lambda v: f"{float(v):.2f}"})
        self.assertIn("| hif8 | 30.12 |", t)
        self.assertIn("| fp8-e4m3 | invalid (NaN/Inf) |", t)
        self.assertTrue(math.isnan(rr.fnum("invalid")))


class ParetoSkipsInvalid(unittest.TestCase):
    def test_invalid_points_are_listed_not_plotted(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "results.csv")
            with open(path, "w") as f:
                f.write("id,energy_pj_per_mac,area_mm2,macs,cycles,sqnr_db,accuracy_valid\n"
                        "a,1.0,1.0,100,10,20.5,true\nb,0.5,0.5,100,10,,false\nc,2.0,2.0,100,10,25.0,true\n")
            r = subprocess.run([sys.executable, "-m", "hifsim.report.pareto", path, "--out",
                                os.path.join(d, "p")], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("1 points with invalid accuracy (NaN/Inf outputs) are not plotted: b", r.stdout)
            with open(os.path.join(d, "p.csv")) as f:
                front = [row["id"] for row in csv.DictReader(f)]
            # b (cheapest, smallest) would dominate everything if its empty SQNR were taken as a score.
            self.assertEqual(sorted(front), ["a", "c"])


if __name__ == "__main__":
    unittest.main()
