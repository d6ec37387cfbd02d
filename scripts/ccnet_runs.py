"""Shared helpers for the experiment scripts: run ccnet configs (in parallel), read results."""
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOT_DRAINED = 4  # ccnet's exit status for a run that wrote results but did not drain (docs/outputs.md)


def ccnet_binary(build=None):
    path = os.path.join(build or os.path.join(ROOT, "build"), "ccnet")
    if not os.path.exists(path):
        sys.exit(f"{path} not found: build first (cmake --build --preset default --target ccnet)")
    return path


def run_one(ccnet, config, sets, out_dir, seed=None):
    """Runs one simulation; returns the parsed stats.json. Raises on failure with ccnet's message."""
    os.makedirs(out_dir, exist_ok=True)
    cmd = [ccnet, "run", config, "--out", out_dir, "-q"]
    for s in sets:
        cmd += ["--set", s]
    if seed is not None:
        cmd += ["--seed", str(seed)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    # Exit 4: results written, but the network did not drain (saturated: drained is false).
    if r.returncode not in (0, NOT_DRAINED):
        raise RuntimeError(f"ccnet failed ({' '.join(cmd)}):\n{r.stderr.strip()}")
    with open(os.path.join(out_dir, "stats.json")) as f:
        return json.load(f)


def run_many(ccnet, jobs, parallel=None):
    """jobs: list of (name, config, sets, out_dir). Returns {name: stats}."""
    parallel = parallel or max(1, os.cpu_count() or 1)
    with ThreadPoolExecutor(max_workers=parallel) as pool:
        futs = {name: pool.submit(run_one, ccnet, cfg, sets, out) for name, cfg, sets, out in jobs}
        return {name: f.result() for name, f in futs.items()}


def get(d, path):
    """d['a']['b'] for path 'a.b'."""
    for k in path.split("."):
        d = d[k]
    return d
