"""The `hifsim` console command of the Python package: runs the C++ program shipped in the
wheel (hifsim/bin/hifsim), telling it where the package's data and Python interpreter are, so
the installed command behaves like build/bin/hifsim without any source tree."""
from __future__ import annotations

import os
import sys
from pathlib import Path


def program() -> Path:
    return Path(__file__).resolve().parent / "bin" / "hifsim"


def environment() -> dict:
    env = dict(os.environ)
    env.setdefault("HIFSIM_PYTHON", sys.executable)
    env.setdefault("HIFSIM_DATA_DIR", str(Path(__file__).resolve().parent / "data"))
    return env


def main() -> None:
    exe = program()
    if not exe.is_file():
        sys.exit(f"hifsim: error: {exe}: the hifsim program is missing from the package (reinstall hifsim)")
    os.execve(str(exe), [str(exe), *sys.argv[1:]], environment())


if __name__ == "__main__":
    main()
