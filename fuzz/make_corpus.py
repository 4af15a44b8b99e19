#!/usr/bin/env python3
"""Writes the committed seed corpora of the fuzz harnesses (fuzz/corpus/<harness>/).

Seeds are small valid inputs of every kind each reader accepts, so libFuzzer starts from the
accepted grammar and mutates towards its edges:
  npy          float32 / uint8 / uint16, format versions 1.0 / 2.0 / 3.0, scalar, empty, 3-D
  safetensors  one tensor; two tensors with __metadata__ and a BF16 neighbour; an empty header
  unit_config  every committed unit config (configs/units/)
  sweep        a gemm workload with grid + zip + set; a trace workload with accuracy ops
  trace        every committed shape-only trace and the captured stories260k manifest
  packed       `hifsim quantize --codes` of a 3 x 40 array in every tensor format (needs --hifsim)

Also writes fuzz/corpus/<harness>.dict, a libFuzzer dictionary of the tokens each grammar uses
(every mapping key of the YAML seeds; the header words of the binary formats), so mutations
produce known keys instead of waiting to guess them byte by byte.

Rewrites fuzz/corpus/ only: inputs of past findings live in fuzz/regressions/<harness>/.

Usage: python3 fuzz/make_corpus.py --hifsim build/bin/hifsim
Standard library only (the .npy and .safetensors bytes are written by hand here).
"""
import argparse
import glob
import re
import json
import os
import shutil
import struct
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "fuzz", "corpus")


def npy(descr, shape, payload, major=1):
    dims = "".join(f"{d}, " for d in shape) if len(shape) != 1 else f"{shape[0]},"
    d = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (descr, dims.rstrip(", ") if len(shape) > 1 else dims)
    pre = 10 if major == 1 else 12
    while (pre + len(d) + 1) % 64:
        d += " "
    d += "\n"
    head = b"\x93NUMPY" + bytes([major, 0]) + (struct.pack("<H", len(d)) if major == 1 else struct.pack("<I", len(d)))
    return head + d.encode() + payload


def safetensors(header, data):
    h = json.dumps(header).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    return struct.pack("<Q", len(h)) + h + data


