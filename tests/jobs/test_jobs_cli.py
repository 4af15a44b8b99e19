#!/usr/bin/env python3
"""The jobs through the CLI: a 100-point sweep runs in parallel, is interrupted (--max-points)
and resumed (only the missing points run), merges into results.csv with a Pareto plot, and its
Slurm files pass `bash -n` (tests/slurm runs them on a real slurmctld); `hifsim compare` on a fresh stories260K capture writes the report,
which headless Chromium loads with every plot decoded and no console message, saving a screenshot
as the test artefact (build/test-artifacts/report.png)."""
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "traces"))
from _common import SKIP_RETURN_CODE, capture_stories260k  # noqa: E402

HIFSIM = os.environ.get("HIFSIM_BIN") or os.path.join(ROOT, "build", "bin", "hifsim")
ARTIFACTS = os.environ.get("HIFSIM_ARTIFACTS") or os.path.join(ROOT, "build", "test-artifacts")
SWEEP = os.path.join(HERE, "data", "sweep-100.yaml")


def hifsim(*args, check=True):
    r = subprocess.run([HIFSIM, *args], capture_output=True, text=True)
    if check and r.returncode != 0:
        raise AssertionError(f"hifsim {' '.join(args)} failed ({r.returncode}):\n{r.stderr}")
    return r


