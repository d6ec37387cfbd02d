"""ccnet's experiment runner (docs/sweeps.md): every script that runs ccnet describes its runs as
points and hands them to a Runner, which reuses finished points, runs the rest on this machine
or as a Slurm job array, shows progress and collects stats.json.

    from ccnet_runner import Point, Runner, grid, write_csv
    points = grid("configs/examples/mesh8x8_ur.yaml", [("traffic.classes[0].rate", ["0.1", "0.2"])], "out/s")
    outcome = Runner(ccnet, "out/s").run(points)      # or Runner(..., backend="slurm")
    write_csv("out/s/sweep.csv", ["traffic.classes[0].rate"], points, outcome.results)

Scripts add the shared options with cli.add_runner_options and build the Runner with
cli.runner_from_args. Modules: points (points, grids, plan files), execute (one run, run
records, reuse), local and slurm (backends), progress, results (stats helpers, CSV), runner.
"""
import os

from .cli import ROOT, add_runner_options, ccnet_binary, run_experiments, run_or_exit, runner_from_args
from .execute import RunError, binary_id, run_blocking
from .points import Point, grid, load_plan, parse_seeds, parse_vary
from .results import PERF_COLUMNS, get, without_perf, write_csv
from .runner import Outcome, Runner
from .slurm import SlurmOptions


def run_one(ccnet, config, out, sets=(), seed=None, args=()):
    """Runs one simulation now (never reused: tests compare fresh runs) and returns its parsed
    stats.json; raises RunError with ccnet's own message if it fails."""
    p = Point(name=os.path.basename(os.path.normpath(out)), config=os.path.abspath(config), out=os.path.abspath(out),
              sets=list(sets), seed=seed, args=list(args))
    r = run_blocking(p, os.path.abspath(ccnet), binary_id(ccnet))
    if not r.ok:
        raise RunError(f"{' '.join([ccnet, 'run', config] + [a for s in p.overrides() for a in ('--set', s)])}: {r.error}")
    return r.stats


__all__ = ["ROOT", "Point", "Runner", "Outcome", "SlurmOptions", "RunError", "grid", "load_plan", "parse_seeds",
           "parse_vary", "write_csv", "get", "without_perf", "PERF_COLUMNS", "run_one", "ccnet_binary",
           "add_runner_options", "runner_from_args", "run_or_exit", "run_experiments"]
