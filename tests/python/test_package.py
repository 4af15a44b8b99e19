"""The hifsim Python package against the hifsim command, bit for bit, on the same inputs.

Every tensor format through quantize_dequantize, quantize (packed codes) and gemm; every code
format through encode/decode; the options that change bits; the error messages; the GIL release.
The reference is the C++ command of the same build (HIFSIM_CLI): the package must give the same
bits, so any difference in option parsing, defaults or computation fails here.
"""
import json
import threading

import numpy as np
import pytest

import hifsim
from conftest import values

TENSOR_FORMATS = ["hif4", "nvfp4", "mxfp4", "mxfp8-e4m3", "mxfp8-e5m2", "hif8", "fp8-e4m3", "fp8-e5m2", "bf16"]
CODE_FORMATS = ["hif8", "fp8-e4m3", "fp8-e5m2", "fp4-e2m1", "s1p2", "e6m2", "e8m0", "bf16"]

# Options that change bits, per format (each is also a command-line option of the same name).
QUANT_VARIANTS = [
    ("hif4", {}), ("hif4", {"rounding": "rne"}), ("hif4", {"hif4_compare": "bf16"}), ("hif4", {"hif4_inf": "nan"}),
    ("hif4", {"hif4_convention": "ascend-a6"}), ("mxfp4", {"mx_convention": "nvidia"}),
    ("nvfp4", {}), ("nvfp4", {"nvfp4_recipe": "torchao"}),
    ("mxfp4", {}), ("mxfp4", {"mx_scale": "ceil"}), ("mxfp4", {"rounding": "away"}),
    ("mxfp8-e4m3", {}), ("mxfp8-e5m2", {"rounding": "away"}), ("fp8-e4m3", {"rounding": "stochastic", "seed": 7}),
    ("hif8", {}), ("hif8", {"rounding": "hybrid"}), ("hif8", {"saturate": True}),
    ("fp8-e4m3", {}), ("fp8-e4m3", {"saturate": True}), ("fp8-e5m2", {"rounding": "rz"}),
    ("bf16", {}), ("bf16", {"rounding": "rz"}),
    # stochastic rounding of every block format, the bit count, the NVFP4 weight options (docs/training.md)
    ("hif4", {"rounding": "stochastic", "seed": 3, "sr_bits": 4}), ("nvfp4", {"rounding": "stochastic", "seed": 3}),
    ("mxfp4", {"rounding": "stochastic", "seed": 5, "sr_stream": 9}), ("bf16", {"rounding": "stochastic", "seed": 1}),
    ("nvfp4", {"nvfp4_2d": True}), ("nvfp4", {"nvfp4_tensor_scale": "off"}),
]


def cli_words(options: dict) -> list:
    words = []
    for k, v in options.items():
        words += [f"--{k.replace('_', '-')}"] if v is True else [f"--{k.replace('_', '-')}", str(v)]
    return words


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("fmt,options", QUANT_VARIANTS, ids=[f"{f}-{o}" for f, o in QUANT_VARIANTS])
def test_quantize_matches_cli(fmt, options, tmp_path, run_cli):
    x = values(6, 200, seed=len(fmt) * 31 + len(options), finite_only=fmt == "nvfp4").reshape(2, 3, 200)
    np.save(tmp_path / "x.npy", x)
    run_cli("quantize", "--format", fmt, "--in", "x.npy", "--out", "y.npy", "--codes", "c.bin", *cli_words(options))
    want = np.load(tmp_path / "y.npy")
    got = hifsim.quantize_dequantize(x, fmt, **options)
    assert same_bits(got, want), f"{fmt} {options}: quantize_dequantize differs from hifsim quantize"
    q = hifsim.quantize(x, fmt, **options)
    assert q.packed == (tmp_path / "c.bin").read_bytes(), f"{fmt} {options}: packed codes differ from --codes"
    assert same_bits(q.dequantize(), want)


@pytest.mark.parametrize("fmt", CODE_FORMATS)
def test_encode_decode_match_cli(fmt, tmp_path, run_cli):
    finite = fmt in ("fp4-e2m1", "s1p2")
    x = values(4, 250, seed=11, finite_only=finite)
    np.save(tmp_path / "x.npy", x)
    run_cli("encode", "--format", fmt, "--in", "x.npy", "--out", "c.npy")
    want = np.load(tmp_path / "c.npy")
    got = hifsim.encode(x, fmt)
    assert same_bits(got, want), f"{fmt}: encode differs from hifsim encode"
    run_cli("decode", "--format", fmt, "--in", "c.npy", "--out", "y.npy")
    assert same_bits(hifsim.decode(got, fmt), np.load(tmp_path / "y.npy")), f"{fmt}: decode differs"


