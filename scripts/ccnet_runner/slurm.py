"""The Slurm backend: one job array (`sbatch --array`), a task per point or per chunk of points.

Each task runs `python3 -m ccnet_runner task PLAN INDEX` (see __main__.py), which runs its points
exactly as the local backend does and leaves the same files in their directories; the runner
follows the array with `squeue`, counts the run records that appear, and when the array has left
the queue asks `sacct` (or, without accounting, `scontrol show job`) how the tasks that left no
result ended. The sweep directory, the configs and the ccnet binary must be on a filesystem
that the compute nodes share with the submitting machine.
"""
import json
import math
import os
import re
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass, field

from . import execute
from .points import Point

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class SlurmError(RuntimeError):
    pass


class Detached(Exception):
    """The runner stopped following a job that keeps running (Ctrl-C, or --no-wait)."""

    def __init__(self, job, results):
        super().__init__(job)
        self.job, self.results = job, results


@dataclass
class SlurmOptions:
    partition: str = None
    time: str = None           # sbatch --time, per task
    mem: str = None            # sbatch --mem, per task
    per_task: int = 1          # points per array task
    max_running: int = None    # array throttle (--array=...%N)
    extra: list = field(default_factory=list)  # further sbatch arguments, passed as given
    poll: float = 10.0         # seconds between squeue polls
    wait: bool = True          # follow the job to its end (else submit and return)
    grace: float = 30.0        # how long to wait for results of tasks that completed (shared filesystems lag)


def _slurm(cmd, check=True):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True)
    except FileNotFoundError:
        raise SlurmError(f"{cmd[0]} not found: the slurm backend needs Slurm's commands (Debian: slurm-client) "
                         "and a cluster to submit to")
    if check and r.returncode != 0:
        raise SlurmError(f"{cmd[0]} failed: {(r.stderr or r.stdout).strip()}")
    return r


def max_array_size():
    r = _slurm(["scontrol", "show", "config"], check=False)
    m = re.search(r"^MaxArraySize\s*=\s*(\d+)", r.stdout, re.M)
    return int(m.group(1)) if m else 1001


