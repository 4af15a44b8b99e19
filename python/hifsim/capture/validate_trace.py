#!/usr/bin/env python3
"""Validate hifsim trace directories (schemas hifsim-trace/1 and /2, see docs/traces.md).

    validate_trace.py TRACE_DIR [TRACE_DIR ...] [--no-tensors] [--no-hash] [--check-products]

A TRACE_DIR is a directory holding trace.yaml; a directory without one is searched
recursively for trace directories. Each valid trace prints one "OK ..." line. The first
problem prints ONE line "<manifest>: <field>: <reason>" on stderr and the exit code is 1
(2 for bad command-line use).

The manifest is read by hifsim's own C++ reader (model/io/trace.cpp through hifsim._ext: the
schema has one reader): every field (presence, type, allowed values, unknown keys, op kinds and
operand roles). Checked here on top: M/N/K/batch against the tensor shapes, tensor files exist
inside the trace directory, are little-endian
float32 in C order (.npy) or F32 (.safetensors), contain no NaN/Inf, match their sha256
when one is given, and (with --check-products) c_ref agrees with A.B^T within the FP32
accumulation error bound.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import struct
import sys
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

SCHEMA = "hifsim-trace/2"      # training-step and training-shape traces (op kinds, operand roles)
SCHEMA_V1 = "hifsim-trace/1"   # forward traces, as committed; still read (docs/traces.md section 2)
MANIFEST = "trace.yaml"


class TraceError(Exception):
    """One validation failure: manifest path, field path, reason."""

    def __init__(self, manifest: str, field: str, reason: str):
        self.manifest, self.field, self.reason = manifest, field, reason
        super().__init__(f"{manifest}: {field}: {reason}")


def read_manifest(trace_dir: str) -> Dict[str, Any]:
    """The manifest as hifsim's C++ reader (model/io/trace.cpp, the schema's one reader) parsed
    and validated it: every field, op kinds, operand roles and each tensor's expected file shape.
    Its first problem becomes a TraceError with the same manifest, field and reason."""
    from .. import _ext
    manifest = os.path.join(trace_dir, MANIFEST)
    try:
        return json.loads(_ext.read_trace_json(manifest))
    except _ext.Error as e:
        msg = str(e)
        rest = msg[len(manifest) + 2:] if msg.startswith(manifest + ": ") else msg
        field, sep, reason = rest.partition(": ")
        if not sep:
            field, reason = "(file)", rest
        raise TraceError(manifest, field, reason) from None


class _Ctx:
    def __init__(self, manifest: str):
        self.manifest = manifest

    def fail(self, field: str, reason: str):
        raise TraceError(self.manifest, field, reason)


# ---------------------------------------------------------------------------------------
# tensor file readers (header first, data only when needed)

class TensorFileError(Exception):
    pass


def read_npy_header(path: str) -> Tuple[Tuple[int, ...], str, bool, int]:
    """(shape, descr, fortran_order, data_offset) of a .npy file."""
    with open(path, "rb") as f:
        try:
            version = np.lib.format.read_magic(f)
            if version == (1, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_1_0(f)
            elif version in ((2, 0), (3, 0)):
                shape, fortran, dtype = np.lib.format.read_array_header_2_0(f)
            else:
                raise TensorFileError(f"unsupported .npy version {version}")
        except ValueError as e:
            raise TensorFileError(f"not a valid .npy file ({e})") from None
        return tuple(int(s) for s in shape), dtype.str, bool(fortran), f.tell()


def load_npy(path: str) -> np.ndarray:
    shape, descr, fortran, offset = read_npy_header(path)
    if descr != "<f4":
        raise TensorFileError(f"dtype {descr}, expected little-endian float32 '<f4'")
    if fortran:
        raise TensorFileError("fortran_order is True, expected C order")
    count = int(np.prod(shape)) if shape else 1
    size = os.path.getsize(path)
    if size != offset + 4 * count:
        raise TensorFileError(f"file has {size - offset} data bytes, shape {shape} needs "
                              f"{4 * count}")
    return np.fromfile(path, dtype="<f4", count=count, offset=offset).reshape(shape)


def read_safetensors_header(path: str) -> Tuple[dict, int]:
    with open(path, "rb") as f:
        head = f.read(8)
        if len(head) != 8:
            raise TensorFileError("too short for a safetensors header")
        (n,) = struct.unpack("<Q", head)
        if n > 100_000_000:
            raise TensorFileError(f"header length {n} is not plausible")
        raw = f.read(n)
    try:
        hdr = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise TensorFileError(f"header is not valid JSON ({e})") from None
    if not isinstance(hdr, dict):
        raise TensorFileError("header is not a JSON object")
    return hdr, 8 + n


def load_safetensors(path: str, key: Optional[str]) -> np.ndarray:
    hdr, base = read_safetensors_header(path)
    names = [k for k in hdr if k != "__metadata__"]
    if key is None:
        if len(names) != 1:
            raise TensorFileError(f"holds {len(names)} tensors; name one with 'key'")
        key = names[0]
    if key not in hdr:
        raise TensorFileError(f"has no tensor named {key!r}")
    info = hdr[key]
    if info.get("dtype") != "F32":
        raise TensorFileError(f"tensor {key!r} dtype {info.get('dtype')}, expected F32")
    shape = tuple(int(s) for s in info.get("shape", []))
    begin, end = (int(v) for v in info.get("data_offsets", (0, -1)))
    count = int(np.prod(shape)) if shape else 1
    if end - begin != 4 * count:
        raise TensorFileError(f"tensor {key!r} spans {end - begin} bytes, shape {shape} "
                              f"needs {4 * count}")
    if base + end > os.path.getsize(path):
        raise TensorFileError(f"tensor {key!r} runs past the end of the file")
    return np.fromfile(path, dtype="<f4", count=count, offset=base + begin).reshape(shape)


def sha256_file(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


# ---------------------------------------------------------------------------------------

def _find_text(trace_dir: str, rel: str) -> Optional[str]:
    d = os.path.abspath(trace_dir)
    while True:
        cand = os.path.join(d, rel)
        if os.path.isfile(cand):
            return cand
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


def _not_regular(path: str) -> str:
    """'' for a regular file (symlinks followed), else why not: a FIFO would block the read."""
    import stat
    try:
        m = os.stat(path).st_mode
    except FileNotFoundError:
        return "missing"
    if stat.S_ISREG(m):
        return ""
    kind = "a directory" if stat.S_ISDIR(m) else "a FIFO (named pipe)" if stat.S_ISFIFO(m) else \
        "a device" if stat.S_ISCHR(m) or stat.S_ISBLK(m) else "not a regular file"
    return f"is {kind}, not a regular file"


def validate_trace(trace_dir: str, check_tensors: bool = True, check_hash: bool = True,
                   check_products: bool = False) -> Dict[str, Any]:
    """Validate one trace directory; raise TraceError on the first problem.

    The manifest is read by hifsim's C++ reader (read_manifest); this adds the checks of file
    contents it does not make: the text file named by capture.text, every tensor file (inside the
    trace, dtype, C order, shape, no NaN/Inf, sha256) and, with check_products, c_ref against A.B^T.
    Returns a summary {manifest, kind, ops, tensors, bytes}."""
    t = read_manifest(trace_dir)
    manifest = t["manifest"]
    ctx = _Ctx(manifest)
    if t["kind"] == "captured" and check_tensors:
        text = _captured_text(manifest)
        if text is not None and _find_text(trace_dir, text) is None:
            ctx.fail("capture.text", f"{text} not found relative to the repository root")
    cache: Dict[Tuple[str, Optional[str]], np.ndarray] = {}
    n_tensors = 0
    n_bytes = 0
    hashed: Dict[str, str] = {}
    for i, op in enumerate(t["ops"]):
        f = f"ops[{i}] ({op['name']})"
        if not check_tensors or t["kind"] != "captured":
            continue
        arrays = {}
        for k in ("a", "b", "c_ref"):
            if k not in op:
                continue
            ref = op[k]
            rel, key = ref["file"], ref["key"] or None
            path = os.path.join(trace_dir, rel)
            where = f"{f}.{k}.file {rel}"
            why = _not_regular(path)
            if why == "missing":
                ctx.fail(where, "file does not exist (run scripts/capture/ensure_traces.sh)")
            if why:
                ctx.fail(where, why)
            # The reader's lexical '..' check is not enough: a symlink may point anywhere.
            real_dir, real = os.path.realpath(trace_dir), os.path.realpath(path)
            if not real.startswith(real_dir + os.sep):
                ctx.fail(where, f"resolves to {real!r}, outside the trace directory (symbolic link?)")
            ck = (rel, key)
            if ck not in cache:
                try:
                    arr = load_npy(path) if rel.endswith(".npy") else load_safetensors(path, key)
                except (TensorFileError, OSError) as e:
                    ctx.fail(where, str(e))
                if not np.all(np.isfinite(arr)):
                    bad = int(np.size(arr) - np.count_nonzero(np.isfinite(arr)))
                    ctx.fail(where, f"contains {bad} NaN/Inf values")
                cache[ck] = arr
                n_tensors += 1
                n_bytes += os.path.getsize(path)
            arr = cache[ck]
            want = tuple(ref["file_shape"])
            if arr.shape != want:
                ctx.fail(where, f"shape {tuple(arr.shape)}, expected {_shape_label(op, k, ref)} = {want}")
            if ref["sha256"] and check_hash:
                if path not in hashed:
                    hashed[path] = sha256_file(path)
                if hashed[path] != ref["sha256"]:
                    ctx.fail(f"{f}.{k}.sha256", f"{rel} hashes to {hashed[path][:16]}..., manifest "
                             f"says {ref['sha256'][:16]}... (tensors differ from the capture)")
            # The operand as the GEMM uses it (a transposed file holds its transpose).
            arrays[k] = np.swapaxes(arr, -1, -2) if ref["transposed"] else arr
        if check_products and "c_ref" in arrays:
            _check_product(ctx, f, arrays["a"], arrays["b"], arrays["c_ref"], op["K"])
    return {"manifest": manifest, "kind": t["kind"], "ops": len(t["ops"]), "tensors": n_tensors,
            "bytes": n_bytes, "schema": t["schema"]}


def _shape_label(op: Dict[str, Any], which: str, ref: Dict[str, Any]) -> str:
    dims = {"a": ["M", "K"], "b": ["N", "K"], "c_ref": ["M", "N"]}[which]
    if ref["transposed"]:
        dims = dims[::-1]
    if op["kind"] in ("attn_fwd", "attn_bwd"):
        dims = ["batch"] + dims
    return "[" + ", ".join(dims) + "]" + (" (transposed)" if ref["transposed"] else "")


def _captured_text(manifest: str) -> Optional[str]:
    """capture.text of a manifest the C++ reader accepted (None for model-sampled tokens)."""
    import yaml
    with open(manifest, "r", encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    cap = doc.get("capture") or {}
    return cap.get("text") if cap.get("token_source") == "text" else None


def _check_product(ctx: _Ctx, field: str, a, b, c, K: int) -> None:
    """c_ref must equal A.B^T within the worst-case FP32 dot-product error bound."""
    a64 = a.astype(np.float64)
    b64 = np.swapaxes(b.astype(np.float64), -1, -2)
    exact = np.matmul(a64, b64)
    mag = np.matmul(np.abs(a64), np.abs(b64))
    tol = (K + 1) * 2.0 ** -24 * mag + 2.0 ** -149
    err = np.abs(c.astype(np.float64) - exact)
    bad = err > tol
    if np.any(bad):
        idx = tuple(int(x) for x in np.argwhere(bad)[0])
        ctx.fail(field + ".c_ref", f"differs from A.B^T at {idx}: {float(c[idx])!r} vs "
                 f"{float(exact[idx])!r} (bound {float(tol[idx]):.3g}); "
                 f"{int(bad.sum())} elements out of bound")


def find_trace_dirs(root: str) -> List[str]:
    if os.path.isfile(os.path.join(root, MANIFEST)):
        return [root]
    out = []
    for d, subdirs, files in os.walk(root):
        subdirs[:] = sorted(s for s in subdirs if s != "tensors")
        if MANIFEST in files:
            out.append(d)
    return sorted(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+", help="trace directories (or folders containing them)")
    ap.add_argument("--no-tensors", action="store_true",
                    help="check the manifest only (tensor files may be absent)")
    ap.add_argument("--no-hash", action="store_true", help="skip the sha256 comparison")
    ap.add_argument("--check-products", action="store_true",
                    help="also check c_ref against A.B^T (slower)")
    args = ap.parse_args(argv)
    dirs: List[str] = []
    for p in args.paths:
        if not os.path.isdir(p):
            print(f"{p}: (path): not a directory", file=sys.stderr)
            return 1
        found = find_trace_dirs(p)
        if not found:
            print(f"{p}: (path): no trace.yaml found in it or below it", file=sys.stderr)
            return 1
        dirs.extend(found)
    for d in dirs:
        try:
            s = validate_trace(d, check_tensors=not args.no_tensors, check_hash=not args.no_hash,
                               check_products=args.check_products)
        except TraceError as e:
            print(str(e), file=sys.stderr)
            return 1
        extra = f", {s['tensors']} tensor files, {s['bytes'] / 1e6:.1f} MB" if s["tensors"] else ""
        print(f"OK {d} ({s['kind']}, {s['ops']} ops{extra})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