GEMM_VARIANTS = [(f, {}) for f in TENSOR_FORMATS] + [
    ("hif4", {"acc": "fp32-m12-rz"}), ("hif4", {"acc": "kulisch"}), ("hif4", {"residual": "2:4"}),
    ("hif4", {"residual": "dense", "residual_mode": "fused"}), ("nvfp4", {"arc": "auto"}),
    ("hif8", {"hif8_lanes": 16, "align_width": 24, "align_policy": "sticky"}), ("bf16", {"align_width": 32}),
    ("mxfp4", {"acc": "fp32-m10-rne", "kernel": "reference"}),
]


@pytest.mark.parametrize("fmt,options", GEMM_VARIANTS, ids=[f"{f}-{o}" for f, o in GEMM_VARIANTS])
def test_gemm_matches_cli(fmt, options, tmp_path, run_cli):
    a = values(9, 200, seed=3, finite_only=True)
    b = values(7, 200, seed=4, finite_only=True)
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", b)
    run_cli("gemm", "--format", fmt, "--a", "a.npy", "--b", "b.npy", "--out", "c.npy", "--stats", "s.json",
            "--quiet", *cli_words(options))
    want = np.load(tmp_path / "c.npy")
    got, stats = hifsim.gemm(a, b, fmt, stats=True, **options)
    assert same_bits(got, want), f"{fmt} {options}: gemm differs from hifsim gemm"
    cli_stats = json.loads((tmp_path / "s.json").read_text())
    for timing in ("seconds", "macs_per_second"):
        cli_stats.pop(timing), stats.pop(timing)
    assert stats == cli_stats


def test_shapes_and_dtypes_roundtrip():
    x = values(3, 64, seed=5, finite_only=True)
    y = hifsim.quantize_dequantize(x.astype(np.float64), "hif4")  # converted to float32 first
    assert y.dtype == np.float32 and y.shape == x.shape
    assert same_bits(y, hifsim.quantize_dequantize(x, "hif4"))
    # A non-contiguous view gives the same bits as its contiguous copy.
    wide = values(3, 128, seed=6, finite_only=True)
    assert same_bits(hifsim.quantize_dequantize(wide[:, ::2], "mxfp4"),
                     hifsim.quantize_dequantize(np.ascontiguousarray(wide[:, ::2]), "mxfp4"))
    assert hifsim.encode(np.zeros((2, 3), np.float32), "bf16").dtype == np.uint16
    assert hifsim.encode(np.zeros((2, 3), np.float32), "hif8").dtype == np.uint8


@pytest.mark.parametrize("call,needle", [
    (lambda: hifsim.quantize_dequantize(np.ones((2, 4), np.float32), "hif5"), "unknown tensor format"),
    (lambda: hifsim.quantize_dequantize(np.ones((2, 4), np.float32), "mxfp4", mx_scale="round"),
     "argument mx_scale: 'round' is not floor, ceil, rceil, pow2-ceil or even"),
    (lambda: hifsim.quantize_dequantize(np.ones((2, 4), np.float32), "hif4", colour="red"),
     "argument colour: unknown keyword argument"),
    (lambda: hifsim.quantize_dequantize(np.array([[1.0, np.nan]], np.float32), "nvfp4"), "argument x"),
    (lambda: hifsim.gemm(np.ones((2, 64), np.float32), np.ones((3, 32), np.float32), "hif4"), "K mismatch"),
    (lambda: hifsim.gemm(np.ones((2, 64), np.float32), np.ones((3, 64), np.float32), "hif4", arc="auto",
                         residual="2:4"), "cannot be combined"),
    (lambda: hifsim.gemm(np.ones((2, 64), np.float32), np.ones((3, 64), np.float32), "hif4", acc="fp33"),
     "expected fp32"),
    (lambda: hifsim.decode(np.array([16], np.uint8), "fp4-e2m1"), "argument codes"),
    (lambda: hifsim.decode(np.array([1.0]), "hif8"), "expected uint8 or uint16"),
    (lambda: hifsim.encode(np.ones(3, np.float32), "hif8", rounding="sideways"), "argument rounding"),
])
def test_bad_input_raises_a_named_error(call, needle):
    with pytest.raises(hifsim.Error) as e:
        call()
    assert needle in str(e.value), str(e.value)
    assert isinstance(e.value, ValueError)


def test_gil_is_released_during_compute():
    """While one thread is inside a long GEMM, another thread keeps running Python code."""
    a = values(128, 2048, seed=8, finite_only=True)
    b = values(128, 2048, seed=9, finite_only=True)
    started, done = threading.Event(), threading.Event()

    def work():
        started.set()
        hifsim.gemm(a, b, "bf16", kernel="reference", threads=1)
        done.set()

    t = threading.Thread(target=work)
    t.start()
    started.wait()
    ticks = 0
    while not done.is_set():
        ticks += 1
    t.join()
    # Held, the GIL would stop this loop from the call's start to its end (the loop could only
    # run in the microseconds of Python before the call); released, it spins all along.
    assert ticks > 10_000, f"the main thread ran only {ticks} iterations while the GEMM ran"


