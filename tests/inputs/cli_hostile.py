#!/usr/bin/env python3
"""Hostile inputs through every command (label `inputs`, docs/testing.md "Inputs and fuzzing").

Each case must end within a deadline with exit status 2 and exactly one line on stderr that names
the offending file (or option) and the reason. Before the hardening (issue 18) these cases hung on
a FIFO, read /dev/zero until memory ran out, ended in "internal error: stoll", or exited 0 with a
wrong or empty result: run this script with --hifsim pointing at an older binary to see it fail.

Usage: cli_hostile.py --hifsim build/bin/hifsim
"""
import argparse
import json
import os
import resource
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
UNIT = os.path.join(ROOT, "configs", "units", "hif4-32x32.yaml")
DEADLINE = 30  # seconds; every case takes well under one
# Address-space limit of every child: an old binary that reads /dev/zero or lists 2^31 jobs fails
# its case at 4 GiB instead of exhausting a shared machine.
MEMORY_LIMIT = 4 << 30


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def npy(shape, values):
    d = "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }" % (", ".join(map(str, shape)) + ("," if len(shape) == 1 else ""))
    while (10 + len(d) + 1) % 64:
        d += " "
    d += "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(d)) + d.encode() + struct.pack(f"<{len(values)}f", *values)


def safetensors_raw(header_text, data):
    h = header_text.encode()
    return struct.pack("<Q", len(h)) + h + data


def captured_trace(d, a_file="a.npy", a_note=""):
    """A one-op captured trace (A 2x64, B 3x64) in folder d; A is `a_file`."""
    os.makedirs(d, exist_ok=True)
    if not os.path.exists(os.path.join(d, "a.npy")):
        with open(os.path.join(d, "a.npy"), "wb") as f:
            f.write(npy((2, 64), [0.25 * ((i % 7) - 3) for i in range(128)]))
        with open(os.path.join(d, "b.npy"), "wb") as f:
            f.write(npy((3, 64), [0.5 * ((i % 5) - 2) for i in range(192)]))
    with open(os.path.join(d, "trace.yaml"), "w") as f:
        f.write("schema: hifsim-trace/1\nkind: captured\n"
                "model: {name: m, source: s, revision: " + "a" * 64 + ", architecture: llama}\n"
                "capture: {script: s, token_source: model-sample, tokens: 2, token_ids: [1, 2], seed: 0, layers: [0]}\n"
                "ops:\n- {name: q, layer: 0, op: q_proj, M: 2, N: 3, K: 64, batch: 1, "
                "a: {file: " + a_file + ", dtype: float32" + a_note + "}, b: {file: b.npy, dtype: float32}}\n")
    return d


