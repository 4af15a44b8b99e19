"""Shared fixtures of the Python package tests: the hifsim command to compare with, a work folder."""
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest


@pytest.fixture(scope="session")
def cli() -> Path:
    """The C++ command of the build under test (HIFSIM_CLI), the package's reference."""
    exe = os.environ.get("HIFSIM_CLI")
    if not exe or not Path(exe).is_file():
        pytest.fail("HIFSIM_CLI must name the hifsim program of the build (the CTest wrapper sets it)")
    return Path(exe)


@pytest.fixture()
def run_cli(cli, tmp_path):
    """run_cli(args...) runs the command in tmp_path; a non-zero exit fails the test with its stderr."""
    def run(*args):
        r = subprocess.run([str(cli), *map(str, args)], cwd=tmp_path, capture_output=True, text=True)
        if r.returncode != 0:
            pytest.fail(f"hifsim {' '.join(map(str, args))} exited {r.returncode}: {r.stderr}")
        return r
    return run


def values(rows: int, cols: int, seed: int, finite_only: bool = False) -> np.ndarray:
    """Values that reach every rounding path: normal spread over many binades, exact ties of the
    4- and 8-bit grids, subnormal-ish and huge magnitudes, zeros of both signs, and (unless
    finite_only) a few infinities and NaNs."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((rows, cols)).astype(np.float32) * np.exp2(rng.integers(-12, 12, (rows, cols))).astype(np.float32)
    flat = x.reshape(-1)
    n = flat.size
    idx = rng.permutation(n)
    ties = np.array([0.25, 0.75, 1.25, 2.5, 5.0, 0.0625, 3.0, 6.0, 1.0 + 2.0**-4, 1.0 + 2.0**-3], np.float32)
    flat[idx[: n // 8]] = rng.choice(ties, n // 8) * np.exp2(rng.integers(-8, 8, n // 8)).astype(np.float32)
    flat[idx[n // 8: n // 8 + 8]] = [0.0, -0.0, 1e-38, -1e-38, 3e38, -3e38, 2.0**-40, 448.0]
    if not finite_only:
        flat[idx[-3:]] = [np.inf, -np.inf, np.nan]
    return x