class SlurmBackend:
    def __init__(self, state_dir, opts, label="sweep"):
        self.dir = os.path.join(state_dir, "slurm")
        self.opts, self.label = opts, label
        self.active_path = os.path.join(self.dir, "active.json")

    # ---- submission ------------------------------------------------------------------------
    def submit(self, points, ccnet, ccnet_sha, progress):
        """Submits the array; returns (job id, points per task)."""
        os.makedirs(os.path.join(self.dir, "logs"), exist_ok=True)
        per_task = max(1, self.opts.per_task)
        limit = max_array_size()
        if math.ceil(len(points) / per_task) > limit:
            asked, per_task = per_task, math.ceil(len(points) / limit)
            progress.line(f"{len(points)} points at {asked} per task would exceed the cluster's MaxArraySize {limit}: "
                          f"{per_task} points per task")
        tasks = math.ceil(len(points) / per_task)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        plan = os.path.join(self.dir, f"plan-{stamp}-{os.getpid()}.json")
        with open(plan, "w") as f:
            json.dump({"ccnet": ccnet, "ccnet_sha256": ccnet_sha, "per_task": per_task,
                       "points": [p.to_json() for p in points]}, f, indent=1)
        script = os.path.join(self.dir, "task.sh")
        with open(script, "w") as f:
            f.write("#!/bin/sh\n# One array task of a ccnet sweep: runs points INDEX*per_task.. of the plan "
                    "(scripts/ccnet_runner).\n"
                    f"export PYTHONPATH={shlex.quote(SCRIPTS)}${{PYTHONPATH:+:$PYTHONPATH}}\n"
                    f"exec {shlex.quote(sys.executable)} -m ccnet_runner task \"$1\" \"$SLURM_ARRAY_TASK_ID\"\n")
        os.chmod(script, 0o755)
        for p in points:
            execute.prepare(p)
        array = f"0-{tasks - 1}" + (f"%{self.opts.max_running}" if self.opts.max_running else "")
        cmd = ["sbatch", "--parsable", f"--array={array}", f"--job-name=ccnet-{self.label}",
               f"--output={self.dir}/logs/%A_%a.out", "--open-mode=append", "--ntasks=1"]
        for opt, val in (("--partition", self.opts.partition), ("--time", self.opts.time), ("--mem", self.opts.mem)):
            if val:
                cmd.append(f"{opt}={val}")
        cmd += list(self.opts.extra) + [script, plan]
        job = _slurm(cmd).stdout.strip().split(";")[0]
        if not job.isdigit():
            raise SlurmError(f"sbatch printed {job!r}, not a job id")
        with open(self.active_path, "w") as f:
            json.dump({"job": job, "plan": plan, "sbatch": cmd, "submitted": time.time()}, f, indent=1)
        progress.line(f"submitted job array {job}: {tasks} task(s) of {per_task} point(s) "
                      f"({' '.join(cmd[1:-2])}); follow it with: squeue -j {job}")
        return job, per_task

    # ---- an earlier invocation's job -------------------------------------------------------
    def active(self):
        """(job, plan points, per_task) of a job this sweep submitted that is still queued or running."""
        try:
            with open(self.active_path) as f:
                a = json.load(f)
            with open(a["plan"]) as f:
                plan = json.load(f)
        except (OSError, ValueError, KeyError):
            return None
        if self.task_states(a["job"]):
            return a["job"], [Point.from_json(p) for p in plan["points"]], plan["per_task"]
        os.remove(self.active_path)
        return None

    # ---- following -------------------------------------------------------------------------
    def task_states(self, job):
        """{array task index: state} of the job's tasks still in the queue ({} once it has left)."""
        r = _slurm(["squeue", "-h", "-r", "-j", str(job), "-o", "%K %T"], check=False)
        if r.returncode != 0:
            if "Invalid job id" in r.stderr:
                return {}
            raise SlurmError(f"squeue failed: {r.stderr.strip()}")
        states = {}
        for ln in r.stdout.split("\n"):
            parts = ln.split()
            if len(parts) == 2 and parts[0].isdigit():
                states[int(parts[0])] = parts[1]
        return states

    def final_states(self, job):
        """{array task index: final state} from sacct, or from scontrol where accounting is off."""
        r = _slurm(["sacct", "-n", "-P", "-X", "-j", str(job), "-o", "JobID,State"], check=False)
        states = {}
        if r.returncode == 0:
            for ln in r.stdout.splitlines():
                m = re.match(rf"{job}_(\d+)\|(\S+)", ln)
                if m:
                    states[int(m.group(1))] = m.group(2)
        if not states:
            r = _slurm(["scontrol", "show", "job", "-o", str(job)], check=False)
            for ln in r.stdout.splitlines():
                t, s = re.search(r"\bArrayTaskId=(\d+)\b", ln), re.search(r"\bJobState=(\S+)", ln)
                if t and s:
                    states[int(t.group(1))] = s.group(1)
        return states

    def follow(self, job, points, per_task, ccnet_sha, progress):
        """Waits for the array to leave the queue; returns {name: PointResult} for `points`."""
        pending = {p.name: (i // per_task, p) for i, p in enumerate(points)}
        results = {}

        def collect():
            for name, (task, p) in list(pending.items()):
                rec = execute.read_record(p.out)
                if rec is None:
                    continue
                ok = rec.get("status") == "ok" and rec.get("ccnet_sha256") == ccnet_sha
                stats = execute.load_stats(p.out) if ok else None
                r = execute.PointResult(name, "ok" if stats else "failed",
                                        "" if stats else rec.get("error") or "no readable stats.json",
                                        rec.get("seconds", 0.0), stats=stats)
                results[name] = r
                del pending[name]
                progress.finished(r)

        failures_since = None
        try:
            while True:
                try:
                    states = self.task_states(job)
                    failures_since = None
                except SlurmError as e:
                    # A controller restart or a network hiccup must not lose a sweep that runs for hours.
                    failures_since = failures_since or time.time()
                    if time.time() - failures_since > 600:
                        raise SlurmError(f"{e} (for 10 minutes); job {job} may still be running: run the same "
                                         "command again to follow it")
                    states = None
                if states is not None:
                    progress.set_running(sum(1 for s in states.values() if s in ("RUNNING", "COMPLETING")))
                collect()
                if states == {}:
                    break
                deadline = time.time() + self.opts.poll
                while time.time() < deadline:
                    progress.draw()
                    time.sleep(min(0.25, self.opts.poll))
            progress.set_running(0)
            final = self.final_states(job)
            deadline = time.time() + self.opts.grace
            while pending and time.time() < deadline and any(
                    final.get(task, "COMPLETED") == "COMPLETED" for task, _ in pending.values()):
                time.sleep(1)
                collect()
            for name, (task, p) in list(pending.items()):
                log = os.path.join(self.dir, "logs", f"{job}_{task}.out")
                tail = ""
                try:
                    with open(log, errors="replace") as f:
                        lines = [ln.strip() for ln in f if ln.strip()]
                    tail = f"; {lines[-1]}" if lines else ""
                except OSError:
                    pass
                r = execute.PointResult(name, "failed",
                                        f"no result: Slurm task {job}_{task} ended {final.get(task, 'in an unknown state')} "
                                        f"(log {log}){tail}")
                results[name] = r
                progress.finished(r)
            try:
                os.remove(self.active_path)
            except FileNotFoundError:
                pass
        except KeyboardInterrupt:
            raise Detached(job, results)
        return results


def run_task(plan_path, index):
    """Body of one array task: runs its share of the plan's points, skipping any this task
    already finished (Slurm may requeue a task); exit status 1 if one of them failed."""
    with open(plan_path) as f:
        plan = json.load(f)
    k = plan["per_task"]
    points = [Point.from_json(p) for p in plan["points"][index * k:(index + 1) * k]]
    task_id = f"{os.environ.get('SLURM_ARRAY_JOB_ID', '?')}_{os.environ.get('SLURM_ARRAY_TASK_ID', index)}"
    failed = 0
    for p in points:
        rec = execute.read_record(p.out)
        if rec and rec.get("status") == "ok" and rec.get("ccnet_sha256") == plan["ccnet_sha256"]:
            print(f"{p.name}: done before a requeue, not run again", flush=True)
            continue
        print(f"{p.name}: running", flush=True)
        r = execute.run_blocking(p, plan["ccnet"], plan["ccnet_sha256"], slurm_task=task_id)
        print(f"{p.name}: {r.status} ({r.seconds:.1f} s){': ' + r.error if r.error else ''}", flush=True)
        failed += not r.ok
    return 1 if failed else 0
