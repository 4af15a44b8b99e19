"""Where the repository is: the flows read rtl/, configs/ and scripts/ of the checkout they live in."""
import os

# python/hifsim_flows/repo.py -> the repository root
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# The folder that holds this package (PYTHONPATH of the steps run as subprocesses).
PYTHON_DIR = os.path.join(ROOT, "python")


def module_env(env=None):
    """`env` (default os.environ) with PYTHON_DIR first on PYTHONPATH: the environment in which a
    step runs another as `python -m hifsim_flows...`."""
    env = dict(os.environ if env is None else env)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (PYTHON_DIR, env.get("PYTHONPATH")) if p)
    return env
