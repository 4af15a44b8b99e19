"""The scripts/pdk/<step>.py entry points the docs name: each runs its step of the sky130 flow,
the module hifsim_flows.pdk.<step> (python/hifsim_flows/pdk/), with the same arguments:
`python3 scripts/pdk/report_tables.py ARGS` is `PYTHONPATH=python python3 -m hifsim_flows.pdk.report_tables ARGS`."""
import os
import sys


def run(step):
    python_dir = os.path.abspath(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "python"))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (python_dir, env.get("PYTHONPATH")) if p)
    os.execve(sys.executable, [sys.executable, "-m", "hifsim_flows.pdk." + step, *sys.argv[1:]], env)
