"""The Liberty the flow maps to: a plain-text copy of a library holding only the cells the
synthesis may use (cells.mapping_allowed; why each other cell is left out is written there).

  mapping_copy(lib, out_dir) -> path of out_dir/<name>.map.lib

Yosys's dfflibmap and ABC read every cell of the file they are given (Yosys 0.23 has no
dont_use list), and Debian's OpenSTA reads only plain text, so the flow writes one filtered,
decompressed copy per library and gives every tool that copy: the netlist can hold only its
cells, and STA, gate-level equivalence and gate-level energy read the same cells' data. The
copy is a pure function of the source file: rewritten only when its content differs.
"""
import os

from .cells import mapping_allowed
from .flow_error import FlowError
from .liberty_read import group_spans
from .pdk_files import read_text


def filtered_text(path):
    """(Liberty text with only the mapping cells, kept names, dropped names)."""
    text = read_text(path)
    out, pos, kept, dropped = [], 0, [], []
    for name, start, end in group_spans(path, text, "cell"):
        if mapping_allowed(name):
            kept.append(name)
            continue
        # drop the group, its indentation and the rest of its last line
        line_start = text.rfind("\n", 0, start) + 1
        cut = line_start if not text[line_start:start].strip() else start
        out.append(text[pos:cut])
        dropped.append(name)
        pos = end
        while pos < len(text) and text[pos] in " \t":
            pos += 1
        if pos < len(text) and text[pos] == "\n":
            pos += 1
    out.append(text[pos:])
    if not kept:
        raise FlowError(path, "no cell the flow may map to (cells.mapping_allowed)")
    return "".join(out), kept, dropped


def mapping_copy(path, out_dir):
    """out_dir/<file name without .gz and .lib>.map.lib, the filtered plain-text copy."""
    base = os.path.basename(path)
    for ext in (".gz", ".lib"):
        if base.endswith(ext):
            base = base[:-len(ext)]
    out = os.path.join(out_dir, base + ".map.lib")
    text, _, _ = filtered_text(path)
    data = text.encode("utf-8")
    if os.path.isfile(out):
        with open(out, "rb") as f:
            if f.read() == data:
                return out
    os.makedirs(out_dir, exist_ok=True)
    tmp = f"{out}.tmp{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, out)
    return out