@pytest.mark.parametrize("fmt", ["hif4", "mxfp4", "mxfp8-e4m3", "hif8", "bf16", "fp8-e5m2"])
def test_dot_units_accumulate_to_gemm(fmt):
    """Accumulating the unit results in FP32 from +0, in K order, is exactly the GEMM (fp32 RNE
    accumulator; these formats have no per-tensor epilogue)."""
    a = values(1, 300, seed=12, finite_only=True)[0]
    b = values(1, 300, seed=13, finite_only=True)[0]
    units = hifsim.dot(a, b, fmt)
    width = {"mxfp8-e4m3": 32, "fp8-e5m2": 32}.get(fmt, 64)
    assert units.dtype == np.float32 and units.shape == (-(-300 // width),)
    acc = np.float32(0.0)
    for u in units:
        acc = np.float32(acc + u)
    c = hifsim.gemm(a[None, :], b[None, :], fmt)
    assert c[0, 0].tobytes() == acc.tobytes(), (fmt, c[0, 0], acc)


def test_notebook_example_runs():
    """docs/examples/compare_formats.py (the docs' example) runs and prints a sane table."""
    import subprocess
    import sys
    from pathlib import Path
    example = Path(__file__).resolve().parents[2] / "docs" / "examples" / "compare_formats.py"
    r = subprocess.run([sys.executable, str(example)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    rows = {line.split()[0]: line.split()[1:] for line in r.stdout.splitlines()[1:]}
    assert set(rows) == {"hif4", "nvfp4", "mxfp4", "hif8", "mxfp8-e4m3", "bf16"}
    gemm_db = {f: float(v[1]) for f, v in rows.items()}
    # More bits, less error: an 8-bit format beats every 4-bit one, BF16 beats everything.
    assert max(gemm_db[f] for f in ("hif4", "nvfp4", "mxfp4")) < min(gemm_db["hif8"], gemm_db["mxfp8-e4m3"])
    assert gemm_db["bf16"] > gemm_db["hif8"] + 15
    # The 2:4 residual improves each 4-bit format's GEMM.
    for f in ("hif4", "nvfp4", "mxfp4"):
        assert float(rows[f][2]) > gemm_db[f]


def _without_timing(d):
    """A result dict without the wall-clock fields of the simulator's own speed (run.wall_seconds,
    run.simulated_cycles_per_second), which differ run to run; every modelled number stays."""
    if isinstance(d, dict):
        return {k: (_without_timing(v) if k != "run" else {kk: vv for kk, vv in v.items()
                                                            if kk not in ("wall_seconds", "simulated_cycles_per_second")})
                for k, v in d.items()}
    if isinstance(d, list):
        return [_without_timing(v) for v in d]
    return d


def source_file(*parts):
    from pathlib import Path
    return str(Path(__file__).resolve().parents[2].joinpath(*parts))


@pytest.mark.parametrize("unit", ["hif4-32x32", "nvfp4-32x32", "hif8-32x32"])
def test_run_unit_matches_cli(unit, tmp_path, run_cli):
    config = source_file("configs", "units", f"{unit}.yaml")
    a = values(64, 256, seed=21, finite_only=True)
    b = values(48, 256, seed=22, finite_only=True)
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", b)
    # The same coefficient tables on both sides (the installed package's own are a copy elsewhere,
    # and the result records which tables it used).
    tables = source_file("configs", "cost")
    run_cli("run", "--config", config, "--gemm", "64,48,256", "--a", "a.npy", "--b", "b.npy", "--engine", "analytic",
            "--set", "array.rows=16,array.cols=16", "--cost-sample", "256", "--cost-tables", tables, "--out", "r", "--quiet")
    want = json.loads((tmp_path / "r" / "result.json").read_text())
    got = hifsim.run_unit(config, gemm=(64, 48, 256), a=a, b=b, set={"array.rows": 16, "array.cols": 16},
                          cost_sample=256, cost_tables=tables)
    assert _without_timing(got) == _without_timing(want)


def test_run_unit_trace_timing_only(tmp_path, run_cli):
    config = source_file("configs", "units", "hif4-32x32.yaml")
    trace = source_file("traces", "shapes", "llama3-8b-decode-b64")
    run_cli("run", "--config", config, "--trace", trace, "--engine", "analytic", "--no-cost", "--out", "r", "--quiet")
    want = json.loads((tmp_path / "r" / "result.json").read_text())
    got = hifsim.run_unit(config, trace=trace, cost=False)
    assert _without_timing(got) == _without_timing(want)


def test_cost_and_dot_unit_comparison_match_cli(tmp_path, run_cli):
    config = source_file("configs", "units", "mxfp4-32x32.yaml")
    tables = source_file("configs", "cost")
    run_cli("cost", "--config", config, "--gemm", "128,128,512", "--sample", "512", "--tables", tables, "--out", "c", "--quiet")
    want = json.loads((tmp_path / "c" / "cost.json").read_text())
    assert _without_timing(hifsim.cost(config, gemm=(128, 128, 512), sample=512, tables=tables)) == _without_timing(want)
    run_cli("cost", "--compare-units", "--formats", "hif4,nvfp4", "--sample", "256", "--tables", tables, "--out", "u", "--quiet")
    want = json.loads((tmp_path / "u" / "compare.json").read_text())
    got = hifsim.cost(compare_units=True, formats=["hif4", "nvfp4"], sample=256, tables=tables)
    assert _without_timing(got) == _without_timing(want)


@pytest.mark.parametrize("call,needle", [
    (lambda: hifsim.run_unit(source_file("configs", "units", "hif4-32x32.yaml")), "give exactly one"),
    (lambda: hifsim.run_unit(source_file("configs", "units", "hif4-32x32.yaml"), gemm=(1, 2)), "argument gemm: '1,2': expected M,N,K"),
    (lambda: hifsim.run_unit(source_file("configs", "units", "hif4-32x32.yaml"), gemm=(8, 8, 64),
                             set={"array.rows": -3}), "array.rows"),
    (lambda: hifsim.run_unit("/nonexistent/unit.yaml", gemm=(8, 8, 64)), "/nonexistent/unit.yaml"),
    (lambda: hifsim.cost(), "compare_units"),
])
def test_run_unit_and_cost_errors(call, needle):
    with pytest.raises(hifsim.Error) as e:
        call()
    assert needle in str(e.value), str(e.value)


def test_type_stubs_match_the_functions():
    """__init__.pyi (shipped with py.typed) declares every public function with the runtime's
    parameter names, kinds and order, so a type checker sees the real signatures."""
    import ast
    import inspect
    from pathlib import Path
    pkg = Path(hifsim.__file__).parent
    assert (pkg / "py.typed").is_file() and (pkg / "_ext.pyi").is_file()
    stubs = {}
    for node in ast.parse((pkg / "__init__.pyi").read_text()).body:
        if isinstance(node, ast.FunctionDef):
            a = node.args
            params = [(p.arg, "pos") for p in a.posonlyargs + a.args] + [(p.arg, "kw") for p in a.kwonlyargs]
            if a.kwarg:
                params.append((a.kwarg.arg, "var"))
            stubs[node.name] = params
    kinds = {inspect.Parameter.POSITIONAL_OR_KEYWORD: "pos", inspect.Parameter.POSITIONAL_ONLY: "pos",
             inspect.Parameter.KEYWORD_ONLY: "kw", inspect.Parameter.VAR_KEYWORD: "var"}
    for name in hifsim.__all__:
        obj = getattr(hifsim, name)
        if not inspect.isfunction(obj):
            continue
        want = [(p.name, kinds[p.kind]) for p in inspect.signature(obj).parameters.values()]
        assert stubs.get(name) == want, f"{name}: stub {stubs.get(name)} != runtime {want}"


def test_version_is_the_single_source():
    """hifsim.__version__, the installed wheel's metadata and `hifsim --version` are the file VERSION."""
    import importlib.metadata
    import os
    import subprocess
    want = open(os.path.join(os.path.dirname(__file__), "..", "..", "VERSION")).read().strip()
    assert hifsim.__version__ == want
    assert importlib.metadata.version("hifsim") == want
    assert subprocess.run([os.environ["HIFSIM_CLI"], "--version"], capture_output=True, text=True).stdout == f"hifsim {want}\n"


def test_unit_catalog_is_the_clis():
    """hifsim.units.unit_catalog() is `hifsim units --json`: the same catalog, as Python objects."""
    import os
    import subprocess
    from hifsim.units import unit_catalog
    cli = json.loads(subprocess.run([os.environ["HIFSIM_CLI"], "units", "--json"], capture_output=True, text=True,
                                    check=True).stdout)
    got = unit_catalog()
    assert got == cli
    hif8 = [u for u in got["units"] if u["name"] == "hif8_dot"][0]
    assert [p["name"] for p in hif8["params"]] == ["N", "W", "STICKY", "STAGES"]
    assert "N=64;W=0;STAGES=1" in [s["parameters"] for s in hif8["sets"]["synthesis"]]
