"""Shared helpers of the tests/traces Python tests (paths, test data location)."""
import os
import shutil
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# The capture code is the hifsim package's (python/hifsim/capture), run from the build's staged
# package: ctest puts build/python on PYTHONPATH and names the source tree in HIFSIM_SOURCE_ROOT.
try:
    import hifsim.capture  # noqa: F401
except ImportError as e:
    sys.exit(f"cannot import the hifsim package ({e}): run this test through ctest, which sets PYTHONPATH=build/python")
CAPTURE = [sys.executable, "-m", "hifsim.capture.capture"]
VALIDATOR = [sys.executable, "-m", "hifsim.capture.validate_trace"]


SKIP_RETURN_CODE = 77  # registered with ctest as SKIP_RETURN_CODE: reported as "Skipped", never as passed


def data_dir() -> str:
    """$HIFSIM_DATA, else <repo>/../shared/data, else /work/shared/data (the shared data folder)."""
    if os.environ.get("HIFSIM_DATA"):
        return os.environ["HIFSIM_DATA"]
    for d in (os.path.join(os.path.dirname(ROOT), "shared", "data"), "/work/shared/data"):
        if os.path.isfile(os.path.join(d, "stories260K.bin")):
            return d
    return os.path.join(os.path.dirname(ROOT), "shared", "data")


def stories260k_path() -> str:
    """Path of stories260K.bin. When it is absent the test is reported as skipped (ctest shows
    it as "Skipped", not passed) with a message saying how to provide it."""
    path = os.path.join(data_dir(), "stories260K.bin")
    if not os.path.isfile(path):
        sys.stderr.write(f"SKIPPED: {path} not found. Set HIFSIM_DATA to the folder holding "
                         "stories260K.bin (default <repo>/../shared/data or /work/shared/data).\n")
        sys.exit(SKIP_RETURN_CODE)
    return path


def capture_stories260k(tmp: str) -> str:
    """Captures the tensors of the committed stories260k manifest into tmp/stories260k (the
    manifest copied there) and returns that trace folder; skips the test without the checkpoint."""
    trace = os.path.join(tmp, "stories260k")
    os.makedirs(trace)
    shutil.copy(os.path.join(ROOT, "traces", "stories260k", "trace.yaml"), trace)
    r = subprocess.run([*CAPTURE, "--model", "llama2c:" + stories260k_path(), "--out", trace],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return trace


def run_tests() -> None:
    """unittest.main that exits non-zero on any failure and prints a ctest-friendly line."""
    prog = unittest.main(exit=False, verbosity=2)
    r = prog.result
    failed = len(r.failures) + len(r.errors) + len(getattr(r, "unexpectedSuccesses", []))
    passed = r.testsRun - failed - len(r.skipped)
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed or r.testsRun == 0 else 0)