class SweepCli(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="hifsim-jobs-")
        self.out = os.path.join(self.tmp, "sw")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def records(self, out=None):
        """id -> result text of every complete record line (docs/sweeps.md, "Outputs")."""
        d = os.path.join(out or self.out, "records")
        found = {}
        for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            with open(os.path.join(d, name)) as f:
                for line in f:
                    if line.endswith("\n"):
                        rec = json.loads(line)
                        self.assertEqual(rec["result"]["status"], "ok")
                        self.assertNotIn(rec["id"], found, "a point was evaluated twice")
                        found[rec["id"]] = line[line.index(',"result":') + 10:-2]
        return found

    def points_done(self):
        return sorted(self.records())

    def test_interrupted_sweep_resumes_and_merges(self):
        ids = [l.split()[0] for l in hifsim("sweep", "--sweep", SWEEP, "--out", self.out, "--dry-run").stdout.splitlines()]
        self.assertEqual(len(ids), 100)
        self.assertEqual(len(set(ids)), 100)
        r = hifsim("sweep", "--sweep", SWEEP, "--out", self.out, "--jobs", "2", "--max-points", "37", "--quiet",
                   "--no-plots", check=False)
        self.assertNotEqual(r.returncode, 0, "an incomplete sweep must not report success")
        first = self.points_done()
        self.assertEqual(len(first), 37)
        with open(os.path.join(self.out, "missing.txt")) as f:
            self.assertEqual(len(f.read().split()), 63)
        # Resume: the first run's record file is left as it was; the rerun appends only the 63
        # missing points to a file of its own (records() fails on a point evaluated twice).
        rec = os.path.join(self.out, "records")
        before = {n: open(os.path.join(rec, n)).read() for n in os.listdir(rec)}
        hifsim("sweep", "--sweep", SWEEP, "--out", self.out, "--jobs", "2", "--quiet")
        self.assertEqual(len(self.points_done()), 100)
        for n, text in before.items():
            with open(os.path.join(rec, n)) as f:
                self.assertEqual(f.read(), text, n)
        self.assertEqual(len(os.listdir(rec)), len(before) + 1)
        with open(os.path.join(self.out, "results.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(len(rows), 100)
        self.assertEqual(sorted(r["id"] for r in rows), sorted(ids))
        for r in rows:
            self.assertGreater(int(r["cycles"]), 0)
            self.assertGreater(float(r["energy_pj_per_mac"]), 0)
        # Bigger arrays never take more cycles for the same memory system.
        by = {(r["array.rows"], r["array.cols"], r["memory.bytes_per_cycle"]): int(r["cycles"]) for r in rows}
        self.assertLessEqual(by[("32", "16", "256")], by[("2", "2", "256")])
        self.assertTrue(os.path.isfile(os.path.join(self.out, "pareto.png")))
        self.assertTrue(os.path.isfile(os.path.join(self.out, "manifest.json")))
        # Parquet copy exactly when pyarrow is installed (optional dependency).
        parquet = os.path.join(self.out, "results.parquet")
        try:
            import pyarrow.parquet as pq
        except ImportError:
            self.assertFalse(os.path.exists(parquet))
        else:
            t = pq.read_table(parquet)
            self.assertEqual(t.num_rows, 100)
            self.assertEqual(sorted(t.column("id").to_pylist()), sorted(ids))
            self.assertEqual(t.column("cycles").to_pylist(), [int(r["cycles"]) for r in rows])
        # Same points, same bits: a fresh run with one thread reproduces every result.
        out2 = os.path.join(self.tmp, "sw2")
        hifsim("sweep", "--sweep", SWEEP, "--out", out2, "--jobs", "1", "--quiet", "--no-plots")
        self.assertEqual(self.records(out2), self.records())

    def test_slurm_script_and_shards(self):
        r = hifsim("sweep", "--sweep", SWEEP, "--out", self.out, "--emit-slurm", "8", "--throttle", "3")
        self.assertIn("merge:", r.stdout)
        for name in ("sweep.slurm", "merge.slurm", "submit.sh"):
            self.assertEqual(subprocess.run(["bash", "-n", os.path.join(self.out, name)]).returncode, 0, name)
        with open(os.path.join(self.out, "sweep.slurm")) as f:
            self.assertIn("#SBATCH --array=0-7%3\n", f.read())
        # The log folder exists before anything is submitted (Slurm opens the log first).
        self.assertTrue(os.path.isdir(os.path.join(self.out, "logs")))
        # Two shards together cover the sweep exactly once; shards do not merge, --merge-only does.
        hifsim("sweep", "--sweep", SWEEP, "--out", self.out, "--shard", "0/2", "--quiet", "--no-plots")
        self.assertEqual(len(self.points_done()), 50)
        hifsim("sweep", "--sweep", SWEEP, "--out", self.out, "--shard", "1/2", "--quiet", "--no-plots")
        self.assertEqual(len(self.points_done()), 100)
        self.assertFalse(os.path.exists(os.path.join(self.out, "results.csv")))
        hifsim("sweep", "--sweep", SWEEP, "--out", self.out, "--merge-only", "--quiet", "--no-plots")
        with open(os.path.join(self.out, "results.csv"), newline="") as f:
            self.assertEqual(len(list(csv.DictReader(f))), 100)

    def test_bad_sweep_file(self):
        bad = os.path.join(self.tmp, "bad.yaml")
        with open(SWEEP) as f:
            text = f.read().replace("array.rows: [2, 4, 8, 16, 32]", "array.rows: [2, 4, -8]")
        with open(bad, "w") as f:
            f.write(text.replace("../../../configs", os.path.join(ROOT, "configs")))
        r = hifsim("sweep", "--sweep", bad, "--out", self.out, check=False)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("array.rows", r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        self.assertFalse(os.path.exists(self.out))


class CompareReport(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="hifsim-compare-")
        cls.trace = capture_stories260k(cls.tmp)
        cls.out = os.path.join(cls.tmp, "report")
        # A few training steps of two recipes: the report path writes data/training/<recipe>/loss.csv
        # itself (skipped when the stories260K checkpoint is missing, as the capture above needs it too).
        # --training-unit on: the training-unit plot on this forward-only trace too, for the browser check.
        hifsim("compare", "--trace", cls.trace, "--formats", "hif4,nvfp4,bf16", "--out", cls.out, "--quiet",
               "--train-steps", "12", "--train-recipes", "fp32,bf16", "--training-unit", "on")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_outputs(self):
        for f in ("report.md", "report.html", "manifest.json", "data/accuracy_summary.csv", "data/units.csv",
                  "data/area_breakdown.csv", "data/dot_units.md", "data/error_vs_k.csv", "plots/accuracy_vs_energy.png",
                  "plots/accuracy_vs_energy.svg", "plots/area_breakdown.png", "plots/layer_sqnr.png",
                  "plots/underflow.png", "plots/residual_gain.png", "plots/error_vs_k.png", "plots/op_kinds.png",
                  "data/training_unit.json", "plots/training_unit.png"):
            self.assertTrue(os.path.isfile(os.path.join(self.out, f)), f)
        with open(os.path.join(self.out, "data", "units.csv"), newline="") as f:
            units = list(csv.DictReader(f))
        self.assertEqual(sorted({u["format"] for u in units}), ["bf16", "hif4", "nvfp4"])
        # Equal peak throughput: same MACs per cycle for every unit.
        self.assertEqual(len({u["peak_macs_per_cycle"] for u in units}), 1)
        # Timing basis per unit (perf::timing_calibration): the plain HiF4/NVFP4/BF16 units are
        # RTL-calibrated; the 2:4 rows (unfused residual, no RTL) are not. The report shows it.
        for u in units:
            self.assertEqual(u["timing"], "rtl-calibrated" if u["correction"] == "none" else "model", u)
        with open(os.path.join(self.out, "report.md")) as f:
            report = f.read()
        self.assertIn("| timing |", report)
        self.assertIn("| rtl-calibrated |", report)
        self.assertIn("| model |", report)
        # Accuracy per layer: one row per layer of the trace (stories260K: all 5), one column per
        # format and correction, each cell the layer's SQNR of data/accuracy_layers.csv.
        with open(os.path.join(self.out, "data", "accuracy_layers.csv"), newline="") as f:
            layers = list(csv.DictReader(f))
        self.assertIn("## Accuracy per layer", report)
        table = report.split("## Accuracy per layer", 1)[1].split("\n## ", 1)[0]
        head = [c.strip() for c in table.strip().splitlines()[0].strip("|").split("|")]
        self.assertEqual(head, ["layer", "hif4", "hif4 +resq-2:4", "nvfp4", "nvfp4 +resq-2:4", "bf16", "bf16 +resq-2:4"])
        cells = {}
        for line in table.strip().splitlines()[2:]:
            if line.startswith("|"):
                row = [c.strip() for c in line.strip("|").split("|")]
                cells.update({(row[0], col): v for col, v in zip(head[1:], row[1:])})
        self.assertEqual(sorted({l for l, _ in cells}, key=int), [str(i) for i in range(5)])
        for r in layers:
            col = r["format"] + ("" if r["correction"] == "none" else " +" + r["correction"])
            self.assertEqual(cells[(r["layer"], col)], f"{float(r['sqnr_db']):.2f}", r)
        with open(os.path.join(self.out, "manifest.json")) as f:
            self.assertEqual(json.load(f)["command"], "compare")
        # The training section, produced by compare itself (--train-steps): both runs, 12 steps, in
        # the loss-gap table and the plot.
        for r in ("fp32", "bf16"):
            with open(os.path.join(self.out, "data", "training", r, "loss.csv"), newline="") as f:
                self.assertEqual([x["step"] for x in csv.DictReader(f)], [str(i) for i in range(1, 13)], r)
        self.assertIn("| bf16 | 12 |", report)
        self.assertTrue(os.path.isfile(os.path.join(self.out, "plots", "training_loss.png")))
        self.check_sky130_columns(units, report)

    def check_sky130_columns(self, units, report):
        """The unit table's sky130 columns: the PE dot unit's RTL instance (STAGES = pipeline_depth - 1
        of the configs: 3 for HiF4/NVFP4, 4 for BF16), its area and fmax from the committed synthesis
        table (configs/cost/sky130/units.csv, read here), 'not synthesised' without a row, and the
        calibrated sky130 pJ per dot operation of units.csv."""
        with open(os.path.join(ROOT, "configs", "cost", "sky130", "units.csv"), newline="") as f:
            synth = {(r["module"], r["parameters"]): r for r in csv.DictReader(f)}
        table = report.split("## Timing, area and energy per unit", 1)[1].split("\n## ", 1)[0]
        lines = [l for l in table.strip().splitlines() if l.startswith("|")]
        head = [c.strip() for c in lines[0].strip("|").split("|")]
        self.assertEqual(head[-5:], ["sky130 dot unit", "sky130 dot µm²", "sky130 fmax tt (MHz)", "sky130 fmax ss (MHz)",
                                     "sky130 pJ/op"])
        md = [[c.strip() for c in l.strip("|").split("|")] for l in lines[2:]]
        self.assertEqual(len(md), len(units))
        want = {"hif4": ("hif4_dot64", "STAGES=3"), "nvfp4": ("nvfp4_dot64", "STAGES=3"),
                "bf16": ("bf16_dot64", "W=64;STICKY=1;STAGES=4")}
        for u, row in zip(units, md):
            module, params = want[u["format"]]
            self.assertEqual(row[head.index("sky130 dot unit")], f"{module} {params}", row)
            self.assertEqual(u["sky130_dot"], f"{module} {params}")
            s = synth.get((module, params))
            if s:
                self.assertEqual(row[head.index("sky130 dot µm²")], f"{float(s['area_um2']):,.0f}", row)
                self.assertEqual(row[head.index("sky130 fmax tt (MHz)")], f"{float(s['fmax_mhz']):.0f}", row)
                self.assertEqual(row[head.index("sky130 fmax ss (MHz)")], f"{float(s['fmax_ss_mhz']):.0f}", row)
            else:
                self.assertEqual(row[-4:-1], ["not synthesised"] * 3, row)
            self.assertGreater(float(u["sky130_dot_pj"]), 0)
            self.assertEqual(row[-1], f"{float(u['sky130_dot_pj']):.2f}", row)
        self.assertIn(("hif4_dot64", "STAGES=3"), synth)  # the test covers a synthesised row

    def test_html_in_headless_chromium(self):
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        self.assertIsNotNone(chromium, "chromium is installed by scripts/setup.sh")
        page = "file://" + os.path.join(self.out, "report.html")
        base = [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                "--user-data-dir=" + os.path.join(self.tmp, "chrome-profile")]
        r = subprocess.run(base + ["--enable-logging=stderr", "--v=0", "--virtual-time-budget=5000", "--dump-dom", page],
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
        n_plots = len([f for f in os.listdir(os.path.join(self.out, "plots")) if f.endswith(".png")])
        self.assertIn(f'data-plots-loaded="{n_plots}/{n_plots}"', r.stdout)
        self.assertIn('alt="training_unit"', r.stdout)  # the training-unit plot, decoded with the others
        console = [l for l in r.stderr.splitlines() if ":CONSOLE" in l]
        self.assertEqual(console, [], "the page must log nothing to the console")
        os.makedirs(ARTIFACTS, exist_ok=True)
        shot = os.path.join(ARTIFACTS, "report.png")
        r = subprocess.run(base + ["--window-size=1280,2400", "--screenshot=" + shot, page],
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
        self.assertGreater(os.path.getsize(shot), 50000, "the screenshot shows the rendered plots")
        print(f"screenshot: {shot}")


if __name__ == "__main__":
    prog = unittest.main(exit=False, verbosity=2)
    r = prog.result
    bad = len(r.failures) + len(r.errors)
    print(f"{r.testsRun - bad - len(r.skipped)} passed, {bad} failed")
    sys.exit(1 if bad or r.testsRun == 0 else 0)
