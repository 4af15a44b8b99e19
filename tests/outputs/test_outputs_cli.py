#!/usr/bin/env python3
"""Safe outputs through the CLI, for every command that writes files (docs/outputs.md):

  - an output that is not a regular file (a FIFO, a symbolic link) is refused and left as it was;
  - the temporary file is unique per run: a stale `<output>.tmp-hifsim` does not block a run;
  - options are validated before anything is written: a bad option leaves no folder, no file,
    and an earlier run's outputs untouched;
  - missing parent folders of an output are created;
  - a folder's manifest describes exactly its files (content hashes), also when two runs write
    the same folder at once.

Each of these failed on hifsim before the outputs hardening (b709605); see docs/outputs.md."""
import ctypes
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
HIFSIM = os.environ.get("HIFSIM_BIN") or os.path.join(ROOT, "build", "bin", "hifsim")
UNIT = os.path.join(ROOT, "configs", "units", "hif4-32x32.yaml")
UNIT2 = os.path.join(ROOT, "configs", "units", "nvfp4-32x32.yaml")
TRACE = os.path.join(ROOT, "traces", "stories260k")


def hifsim(*args):
    return subprocess.run([HIFSIM, *args], capture_output=True, text=True)


def xxh3_64(path):
    """The manifests' content hash (model/util/content_hash.hpp): XXH3-64 from the system's
    libxxhash (libxxhash0, installed with libxxhash-dev by scripts/setup.sh)."""
    lib = ctypes.CDLL("libxxhash.so.0")
    lib.XXH3_64bits.restype = ctypes.c_uint64
    lib.XXH3_64bits.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    with open(path, "rb") as f:
        data = f.read()
    return f"{lib.XXH3_64bits(data, len(data)):016x}"


def write_npy(path, rows, cols, scale=1.0):
    """A float32 .npy (C order) without NumPy: values i * scale / 64."""
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }" % (rows, cols)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    import struct
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%df" % (rows * cols), *[((i % 97) - 48) * scale / 64 for i in range(rows * cols)]))


def have_trace():
    return os.path.isdir(os.path.join(TRACE, "tensors"))


class Commands:
    """For every command: its arguments writing to `out` (a folder, or a file for single-file
    commands) and the output whose type the tests change."""

    def __init__(self, tmp):
        self.a = os.path.join(tmp, "a.npy")
        self.b = os.path.join(tmp, "b.npy")
        write_npy(self.a, 8, 64)
        write_npy(self.b, 4, 64, 0.5)
        self.sweep = os.path.join(tmp, "sweep.yaml")  # two points on a small GEMM
        with open(self.sweep, "w") as f:
            f.write(f"schema: hifsim-sweep/1\nname: outputs\nbase: {UNIT}\nworkload: {{gemm: [64, 64, 64]}}\n"
                    "grid:\n  array.rows: [4, 8]\n")
        self.codes = os.path.join(tmp, "codes.npy")
        r = hifsim("encode", "--format", "hif8", "--in", self.a, "--out", self.codes)
        assert r.returncode == 0, r.stderr

    def cases(self):
        """name -> (args for an output `out`, output file relative to out or None for out itself)"""
        c = {
            "run": (lambda o: ["run", "--config", UNIT, "--gemm", "64,64,256", "--out", o, "--quiet"], "result.json"),
            "cost": (lambda o: ["cost", "--config", UNIT, "--gemm", "64,64,256", "--out", o, "--quiet"], "cost.json"),
            "cost-compare": (lambda o: ["cost", "--compare-units", "--formats", "hif4", "--sample", "64", "--out", o],
                             "compare.json"),
            "gemm": (lambda o: ["gemm", "--format", "hif4", "--a", self.a, "--b", self.b, "--out", o, "--quiet"], None),
            "quantize": (lambda o: ["quantize", "--format", "mxfp4", "--in", self.a, "--out", o], None),
            "encode": (lambda o: ["encode", "--format", "hif8", "--in", self.a, "--out", o], None),
            "decode": (lambda o: ["decode", "--format", "hif8", "--in", self.codes, "--out", o], None),
            "sweep": (lambda o: ["sweep", "--sweep", self.sweep, "--out", o, "--quiet", "--no-plots"], "results.csv"),
            "vectors": (lambda o: ["vectors", "--unit", "hif4_dot64", "--count", "20", "--out", o], "expected.hex"),
        }
        if have_trace():
            c["trace"] = (lambda o: ["trace", "--trace", TRACE, "--formats", "hif4", "--ops", "q_proj", "--out", o,
                                     "--quiet"], "ops.csv")
            c["compare"] = (lambda o: ["compare", "--trace", TRACE, "--formats", "hif4", "--residual", "none",
                                       "--ppl-tokens", "0", "--no-plots", "--quiet", "--cost-sample", "64", "--train-steps", "0",
                                       "--threads", "2", "--out", o], "data/units.csv")
        return c


