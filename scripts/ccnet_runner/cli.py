"""Command-line options every script that runs points shares (docs/sweeps.md)."""
import os
import sys

from .points import Point
from .runner import BACKENDS, Runner
from .slurm import SlurmOptions

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def ccnet_binary(build=None, ccnet=None):
    path = ccnet or os.path.join(build or os.path.join(ROOT, "build"), "ccnet")
    if not os.path.exists(path):
        sys.exit(f"{path} not found: build first (cmake --build --preset default --target ccnet)")
    return os.path.abspath(path)


def add_runner_options(ap):
    g = ap.add_argument_group("running (docs/sweeps.md)")
    g.add_argument("--backend", choices=BACKENDS, default="local",
                   help="where the runs go: this machine (default) or a Slurm job array")
    g.add_argument("--jobs", type=int, default=None,
                   help="local: runs at a time (default: all cores); slurm: array tasks running at a time")
    g.add_argument("--fresh", action="store_true",
                   help="run every point again, even those whose results match (default: reuse them)")
    g.add_argument("--build", default=None, help="build directory holding ccnet (default: build/)")
    g.add_argument("--ccnet", default=None, help="the ccnet binary (default: BUILD/ccnet)")
    s = ap.add_argument_group("slurm backend")
    s.add_argument("--partition", help="sbatch --partition")
    s.add_argument("--time", help="time limit per array task (sbatch --time, e.g. 12:00:00)")
    s.add_argument("--mem", help="memory per array task (sbatch --mem, e.g. 4G)")
    s.add_argument("--per-task", type=int, default=1, help="points per array task (default 1)")
    s.add_argument("--slurm-arg", action="append", default=[], metavar="ARG",
                   help="further sbatch argument, passed as given (repeatable), e.g. --slurm-arg=--account=net")
    s.add_argument("--poll", type=float, default=10.0, help="seconds between squeue polls (default 10)")
    s.add_argument("--no-wait", action="store_true",
                   help="submit and return; the same command run again follows the job and collects its results")


def runner_from_args(args, state_dir, label):
    if args.jobs is not None and args.jobs < 1:
        sys.exit(f"{label}: --jobs must be at least 1")
    if args.per_task < 1:
        sys.exit(f"{label}: --per-task must be at least 1")
    slurm = SlurmOptions(partition=args.partition, time=args.time, mem=args.mem, per_task=args.per_task,
                         extra=list(args.slurm_arg), poll=args.poll, wait=not args.no_wait)
    return Runner(ccnet_binary(args.build, args.ccnet), state_dir, backend=args.backend, jobs=args.jobs,
                  fresh=args.fresh, slurm=slurm, label=label)


def run_or_exit(runner, points):
    """Runs the points for a script that needs all of their results (the experiment scripts):
    exits with the runner's status unless every point has a result."""
    try:
        outcome = runner.run(points)
    except (RuntimeError, ValueError) as e:
        sys.exit(f"{runner.label}: {e}")
    if not outcome.complete or outcome.failed:
        sys.exit(outcome.exit_code or 1)
    return outcome


def run_experiments(runner, described):
    """Runs the experiments' runs as one batch (one job array on Slurm) and hands back their
    results. described: [(experiment, [(key, config, sets, out_dir), ...])]; returns
    {experiment: {key: stats.json contents}} in the order given. Exits unless all succeeded."""
    points = [Point(name=f"{exp}/{key}", config=os.path.abspath(cfg), out=os.path.abspath(out), sets=list(sets))
              for exp, runs in described for key, cfg, sets, out in runs]
    outcome = run_or_exit(runner, points)
    return {exp: {key: outcome.stats(f"{exp}/{key}") for key, *_ in runs} for exp, runs in described}
