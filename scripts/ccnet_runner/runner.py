"""The runner: reuses finished points, runs the others on a backend, shows progress, sums up."""
import fcntl
import os
import signal
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from . import execute
from .local import Interrupted, run_local
from .progress import Progress, duration
from .slurm import Detached, SlurmBackend, SlurmError, SlurmOptions

BACKENDS = ("local", "slurm")


def _terminate(signum, frame):
    """SIGTERM stops a sweep as Ctrl-C does: running ccnet processes are stopped, results kept."""
    raise KeyboardInterrupt


class Outcome:
    """Results of a run of the runner, in the points' order. `complete`: every point has a
    result (ok or failed); not so after an interruption or when a Slurm job was left running."""

    def __init__(self, points, results, complete, exit_code, job=None):
        self.points, self.results, self.complete, self.exit_code, self.job = points, results, complete, exit_code, job

    @property
    def failed(self):
        return [r for r in self.results.values() if not r.ok]

    def stats(self, name):
        return self.results[name].stats


class Runner:
    """Runs points (ccnet_runner.points) on the local machine or a Slurm cluster.

    state_dir holds the runner's own files (lock, Slurm plans, task logs) in `.runner/`.
    A point whose earlier result is reusable (execute.reusable) is not run again unless fresh."""

    def __init__(self, ccnet, state_dir, backend="local", jobs=None, fresh=False, slurm=None, label="sweep",
                 stream=None, interactive=None):
        if backend not in BACKENDS:
            raise ValueError(f"unknown backend {backend!r} (one of {', '.join(BACKENDS)})")
        self.ccnet = os.path.abspath(ccnet)
        self.state = os.path.join(os.path.abspath(state_dir), ".runner")
        self.backend, self.jobs, self.fresh = backend, jobs, fresh
        self.slurm = slurm or SlurmOptions()
        if jobs and backend == "slurm" and not self.slurm.max_running:
            self.slurm.max_running = jobs
        self.label = label
        self.stream = stream or sys.stderr
        self.interactive = interactive

    def _say(self, text):
        self.stream.write(f"{self.label}: {text}\n")
        self.stream.flush()

    def _lock(self):
        os.makedirs(self.state, exist_ok=True)
        fd = os.open(os.path.join(self.state, "lock"), os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 100).decode(errors="replace").strip()
            os.close(fd)
            raise RuntimeError(f"another runner is working in {os.path.dirname(self.state)} (pid {holder or '?'}); "
                               "two runs of one sweep at once would run points twice")
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        return fd

    def run(self, points):
        names = [p.name for p in points]
        if len(set(names)) != len(names):
            raise ValueError("point names are not unique")
        outs = [os.path.abspath(p.out) for p in points]
        if len(set(outs)) != len(outs):
            raise ValueError("two points share an output directory")
        lock = self._lock()
        old_term = signal.signal(signal.SIGTERM, _terminate)
        try:
            return self._run(points)
        except KeyboardInterrupt:  # before any point started (backends handle their own)
            self.stream.write("\n")
            self._say("interrupted before any point ran")
            return Outcome(points, {}, False, 130)
        finally:
            signal.signal(signal.SIGTERM, old_term)
            os.close(lock)

    def _run(self, points):
        t0 = time.time()
        sha = execute.binary_id(self.ccnet)
        backend = SlurmBackend(self.state, self.slurm, self.label)
        results = {}
        try:
            earlier = backend.active()
        except SlurmError as e:
            if self.backend == "slurm":
                raise
            earlier = None
            self._say(f"cannot ask Slurm about this sweep's earlier job ({e}); running locally")
        if earlier and self.backend != "slurm":
            job = earlier[0]
            raise RuntimeError(f"Slurm job {job} of this sweep is still queued or running: follow it with "
                               f"--backend slurm (the same command), or cancel it (scancel {job})")
        progress = None
        if earlier:
            job, plan_points, per_task = earlier
            if not self.slurm.wait:
                return self._detached(points, Detached(job, {}), None)
            progress = Progress(len(plan_points), 0, self.label, self.stream, self.interactive)
            progress.line(f"job array {job}, submitted by an earlier run of this sweep, is still in the queue: "
                          f"following it ({len(plan_points)} points)")
            try:
                backend.follow(job, plan_points, per_task, sha, progress)
            except Detached as d:
                return self._detached(points, d, progress)
            progress.close()
        todo = list(points)
        if not self.fresh:
            with ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 1)) as pool:
                found = list(pool.map(lambda p: execute.reusable(p, self.ccnet, sha), points))
            results = {r.name: r for r in found if r}
            todo = [p for p in points if p.name not in results]
        progress = Progress(len(points), len(results), self.label, self.stream, self.interactive)
        where = (f"{self.jobs or os.cpu_count() or 1} at a time on this machine" if self.backend == "local"
                 else "as a Slurm job array")
        progress.line(f"{len(points)} points" + (f", {len(results)} done before (reused)" if results else "")
                      + (f", {len(todo)} to run {where}" if todo else ", nothing to run"))
        try:
            if todo and self.backend == "local":
                results.update(run_local(todo, self.ccnet, sha, self.jobs or os.cpu_count() or 1, progress))
            elif todo:
                job, per_task = backend.submit(todo, self.ccnet, sha, progress)
                if not self.slurm.wait:
                    raise Detached(job, {})
                results.update(backend.follow(job, todo, per_task, sha, progress))
        except Interrupted as e:
            results.update(e.args[0])
            progress.close()
            self._say(f"interrupted: {sum(r.ok for r in results.values())} of {len(points)} points have results; "
                      "run the same command again to run the rest")
            return Outcome(points, results, False, 130)
        except Detached as d:
            d.results.update(results)
            return self._detached(points, d, progress)
        progress.close()
        failed = [r for r in results.values() if not r.ok]
        reused = sum(r.reused for r in results.values())
        self._say(f"{len(points)} points: {len(points) - len(failed)} ok"
                  + (f" ({reused} from earlier runs)" if reused else "")
                  + (f", {len(failed)} FAILED" if failed else "") + f", {duration(time.time() - t0)}")
        if failed:
            self._say("failed points (ccnet's output is in each one's ccnet.log; run the same command again to "
                      "retry them):")
            for r in failed:
                self.stream.write(f"  {r.name}: {r.error}\n")
        return Outcome(points, results, True, 1 if failed else 0)

    def _detached(self, points, d, progress):
        if progress:
            progress.close()
        self._say(f"Slurm job array {d.job} keeps running (squeue -j {d.job}; scancel {d.job} to stop it). Run the "
                  "same command again to follow it and collect its results")
        return Outcome(points, d.results, False, 0 if not self.slurm.wait else 130, job=d.job)


__all__ = ["Runner", "Outcome", "SlurmOptions", "SlurmError", "BACKENDS"]