class InTempDir(unittest.TestCase):
    """Each test in a fresh folder, with the commands' small inputs in it."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="hifsim-outputs-")
        self.cmds = Commands(self.tmp)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)


class SafeOutputs(InTempDir):
    def target(self, name, out, rel):
        return os.path.join(out, rel) if rel else out

    def test_a_fifo_output_is_refused_and_kept(self):
        for name, (args, rel) in self.cmds.cases().items():
            with self.subTest(command=name):
                out = os.path.join(self.tmp, name + "-fifo" + ("" if rel else ".npy"))
                path = self.target(name, out, rel)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                os.mkfifo(path)
                r = hifsim(*args(out))
                self.assertNotEqual(r.returncode, 0, f"{name} wrote over a FIFO")
                self.assertTrue(stat.S_ISFIFO(os.lstat(path).st_mode), f"{name} replaced the FIFO")
                self.assertIn("FIFO", r.stderr)

    def test_a_symlink_output_is_refused_and_its_target_kept(self):
        victim = os.path.join(self.tmp, "victim.txt")
        for name, (args, rel) in self.cmds.cases().items():
            with self.subTest(command=name):
                with open(victim, "w") as f:
                    f.write("keep me\n")
                out = os.path.join(self.tmp, name + "-link" + ("" if rel else ".npy"))
                path = self.target(name, out, rel)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                os.symlink(victim, path)
                r = hifsim(*args(out))
                self.assertNotEqual(r.returncode, 0, f"{name} wrote through or over a symbolic link")
                self.assertTrue(os.path.islink(path), f"{name} replaced the link")
                with open(victim) as f:
                    self.assertEqual(f.read(), "keep me\n")

    def test_a_stale_fixed_temporary_name_does_not_block(self):
        # Before: every run used <output>.tmp-hifsim, so one left behind (here a folder, as a
        # crashed or concurrent run could leave) made every later run fail.
        for name, (args, rel) in self.cmds.cases().items():
            with self.subTest(command=name):
                out = os.path.join(self.tmp, name + "-tmp" + ("" if rel else ".npy"))
                path = self.target(name, out, rel)
                os.makedirs(path + ".tmp-hifsim")
                r = hifsim(*args(out))
                self.assertEqual(r.returncode, 0, f"{name}: {r.stderr}")
                self.assertTrue(os.path.isfile(path))
                left = [f for f in os.listdir(os.path.dirname(path)) if ".tmp-hifsim-" in f]
                self.assertEqual(left, [], f"{name} left temporary files")

    def test_missing_parent_folders_are_created(self):
        for name, (args, rel) in self.cmds.cases().items():
            with self.subTest(command=name):
                out = os.path.join(self.tmp, name + "-parents", "a", "b" + ("" if rel else ".npy"))
                r = hifsim(*args(out))
                self.assertEqual(r.returncode, 0, f"{name}: {r.stderr}")
                self.assertTrue(os.path.isfile(self.target(name, out, rel)))

    def test_a_parent_that_is_a_file_fails_before_any_work(self):
        blocker = os.path.join(self.tmp, "blocker")
        with open(blocker, "w") as f:
            f.write("x")
        for name, (args, rel) in self.cmds.cases().items():
            with self.subTest(command=name):
                r = hifsim(*args(os.path.join(blocker, "out" + ("" if rel else ".npy"))))
                self.assertNotEqual(r.returncode, 0)
                self.assertIn("not a folder", r.stderr)


class ValidateBeforeWriting(InTempDir):
    """Options checked late used to leave folders and files behind (or replace an earlier run's)."""

    def assert_fails_without_output(self, args, out):
        r = hifsim(*args)
        self.assertNotEqual(r.returncode, 0, "the bad option was accepted")
        self.assertFalse(os.path.exists(out), f"{out} was created: " + " ".join(args))

    def test_run(self):
        out = os.path.join(self.tmp, "run")
        self.assert_fails_without_output(["run", "--config", UNIT, "--gemm", "64,64,256", "--timing-only", "--c-out",
                                          os.path.join(self.tmp, "c.npy"), "--out", out], out)
        self.assert_fails_without_output(["run", "--config", UNIT, "--gemm", "64,64,256", "--cost-sample", "1",
                                          "--out", out], out)

    def test_cost(self):
        out = os.path.join(self.tmp, "cost")
        self.assert_fails_without_output(["cost", "--compare-units", "--formats", "hif4,nosuch", "--out", out], out)
        self.assert_fails_without_output(["cost", "--config", os.path.join(self.tmp, "none.yaml"), "--gemm", "8,8,64",
                                          "--out", out], out)

    @unittest.skipUnless(have_trace(), "stories260k tensors (scripts/capture/ensure_traces.sh --only stories260k)")
    def test_compare(self):
        out = os.path.join(self.tmp, "cmp")
        self.assert_fails_without_output(["compare", "--trace", TRACE, "--formats", "hif4", "--ppl-tokens", "-1",
                                          "--no-plots", "--quiet", "--out", out], out)
        self.assert_fails_without_output(["compare", "--trace", TRACE, "--formats", "hif4", "--ppl-gemm", "exact",
                                          "--no-plots", "--quiet", "--out", out], out)

    def test_gemm_stats_path(self):
        blocker = os.path.join(self.tmp, "blocker")
        open(blocker, "w").close()
        out = os.path.join(self.tmp, "c.npy")
        self.assert_fails_without_output(["gemm", "--format", "hif4", "--a", self.cmds.a, "--b", self.cmds.b, "--out", out,
                                          "--stats", os.path.join(blocker, "s.json"), "--quiet"], out)

    def test_quantize_keeps_an_earlier_output(self):
        out = os.path.join(self.tmp, "y.npy")
        self.assertEqual(hifsim("quantize", "--format", "mxfp4", "--in", self.cmds.a, "--out", out).returncode, 0)
        before = xxh3_64(out)
        blocker = os.path.join(self.tmp, "blocker")
        open(blocker, "w").close()
        r = hifsim("quantize", "--format", "nvfp4", "--in", self.cmds.a, "--out", out, "--codes",
                   os.path.join(blocker, "c.bin"))
        self.assertNotEqual(r.returncode, 0)
        self.assertTrue(os.path.isfile(out), "the earlier output was deleted")
        self.assertEqual(xxh3_64(out), before, "the earlier output was replaced by a failed run")


class ManifestDescribesTheFolder(InTempDir):
    def check_consistent(self, out):
        with open(os.path.join(out, "manifest.json")) as f:
            m = json.load(f)
        hashes = m.get("outputs_xxh3_64", {})
        self.assertEqual(set(hashes), set(m["outputs"]), "every output has its hash")
        for path, h in hashes.items():
            self.assertEqual(xxh3_64(path), h, f"{path} is not the file the manifest describes")
        with open(os.path.join(out, "result.json")) as f:
            self.assertEqual(json.load(f)["unit"], m["facts"]["unit"])

    def test_a_failed_run_leaves_the_earlier_run_intact(self):
        out = os.path.join(self.tmp, "run")
        r = hifsim("run", "--config", UNIT, "--gemm", "64,64,256", "--out", out, "--quiet")
        self.assertEqual(r.returncode, 0, r.stderr)
        # Before: this run wrote its (timing-only) result.json, then failed on --c-out, leaving
        # its data under the first run's manifest.
        r = hifsim("run", "--config", UNIT2, "--gemm", "64,64,256", "--timing-only", "--c-out",
                   os.path.join(self.tmp, "c.npy"), "--out", out, "--quiet")
        self.assertNotEqual(r.returncode, 0)
        self.check_consistent(out)

    def test_concurrent_runs_leave_one_consistent_folder(self):
        out = os.path.join(self.tmp, "race")
        for trial in range(4):
            results = []

            def go(cfg):
                results.append(hifsim("run", "--config", cfg, "--gemm", "64,64,512", "--out", out, "--quiet",
                                      "--no-cost", "--threads", "1"))

            ts = [threading.Thread(target=go, args=(c,)) for c in (UNIT, UNIT2)]
            for t in ts:
                t.start()
            for t in ts:
                t.join()
            for r in results:
                self.assertEqual(r.returncode, 0, r.stderr)
            self.check_consistent(out)
            self.assertEqual([f for f in os.listdir(out) if ".tmp-hifsim" in f], [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