class Runner:
    def __init__(self, hifsim, tmp):
        self.hifsim, self.tmp, self.failures, self.count = hifsim, tmp, [], 0

    def expect_error(self, name, args, must_contain, absent=(), max_chars=None):
        self.count += 1
        try:
            p = subprocess.run([self.hifsim] + args, cwd=self.tmp, capture_output=True, text=True, timeout=DEADLINE,
                               preexec_fn=limit_memory)
        except subprocess.TimeoutExpired:
            self.failures.append(f"{name}: still running after {DEADLINE} s (blocked or reading forever)")
            return
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        problems = []
        if p.returncode != 2:
            problems.append(f"exit status {p.returncode}, expected 2")
        if len(lines) != 1:
            problems.append(f"{len(lines)} stderr lines, expected 1")
        text = "\n".join(lines)
        problems += [f"message lacks '{m}'" for m in must_contain if m not in text]
        if any(ord(ch) < 0x20 or ord(ch) == 0x7f for ch in text):
            problems.append("control characters in the message (a terminal escape or a line break)")
        if max_chars is not None and len(text) > max_chars:
            problems.append(f"message of {len(text)} characters, expected at most {max_chars}")
        problems += [f"{a} exists after the error" for a in absent if os.path.exists(os.path.join(self.tmp, a))]
        if problems:
            self.failures.append(f"{name}: {'; '.join(problems)}\n    stderr: {text[:400]}")
        else:
            print(f"ok   {name}: {text}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hifsim", required=True)
    args = ap.parse_args()
    hifsim = os.path.abspath(args.hifsim)
    tmp = tempfile.mkdtemp(prefix="hifsim-hostile-")
    try:
        r = Runner(hifsim, tmp)
        os.mkfifo(os.path.join(tmp, "fifo.npy"))
        os.mkdir(os.path.join(tmp, "folder.npy"))
        with open(os.path.join(tmp, "b.npy"), "wb") as f:
            f.write(npy((4, 64), [1.0] * 256))

        # Non-regular input files: rejected with the reason before any read.
        r.expect_error("quantize /dev/zero", ["quantize", "--format", "hif8", "--in", "/dev/zero", "--out", "o.npy"],
                       ["/dev/zero", "character device"], ["o.npy"])
        r.expect_error("quantize FIFO", ["quantize", "--format", "hif8", "--in", "fifo.npy", "--out", "o.npy"],
                       ["fifo.npy", "FIFO"], ["o.npy"])
        r.expect_error("quantize folder", ["quantize", "--format", "hif8", "--in", "folder.npy", "--out", "o.npy"],
                       ["folder.npy", "directory"], ["o.npy"])
        r.expect_error("decode /dev/zero", ["decode", "--format", "hif8", "--in", "/dev/zero", "--out", "o.npy"],
                       ["/dev/zero", "character device"], ["o.npy"])
        r.expect_error("gemm FIFO operand", ["gemm", "--format", "hif8", "--a", "fifo.npy", "--b", "b.npy", "--out", "c.npy"],
                       ["fifo.npy", "FIFO"], ["c.npy"])
        r.expect_error("run config /dev/zero", ["run", "--config", "/dev/zero", "--gemm", "8,8,8", "--out", "run1"],
                       ["/dev/zero", "character device"])
        os.mkfifo(os.path.join(tmp, "unit.yaml"))
        r.expect_error("run config FIFO", ["run", "--config", "unit.yaml", "--gemm", "8,8,8", "--out", "run2"], ["unit.yaml", "FIFO"])
        os.mkdir(os.path.join(tmp, "fifotrace"))
        os.mkfifo(os.path.join(tmp, "fifotrace", "trace.yaml"))
        r.expect_error("run trace manifest FIFO", ["run", "--config", UNIT, "--trace", "fifotrace", "--out", "run3"],
                       ["fifotrace/trace.yaml", "FIFO"])

        # A trace tensor that is a symlink out of the trace folder (the old check was lexical).
        outside = os.path.join(tmp, "outside")
        os.mkdir(outside)
        with open(os.path.join(outside, "secret.npy"), "wb") as f:
            f.write(npy((2, 64), [3.0] * 128))
        t1 = captured_trace(os.path.join(tmp, "t_link"), "link.npy")
        os.symlink(os.path.join(outside, "secret.npy"), os.path.join(t1, "link.npy"))
        r.expect_error("trace tensor symlink escape", ["trace", "--trace", t1, "--out", "acc1", "--formats", "hif8", "--quiet"],
                       ["t_link/trace.yaml", "link.npy", "outside the folder"])
        t2 = captured_trace(os.path.join(tmp, "t_fifo"), "fifo.npy")
        os.mkfifo(os.path.join(t2, "fifo.npy"))
        r.expect_error("trace tensor FIFO", ["trace", "--trace", t2, "--out", "acc2", "--formats", "hif8", "--quiet"],
                       ["t_fifo/trace.yaml", "fifo.npy", "FIFO"])

        # A safetensors tensor whose offsets wrap near 2^64: read from the header before (exit 0).
        t3 = captured_trace(os.path.join(tmp, "t_wrap"), "a.safetensors", ", key: a")
        # A 600-byte header (space padding is the format's) and begin = 2^64 - 8 - 600: the old bound
        # `8 + n + end > size` wrapped to 512 and passed, and the tensor was read from offset
        # 8 + n + begin = 0 (mod 2^64), i.e. from the header itself.
        begin = 2**64 - 8 - 600
        hdr = '{"a": {"dtype": "F32", "shape": [2, 64], "data_offsets": [%d, %d]}}' % (begin, begin + 512)
        with open(os.path.join(t3, "a.safetensors"), "wb") as f:
            f.write(safetensors_raw(hdr.ljust(600), b"\0" * 512))
        r.expect_error("safetensors offsets near 2^64", ["trace", "--trace", t3, "--out", "acc3", "--formats", "hif8", "--quiet"],
                       ["t_wrap/trace.yaml", "a.safetensors", "data_offsets"])
        # ... and whose header is YAML, not JSON (yaml-cpp accepted it).
        with open(os.path.join(t3, "a.safetensors"), "wb") as f:
            f.write(safetensors_raw("{a: {dtype: F32, shape: [2, 64], data_offsets: [0, 512]}}", b"\0" * 512))
        r.expect_error("safetensors header not JSON", ["trace", "--trace", t3, "--out", "acc4", "--formats", "hif8", "--quiet"],
                       ["a.safetensors", "not valid JSON"])

        # Integers beyond 64 bits in a manifest: "internal error: stoll" before.
        t4 = captured_trace(os.path.join(tmp, "t_big"))
        y = open(os.path.join(t4, "trace.yaml")).read().replace("K: 64", "K: 9999999999999999999")
        open(os.path.join(t4, "trace.yaml"), "w").write(y)
        r.expect_error("manifest 19-digit integer", ["trace", "--trace", t4, "--out", "acc5", "--formats", "hif8", "--quiet"],
                       ["t_big/trace.yaml", "ops[0] (q).K", "out of range"])
        # A key given twice in a manifest: yaml-cpp kept the first silently.
        y = open(os.path.join(t4, "trace.yaml")).read().replace("K: 9999999999999999999", "K: 64, N: 3")
        open(os.path.join(t4, "trace.yaml"), "w").write(y)
        r.expect_error("manifest duplicate key", ["trace", "--trace", t4, "--out", "acc6", "--formats", "hif8", "--quiet"],
                       ["t_big/trace.yaml", "ops[0].N", "given twice"])

        # Sweeps: a grid of 2^64 points wrapped to 0 (exit 0, empty results.csv); a key given twice.
        sw = os.path.join(tmp, "sw")
        os.mkdir(sw)
        shutil.copy(UNIT, os.path.join(sw, "base.yaml"))
        head = "schema: hifsim-sweep/1\nname: s\nbase: base.yaml\nworkload: {gemm: [64, 64, 64]}\n"

        def sweep_case(name, file, body, out, must_contain):
            with open(os.path.join(sw, file), "w") as f:
                f.write(head + body)
            r.expect_error(name, ["sweep", "--sweep", "sw/" + file, "--out", out, "--no-plots", "--quiet"],
                           ["sw/" + file] + must_contain, [out + "/results.csv"])

        sweep_case("sweep grid of 2^64 points", "big.yaml", "grid:\n" + "".join(f"  f{i}: [0, 1]\n" for i in range(64)),
                   "sweep1", ["grid", "expands to more than"])
        sweep_case("sweep duplicate key", "dup.yaml", "grid:\n  array.rows: [4]\n  array.rows: [8, 16]\n",
                   "sweep2", ["grid.array.rows", "given twice"])
        # Found by fuzz_sweep: an empty zip group crashed the expansion (SIGSEGV); a value listed
        # twice made two points with one id (evaluated twice, two identical rows, exit 0).
        sweep_case("sweep empty zip group", "zip.yaml", "grid:\n  array.rows: [8, 16]\nzip:\n  - {}\n",
                   "sweep3", ["zip[0]", "an empty group"])
        sweep_case("sweep value listed twice", "twice.yaml", "grid:\n  array.rows: [8, 16, 8]\n",
                   "sweep4", ["grid.array.rows[2]", "the same value as entry [0]"])

        # Workloads too large to count or to hold: 2^93 MACs wrapped the timing core's counters; a
        # value run of a 2^31 x 2^20 x 16 GEMM (A alone 128 GiB) and a --simulate-all over 2^31 instances ended in
        # "internal error: std::bad_alloc" (after filling the machine's memory).
        r.expect_error("cost --gemm 2^93 MACs", ["cost", "--config", UNIT, "--gemm", "2147483648,2147483648,2147483648",
                                                 "--out", "cost1"], ["--gemm", "above the limit of 2^60"])
        r.expect_error("run values beyond memory", ["run", "--config", UNIT, "--gemm", "2147483648,1048576,16",
                                                    "--out", "run4", "--no-cost", "--engine", "analytic"],
                       ["gemm 2147483648,1048576,16", "needs", "this machine has", "timing-only"])
        t5 = os.path.join(tmp, "t_batch")
        os.mkdir(t5)
        with open(os.path.join(t5, "trace.yaml"), "w") as f:
            f.write("schema: hifsim-trace/1\nkind: shape-only\nmodel: {name: m, source: s, revision: r, architecture: llama}\n"
                    "shape: {phase: decode, sequences: 1, tokens: 1, context: 8, config: c}\n"
                    "ops:\n- {name: qk, layer: 0, op: attn_qk, M: 1, N: 8, K: 64, batch: 2147483647}\n")
        r.expect_error("run --simulate-all of 2^31 instances", ["run", "--config", UNIT, "--trace", t5, "--out", "run5",
                                                                 "--no-cost", "--simulate-all", "--engine", "analytic", "--quiet"],
                       ["t_batch/trace.yaml", "ops", "above the limit of 100000"])

        # The synthesis CSV of a cost-table folder (--tables) that is a FIFO: the old reader blocked.
        ct = os.path.join(tmp, "tables")
        shutil.copytree(os.path.join(ROOT, "configs", "cost"), ct)
        os.remove(os.path.join(ct, "synth.csv"))
        os.mkfifo(os.path.join(ct, "synth.csv"))
        r.expect_error("cost synthesis CSV FIFO", ["cost", "--compare-units", "--tables", ct, "--out", "cost2"],
                       ["tables/synth.csv", "FIFO"])

        # Error messages quote the input they refuse: a YAML key with a line break and an ESC
        # sequence split the message into a forged second line and reached the terminal raw; a 3 MiB
        # key was printed whole (found from fuzz_unit_config inputs). One printable line, bounded.
        with open(os.path.join(tmp, "ctrl.yaml"), "w") as f:
            f.write(open(UNIT).read() + '"x\\nhifsim run: wrote results \\e[2J": 1\n')
        r.expect_error("config key with a line break and ESC", ["run", "--config", "ctrl.yaml", "--gemm", "8,8,8", "--out", "run6"],
                       ["ctrl.yaml", "unknown field", "x\\x0ahifsim run", "\\x1b[2J"], ["run6"])
        with open(os.path.join(tmp, "long.yaml"), "w") as f:
            f.write(open(UNIT).read() + "? " + "k" * (3 << 20) + "\n: 1\n")
        r.expect_error("config key of 3 MiB", ["run", "--config", "long.yaml", "--gemm", "8,8,8", "--out", "run7"],
                       ["long.yaml", "unknown field", "bytes ...]"], ["run7"], max_chars=4096)

        # A seed written with a leading zero is decimal: strtoull's base 0 read "010" as octal 8.
        r.count += 1
        outs = {}
        with open(os.path.join(tmp, "x.npy"), "wb") as f:  # values between HiF8 codes: every seed rounds differently
            f.write(npy((4, 64), [0.1 + 0.0137 * i for i in range(256)]))
        for seed in ("010", "10", "8"):
            p = subprocess.run([hifsim, "quantize", "--format", "hif8", "--rounding", "stochastic", "--seed", seed, "--in",
                                "x.npy", "--out", f"seed{seed}.npy"], cwd=tmp, capture_output=True, text=True,
                               timeout=DEADLINE, preexec_fn=limit_memory)
            outs[seed] = open(os.path.join(tmp, f"seed{seed}.npy"), "rb").read() if p.returncode == 0 else p.stderr
        if outs["010"] == outs["10"] and outs["10"] != outs["8"]:
            print("ok   --seed 010 is decimal ten")
        else:
            r.failures.append("--seed 010: not the same stream as --seed 10" + (" (it is 8's)" if outs["010"] == outs["8"] else ""))

        # An input whose name is not UTF-8 (byte 0xFF, e.g. from a Latin-1 folder) is read, and the
        # manifest names it: it was quoted raw, so the JSON written with exit 0 was not UTF-8 and a
        # strict parser refused the whole file. The byte is now U+FFFD (RFC 8259 wants UTF-8).
        r.count += 1
        with open(os.path.join(os.fsencode(tmp), b"x\xff.npy"), "wb") as f:
            f.write(npy((4,), [1.0, 2.0, 3.0, 4.0]))
        p = subprocess.run([os.fsencode(hifsim), b"encode", b"--format", b"hif8", b"--in", b"x\xff.npy", b"--out", b"u8.npy"],
                           cwd=tmp, capture_output=True, timeout=DEADLINE, preexec_fn=limit_memory)
        try:
            with open(os.path.join(tmp, "u8.npy.manifest.json"), "rb") as f:
                m = json.loads(f.read().decode("utf-8"))  # strict: no surrogate escapes, no bytes
            problem = None if p.returncode == 0 and "x\ufffd.npy" in m["inputs_xxh3_64"] else f"manifest inputs {m['inputs_xxh3_64']}"
        except (OSError, ValueError, KeyError) as e:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
            problem = f"exit {p.returncode}, manifest not strict UTF-8 JSON: {e}"
        if problem:
            r.failures.append("input name not UTF-8: " + problem)
        else:
            print("ok   input name not UTF-8: the manifest is strict UTF-8 JSON naming x\ufffd.npy")

        print(f"{r.count - len(r.failures)} of {r.count} hostile inputs handled")
        for f in r.failures:
            print("FAIL " + f)
        return 1 if r.failures else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