def write(harness, name, data):
    d = os.path.join(CORPUS, harness)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hifsim", required=True)
    args = ap.parse_args()
    shutil.rmtree(CORPUS, ignore_errors=True)

    f4 = struct.pack("<6f", 1.5, -2.0, 0.0, 3e38, 1e-45, -0.0)
    write("npy", "f4_2x3_v1.npy", npy("<f4", (2, 3), f4))
    write("npy", "f4_2x3_v2.npy", npy("<f4", (2, 3), f4, 2))
    write("npy", "u1_4_v3.npy", npy("|u1", (4,), bytes([0, 1, 127, 255]), 3))
    write("npy", "u2_2x2.npy", npy("<u2", (2, 2), struct.pack("<4H", 0, 0x7FC0, 0xFFFF, 0x3F80)))
    write("npy", "f4_scalar.npy", npy("<f4", (), struct.pack("<f", 7.0)))
    write("npy", "f4_empty.npy", npy("<f4", (0, 4), b""))
    write("npy", "u1_2x1x3.npy", npy("|u1", (2, 1, 3), bytes(range(6))))

    write("safetensors", "one.safetensors",
          safetensors({"a": {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 16]}}, struct.pack("<4f", 1, 2, 3, 4)))
    write("safetensors", "two_meta.safetensors",
          safetensors({"__metadata__": {"format": "pt"}, "b": {"dtype": "BF16", "shape": [2], "data_offsets": [0, 4]},
                       "a": {"dtype": "F32", "shape": [3], "data_offsets": [4, 16]}}, b"\x80\x3f\x00\x40" + struct.pack("<3f", 1, 2, 3)))
    write("safetensors", "empty.safetensors", safetensors({}, b""))

    for p in sorted(glob.glob(os.path.join(ROOT, "configs", "units", "*.yaml"))):
        write("unit_config", os.path.basename(p), open(p, "rb").read())

    write("sweep", "gemm.yaml",
          "schema: hifsim-sweep/1\nname: s\nbase: base.yaml\nworkload: {gemm: [64, 128, 256]}\n"
          "set: {array.drain_width: 0}\ngrid:\n  array.rows: [8, 16]\n  array.cols: [8, 16, 32]\n"
          "zip:\n  - {pe.format: [hif4, nvfp4], pe.accumulator: [fp32, kulisch]}\n")
    write("sweep", "trace.yaml",
          "schema: hifsim-sweep/1\nname: t\nbase: base.yaml\nworkload: {trace: t}\n"
          "accuracy: {trace: t, ops: [q_proj, down_proj]}\ngrid: {memory.bytes_per_cycle: [64, 128]}\n")

    for p in sorted(glob.glob(os.path.join(ROOT, "traces", "shapes", "*", "trace.yaml"))):
        write("trace", os.path.basename(os.path.dirname(p)) + ".yaml", open(p, "rb").read())
    # A small captured manifest (the 24 KB stories260k one would make every execution slow):
    # capture block, tensor refs of both kinds, c_ref, an attention op with batch.
    write("trace", "captured.yaml",
          "schema: hifsim-trace/1\nkind: captured\ndescription: seed\n"
          "model: {name: m, source: s, revision: " + "a" * 64 + ", architecture: llama}\n"
          "capture: {script: s, token_source: text, text: t, tokens: 4, token_ids: [1, 2, 3, 4], seed: 0, layers: [0, 1]}\n"
          "checks: {x: 1}\nprovenance: {y: 2}\n"
          "ops:\n- {name: layer0.q_proj, layer: 0, op: q_proj, M: 4, N: 8, K: 16, batch: 1, repeat: 2,\n"
          "   a: {file: t/a.npy, dtype: float32, sha256: " + "b" * 64 + "}, b: {file: t/b.safetensors, dtype: float32, key: w},\n"
          "   c_ref: {file: t/c.npy, dtype: float32}, note: n}\n"
          "- name: layer1.attn_qk\n  layer: 1\n  op: attn_qk\n  M: 4\n  N: 4\n  K: 8\n  batch: 2\n"
          "  a: {file: q.npy, dtype: float32}\n  b: {file: k.npy, dtype: float32}\n")
    # Schema 2: a training step with kinds, roles, a transposed operand and the target ids.
    write("trace", "captured-v2.yaml",
          "schema: hifsim-trace/2\nkind: captured\n"
          "model: {name: m, source: s, revision: " + "a" * 64 + ", architecture: llama}\n"
          "capture: {script: s, token_source: model-sample, tokens: 4, token_ids: [1, 2, 3, 4], seed: 0, layers: [0],\n"
          "          step: training, target_ids: [2, 3, 4, 5]}\n"
          "ops:\n- {name: w, layer: 0, op: up_proj, kind: wgrad, M: 8, N: 16, K: 4, batch: 1,\n"
          "   a: {file: dy.npy, dtype: float32, role: dy, transposed: true}, b: {file: x.npy, dtype: float32, role: x,\n"
          "   transposed: true}, c_ref: {file: dw.npy, dtype: float32, role: dw}}\n"
          "- {name: dk, layer: 0, op: attn_dk, kind: attn_bwd, M: 4, N: 8, K: 4, batch: 2,\n"
          "   a: {file: ds.npy, dtype: float32, role: ds, transposed: true}, b: {file: q.npy, dtype: float32, role: q}}\n")

    with tempfile.TemporaryDirectory() as tmp:
        x = os.path.join(tmp, "x.npy")
        vals = [((i * 37) % 23 - 11) * 0.37 for i in range(120)]
        with open(x, "wb") as f:
            f.write(npy("<f4", (3, 40), struct.pack("<120f", *vals)))
        for fmt in ["hif8", "hif4", "mxfp4", "mxfp8-e4m3", "mxfp8-e5m2", "nvfp4", "fp8-e4m3", "fp8-e5m2", "bf16"]:
            c = os.path.join(tmp, fmt + ".bin")
            subprocess.run([args.hifsim, "quantize", "--format", fmt, "--in", x, "--out", os.path.join(tmp, "y.npy"),
                            "--codes", c], check=True)
            write("packed", fmt + ".bin", open(c, "rb").read())
    words = {
        "npy": ["'descr'", "'fortran_order'", "'shape'", "True", "False", "'<f4'", "'|u1'", "'<u2'", "\\x93NUMPY", "(", ",)"],
        "safetensors": ['"dtype"', '"shape"', '"data_offsets"', '"__metadata__"', '"F32"', '"BF16"', '"F4"', '"U8"',
                        "18446744073709551615", "4294967296"],
        "packed": ["HIFSIMQ1", "format=", "rows=", "cols=", "padded_cols=", "block=", "record_bytes=", "tensor_scale=",
                   "hif4", "nvfp4", "mxfp4", "bf16", "0x1p+0"],
    }
    for h in ("unit_config", "sweep", "trace"):
        keys = set()
        for p in glob.glob(os.path.join(CORPUS, h, "*")):
            keys |= set(re.findall(r"([A-Za-z_][A-Za-z0-9_.]*):", open(p, encoding="utf-8", errors="replace").read()))
        words[h] = sorted(keys) + ["&a", "*a", "? ", "!!str", "9999999999999999999", "-1", "0x10", "1e9", "{", "[", "- "]
    for h, ws in words.items():
        with open(os.path.join(CORPUS, h + ".dict"), "w") as f:
            f.write("".join('"' + w.replace('"', '\\"') + '"\n' for w in ws))  # \xNN escapes pass through
    for h in sorted(d for d in os.listdir(CORPUS) if os.path.isdir(os.path.join(CORPUS, d))):
        print(f"fuzz/corpus/{h}: {len(os.listdir(os.path.join(CORPUS, h)))} seeds, {len(words[h])} dictionary tokens")


if __name__ == "__main__":
    main()
