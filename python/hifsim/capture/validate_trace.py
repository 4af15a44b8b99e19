#!/usr/bin/env python3
"""Validate hifsim trace directories (schema hifsim-trace/1, see docs/traces.md).

    validate_trace.py TRACE_DIR [TRACE_DIR ...] [--no-tensors] [--no-hash] [--check-products]

A TRACE_DIR is a directory holding trace.yaml; a directory without one is searched
recursively for trace directories. Each valid trace prints one "OK ..." line. The first
problem prints ONE line "<manifest>: <field>: <reason>" on stderr and the exit code is 1
(2 for bad command-line use).

Checked: every field (presence, type, allowed values, unknown keys), M/N/K/batch against
the tensor shapes, tensor files exist inside the trace directory, are little-endian
float32 in C order (.npy) or F32 (.safetensors), contain no NaN/Inf, match their sha256
when one is given, and (with --check-products) c_ref agrees with A.B^T within the FP32
accumulation error bound.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import struct
import sys
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

SCHEMA = "hifsim-trace/1"
MANIFEST = "trace.yaml"
LINEAR_OPS = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")
ATTENTION_OPS = ("attn_qk", "attn_pv")
OPS = LINEAR_OPS + ATTENTION_OPS
KINDS = ("captured", "shape-only")
ARCHITECTURES = ("llama", "qwen2", "deepseek_v3")
PHASES = ("prefill", "decode")
TOKEN_SOURCES = ("text", "model-sample")
MAX_DIM = 2**31 - 1
NAME_RE = re.compile(r"^[A-Za-z0-9_.:\-]+$")
SHA_RE = re.compile(r"^[0-9a-f]{64}$")

TOP_KEYS = {"schema": True, "kind": True, "description": False, "model": True,
            "capture": False, "shape": False, "checks": False, "provenance": False, "ops": True}
MODEL_KEYS = {"name": True, "source": True, "revision": True, "architecture": True}
CAPTURE_KEYS = {"script": True, "token_source": True, "text": False, "tokens": True,
                "token_ids": True, "seed": True, "layers": True}
SHAPE_KEYS = {"phase": True, "sequences": True, "tokens": True, "context": True, "config": True}
OP_KEYS = {"name": True, "layer": True, "op": True, "M": True, "N": True, "K": True,
           "batch": True, "repeat": False, "a": False, "b": False, "c_ref": False, "note": False}
TENSOR_KEYS = {"file": True, "dtype": True, "sha256": False, "key": False}


class TraceError(Exception):
    """One validation failure: manifest path, field path, reason."""

    def __init__(self, manifest: str, field: str, reason: str):
        self.manifest, self.field, self.reason = manifest, field, reason
        super().__init__(f"{manifest}: {field}: {reason}")


# ---------------------------------------------------------------------------------------
# field helpers

class _Ctx:
    def __init__(self, manifest: str):
        self.manifest = manifest

    def fail(self, field: str, reason: str):
        raise TraceError(self.manifest, field, reason)

    def mapping(self, obj, field: str, keys: Dict[str, bool]) -> dict:
        if not isinstance(obj, dict):
            self.fail(field, f"must be a mapping, got {_tname(obj)}")
        for k in obj:
            if not isinstance(k, str):
                self.fail(field, f"key {k!r} is not a string")
            if k not in keys:
                self.fail(f"{field}.{k}" if field else k,
                          f"unknown field (allowed: {', '.join(keys)})")
        for k, required in keys.items():
            if required and k not in obj:
                self.fail(f"{field}.{k}" if field else k, "required field is missing")
        return obj

    def string(self, obj, field: str, allowed=None, nonempty=True) -> str:
        if not isinstance(obj, str):
            self.fail(field, f"must be a string, got {_tname(obj)}")
        if nonempty and not obj.strip():
            self.fail(field, "must not be empty")
        if allowed is not None and obj not in allowed:
            self.fail(field, f"{obj!r} is not one of {', '.join(allowed)}")
        return obj

    def integer(self, obj, field: str, lo: int = 1, hi: int = MAX_DIM) -> int:
        if isinstance(obj, bool) or not isinstance(obj, int):
            self.fail(field, f"must be an integer, got {_tname(obj)} {obj!r}")
        if obj < lo or obj > hi:
            self.fail(field, f"{obj} is out of range [{lo}, {hi}]")
        return obj


def _tname(obj) -> str:
    return {dict: "mapping", list: "list", str: "string", bool: "boolean", int: "integer",
            float: "number", type(None): "null"}.get(type(obj), type(obj).__name__)


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


def _unique_key_loader():
    """A SafeLoader that refuses a key given twice in one mapping (PyYAML keeps the last one
    silently, yaml-cpp the first: the same manifest would mean different things to the two
    readers). hifsim's reader rejects duplicates the same way (model/io/yaml_input.cpp)."""
    import yaml

    class UniqueKeyLoader(yaml.SafeLoader):
        pass

    def mapping(loader, node, deep=False):
        seen = {}
        for key_node, _ in node.value:
            key = loader.construct_object(key_node, deep=deep)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {key!r} given twice (line {key_node.start_mark.line + 1}; "
                                f"first at line {seen[key] + 1})", key_node.start_mark)
            seen[key] = key_node.start_mark.line
        return loader.construct_mapping(node, deep)

    UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping)
    return UniqueKeyLoader


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

    Returns a summary {manifest, kind, ops, tensors, bytes}."""
    import yaml

    manifest = os.path.join(trace_dir, MANIFEST)
    ctx = _Ctx(manifest)
    why = _not_regular(manifest)
    if why == "missing":
        ctx.fail("(file)", "trace.yaml is missing")
    if why:
        ctx.fail("(file)", why)
    try:
        with open(manifest, "r", encoding="utf-8") as f:
            doc = yaml.load(f, Loader=_unique_key_loader())
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        ctx.fail("(yaml)", f"parse error{where}: {problem}")
    except UnicodeDecodeError as e:
        ctx.fail("(file)", f"not UTF-8 text ({e.reason})")

    if doc is None:
        ctx.fail("(file)", "manifest is empty")
    ctx.mapping(doc, "", TOP_KEYS)
    if doc["schema"] != SCHEMA:
        ctx.fail("schema", f"{doc['schema']!r} is not {SCHEMA!r}")
    kind = ctx.string(doc["kind"], "kind", KINDS)
    if "description" in doc:
        ctx.string(doc["description"], "description")
    for k in ("checks", "provenance"):
        if k in doc and not isinstance(doc[k], dict):
            ctx.fail(k, f"must be a mapping, got {_tname(doc[k])}")

    model = ctx.mapping(doc["model"], "model", MODEL_KEYS)
    ctx.string(model["name"], "model.name")
    ctx.string(model["source"], "model.source")
    rev = ctx.string(model["revision"], "model.revision")
    ctx.string(model["architecture"], "model.architecture", ARCHITECTURES)
    if kind == "captured" and not SHA_RE.match(rev):
        ctx.fail("model.revision", "must be the sha256 (64 lowercase hex digits) of the weight file")

    tokens = None
    layers = None
    if kind == "captured":
        if "shape" in doc:
            ctx.fail("shape", "only shape-only traces have a shape block")
        if "capture" not in doc:
            ctx.fail("capture", "required field is missing (kind is captured)")
        cap = ctx.mapping(doc["capture"], "capture", CAPTURE_KEYS)
        ctx.string(cap["script"], "capture.script")
        src = ctx.string(cap["token_source"], "capture.token_source", TOKEN_SOURCES)
        if src == "text":
            if "text" not in cap:
                ctx.fail("capture.text", "required when token_source is text")
            rel = ctx.string(cap["text"], "capture.text")
            if _find_text(trace_dir, rel) is None:
                ctx.fail("capture.text", f"{rel} not found relative to the repository root")
        elif "text" in cap and cap["text"] is not None:
            ctx.fail("capture.text", "must be absent or null when token_source is model-sample")
        tokens = ctx.integer(cap["tokens"], "capture.tokens")
        ctx.integer(cap["seed"], "capture.seed", lo=0, hi=2**63 - 1)
        ids = cap["token_ids"]
        if not isinstance(ids, list):
            ctx.fail("capture.token_ids", f"must be a list, got {_tname(ids)}")
        if len(ids) != tokens:
            ctx.fail("capture.token_ids", f"has {len(ids)} ids, capture.tokens is {tokens}")
        for i, t in enumerate(ids):
            ctx.integer(t, f"capture.token_ids[{i}]", lo=0)
        lay = cap["layers"]
        if not isinstance(lay, list) or not lay:
            ctx.fail("capture.layers", "must be a non-empty list of layer indices")
        for i, l in enumerate(lay):
            ctx.integer(l, f"capture.layers[{i}]", lo=0)
        if len(set(lay)) != len(lay):
            ctx.fail("capture.layers", "has duplicate layer indices")
        layers = set(lay)
    else:
        if "capture" in doc:
            ctx.fail("capture", "only captured traces have a capture block")
        if "shape" not in doc:
            ctx.fail("shape", "required field is missing (kind is shape-only)")
        shp = ctx.mapping(doc["shape"], "shape", SHAPE_KEYS)
        ctx.string(shp["phase"], "shape.phase", PHASES)
        ctx.integer(shp["sequences"], "shape.sequences")
        ctx.integer(shp["tokens"], "shape.tokens")
        ctx.integer(shp["context"], "shape.context")
        ctx.string(shp["config"], "shape.config")

    ops = doc["ops"]
    if not isinstance(ops, list) or not ops:
        ctx.fail("ops", "must be a non-empty list")
    names = set()
    cache: Dict[Tuple[str, Optional[str]], np.ndarray] = {}
    n_tensors = 0
    n_bytes = 0
    hashed: Dict[str, str] = {}
    for i, op in enumerate(ops):
        f = f"ops[{i}]"
        ctx.mapping(op, f, OP_KEYS)
        name = ctx.string(op["name"], f + ".name")
        if not NAME_RE.match(name):
            ctx.fail(f + ".name", f"{name!r} may only use letters, digits and _ . : -")
        if name in names:
            ctx.fail(f + ".name", f"duplicate op name {name!r}")
        names.add(name)
        f = f"ops[{i}] ({name})"
        layer = ctx.integer(op["layer"], f + ".layer", lo=0)
        kind_op = ctx.string(op["op"], f + ".op", OPS)
        M = ctx.integer(op["M"], f + ".M")
        N = ctx.integer(op["N"], f + ".N")
        K = ctx.integer(op["K"], f + ".K")
        batch = ctx.integer(op["batch"], f + ".batch")
        if "repeat" in op:
            ctx.integer(op["repeat"], f + ".repeat")
        if "note" in op:
            ctx.string(op["note"], f + ".note")
        has = [k for k in ("a", "b", "c_ref") if k in op]
        if kind == "shape-only":
            if has:
                ctx.fail(f"{f}.{has[0]}", "shape-only traces carry no tensors")
            continue
        # captured
        for k in ("a", "b"):
            if k not in op:
                ctx.fail(f"{f}.{k}", "required field is missing (kind is captured)")
        if layer not in layers:
            ctx.fail(f + ".layer", f"layer {layer} is not listed in capture.layers")
        if M != tokens:
            ctx.fail(f + ".M", f"{M} != capture.tokens {tokens} (M is the token count)")
        attn = kind_op in ATTENTION_OPS
        if not attn and batch != 1:
            ctx.fail(f + ".batch", f"{batch}: linear ops with tensors must have batch 1")
        if attn:
            want = {"a": (batch, M, K), "b": (batch, N, K), "c_ref": (batch, M, N)}
            label = {"a": "[batch, M, K]", "b": "[batch, N, K]", "c_ref": "[batch, M, N]"}
        else:
            want = {"a": (M, K), "b": (N, K), "c_ref": (M, N)}
            label = {"a": "[M, K]", "b": "[N, K]", "c_ref": "[M, N]"}
        arrays = {}
        for k in has:
            tf = f"{f}.{k}"
            ref = ctx.mapping(op[k], tf, TENSOR_KEYS)
            rel = ctx.string(ref["file"], tf + ".file")
            ctx.string(ref["dtype"], tf + ".dtype", ("float32",))
            if "sha256" in ref:
                sha = ctx.string(ref["sha256"], tf + ".sha256")
                if not SHA_RE.match(sha):
                    ctx.fail(tf + ".sha256", "must be 64 lowercase hex digits")
            key = None
            if "key" in ref:
                key = ctx.string(ref["key"], tf + ".key")
            if os.path.isabs(rel) or "\\" in rel or ".." in rel.split("/"):
                ctx.fail(tf + ".file", f"{rel!r} must be a relative path inside the trace directory")
            is_npy = rel.endswith(".npy")
            if not is_npy and not rel.endswith(".safetensors"):
                ctx.fail(tf + ".file", f"{rel!r} must end in .npy or .safetensors")
            if is_npy and key is not None:
                ctx.fail(tf + ".key", "only .safetensors files take a key")
            if not check_tensors:
                continue
            path = os.path.join(trace_dir, rel)
            where = f"{tf}.file {rel}"
            why = _not_regular(path)
            if why == "missing":
                ctx.fail(where, "file does not exist (run scripts/capture/ensure_traces.sh)")
            if why:
                ctx.fail(where, why)
            # The lexical '..' check above is not enough: a symlink may point anywhere.
            real_dir, real = os.path.realpath(trace_dir), os.path.realpath(path)
            if not real.startswith(real_dir + os.sep):
                ctx.fail(where, f"resolves to {real!r}, outside the trace directory (symbolic link?)")
            ck = (rel, key)
            if ck not in cache:
                try:
                    arr = load_npy(path) if is_npy else load_safetensors(path, key)
                except (TensorFileError, OSError) as e:
                    ctx.fail(where, str(e))
                if not np.all(np.isfinite(arr)):
                    bad = int(np.size(arr) - np.count_nonzero(np.isfinite(arr)))
                    ctx.fail(where, f"contains {bad} NaN/Inf values")
                cache[ck] = arr
                n_tensors += 1
                n_bytes += os.path.getsize(path)
            arr = cache[ck]
            if arr.shape != want[k]:
                ctx.fail(where, f"shape {tuple(arr.shape)}, expected {label[k]} = {want[k]}")
            if "sha256" in ref and check_hash:
                if path not in hashed:
                    hashed[path] = sha256_file(path)
                if hashed[path] != ref["sha256"]:
                    ctx.fail(tf + ".sha256", f"{rel} hashes to {hashed[path][:16]}..., manifest "
                             f"says {ref['sha256'][:16]}... (tensors differ from the capture)")
            arrays[k] = arr
        if check_products and check_tensors and "c_ref" in arrays:
            _check_product(ctx, f, arrays["a"], arrays["b"], arrays["c_ref"], K)
    return {"manifest": manifest, "kind": kind, "ops": len(ops), "tensors": n_tensors,
            "bytes": n_bytes}


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
