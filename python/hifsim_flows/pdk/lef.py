"""Cell area and pins from a sky130 cell LEF (MACRO ... SIZE w BY h; PIN ... DIRECTION)."""
import re

from .flow_error import FlowError
from .pdk_files import read_text


def read_lef(path, macro):
    text = read_text(path)
    m = re.search(r"^\s*MACRO\s+(\S+)(.*?)^\s*END\s+\1\b", text, re.S | re.M)
    if not m or m.group(1) != macro:
        raise FlowError(path, f"no MACRO {macro}")
    body = m.group(2)
    size = re.search(r"^\s*SIZE\s+([0-9.]+)\s+BY\s+([0-9.]+)\s*;", body, re.M)
    if not size:
        raise FlowError(path, f"MACRO {macro}: no SIZE")
    w, h = float(size.group(1)), float(size.group(2))
    pins = {}
    for pm in re.finditer(r"^\s*PIN\s+(\S+)(.*?)^\s*END\s+\1\b", body, re.S | re.M):
        d = re.search(r"DIRECTION\s+(\w+)", pm.group(2))
        use = re.search(r"USE\s+(\w+)", pm.group(2))
        pins[pm.group(1)] = {"direction": d.group(1).lower() if d else "",
                             "use": use.group(1).lower() if use else "signal"}
    if not pins:
        raise FlowError(path, f"MACRO {macro}: no PIN")
    return {"width_um": w, "height_um": h, "area_um2": round(w * h, 6), "pins": pins}
