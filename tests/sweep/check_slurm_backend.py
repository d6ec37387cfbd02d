#!/usr/bin/python3
"""The slurm backend on a real (private, one-node) Slurm cluster: slurmctld + slurmd from Debian's
slurm-wlm on 127.0.0.1 (tests/sweep/private_slurm.py). No mock of Slurm.

  1. a 12-point sweep gives the same CSV as the local backend, perf columns aside, and every
     point ran inside a Slurm array task (3 per task: 2 asked for would exceed MaxArraySize);
  2. one array task is cancelled (scancel) while its ccnet runs: the sweep reports that point
     failed, marks it in the CSV and exits 1; the same command again runs only that point (a new
     one-task array), leaves the other points' files untouched (stats.json byte-identical,
     perf included) and ends with every point ok; a wrapper around ccnet that logs every
     `ccnet run` shows that no finished point ran twice;
  3. --no-wait submits and returns; a local run in that directory is refused while the job is
     active; the same command again follows the job to its end and submits nothing new;
  4. the daemons are stopped by their pids.

  check_slurm_backend.py ROOT CCNET WORKDIR       (exit 77: skipped, the daemons cannot run here)
"""
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

root, ccnet, work = (os.path.abspath(a) for a in sys.argv[1:4])
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(root, "scripts"))
from private_slurm import CannotRun, PrivateSlurm, missing_commands, pids_running  # noqa: E402
from ccnet_runner import PERF_COLUMNS  # noqa: E402

SWEEP = os.path.join(root, "scripts/sweep")
QUICK = os.path.join(root, "configs/examples/quickstart.yaml")
failures = []


def check(cond, what):
    print(f"  [{'ok' if cond else 'FAIL'}] {what}", flush=True)
    if not cond:
        failures.append(what)


def read_csv(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return [{k: v for k, v in r.items() if k not in PERF_COLUMNS} for r in rows]


def snapshot(d):
    with open(os.path.join(d, "stats.json"), "rb") as f, open(os.path.join(d, "run.json"), "rb") as g:
        return f.read(), g.read()


missing = missing_commands()
if missing:
    sys.exit(f"{', '.join(missing)} not found: install Debian's slurm-wlm (scripts/setup does)")
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
# Every `ccnet run` leaves a line with its output directory: the witness that nothing ran twice.
wrapper = os.path.join(work, "ccnet")
invocations = os.path.join(work, "invocations.log")
with open(wrapper, "w") as f:
    f.write(f"#!/bin/sh\n[ \"$1\" = run ] && echo \"$4\" >> '{invocations}'\nexec '{ccnet}' \"$@\"\n")
os.chmod(wrapper, 0o755)

# The cluster lives in a short temporary path: slurmstepd puts Unix sockets in its spool
# directory, and a socket path has at most 107 characters. Its logs are kept in WORKDIR/cluster.
# MaxArraySize=5: the 12-point sweep asked for 2 points per task (6 tasks) gets 3 per task.
cluster = PrivateSlurm(tempfile.mkdtemp(prefix="ccnet-slurm-"), cpus=8, extra=["MaxArraySize=5"])
t0 = time.time()


def keep_logs():
    os.makedirs(os.path.join(work, "cluster"), exist_ok=True)
    for f in os.listdir(cluster.dir):
        if f.endswith((".log", ".stderr", ".conf")):
            shutil.copy(os.path.join(cluster.dir, f), os.path.join(work, "cluster"))
    shutil.rmtree(cluster.dir, ignore_errors=True)


try:
    cluster.start()
except CannotRun as e:
    keep_logs()
    print(f"SKIP: cannot run Slurm daemons on this machine: {e}")
    sys.exit(77)
except BaseException:
    keep_logs()
    raise
try:
    pids = cluster.pids()
    print(f"cluster up in {time.time() - t0:.1f} s: slurmctld pid {pids['slurmctld']}, slurmd pid {pids['slurmd']}, "
          f"SLURM_CONF={cluster.conf}", flush=True)

    def sweep(out, *extra, background=False):
        cmd = [SWEEP, QUICK, "--out", out, "--ccnet", wrapper, "--poll", "0.3"] + list(extra)
        if background:
            return subprocess.Popen(cmd, env=cluster.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        t = time.time()
        r = subprocess.run(cmd, env=cluster.env, capture_output=True, text=True)
        print(f"$ {' '.join(cmd[1:])}  ({time.time() - t:.1f} s, exit {r.returncode})\n{r.stderr}{r.stdout}", flush=True)
        return r

    # 1. The same sweep on both backends.
    grid = ["--vary", "traffic.classes[0].rate=0.1,0.2,0.3", "--vary", "cc={mechanism: baseline};{mechanism: ecn}",
            "--seeds", "1,2", "--set", "sim.measure=3000"]
    local, slurm = os.path.join(work, "local"), os.path.join(work, "slurm")
    r_local = sweep(local, *grid)
    r_slurm = sweep(slurm, *grid, "--backend", "slurm", "--per-task", "2")
    check(r_local.returncode == 0 and r_slurm.returncode == 0, "both sweeps succeed")
    a, b = read_csv(os.path.join(local, "sweep.csv")), read_csv(os.path.join(slurm, "sweep.csv"))
    check(len(a) == 12 and all(r["status"] == "ok" for r in a), "local CSV: 12 points ok")
    check(a == b, "the slurm backend's CSV equals the local backend's (perf columns aside)")
    tasks = set()
    for row in b:
        with open(os.path.join(slurm, row["point"], "run.json")) as f:
            tasks.add(json.load(f)["slurm_task"])
    check("12 points at 2 per task would exceed the cluster's MaxArraySize 5: 3 points per task" in r_slurm.stderr and len(tasks) == 4
          and None not in tasks, f"the 12 points ran in 4 Slurm array tasks of 3, not 6 of 2 (MaxArraySize 5): "
          f"{sorted(map(str, tasks))}")

    # 2. Cancel one task mid-run, then run the same command again.
    out = os.path.join(work, "resume")
    cmd = ["--vary", "sim.measure=2000,3000,4000,250000", "--backend", "slurm"]
    long_dir = os.path.join(out, "measure-250000_seed1")
    first = sweep(out, *cmd, background=True)
    job, deadline = None, time.time() + 60
    while time.time() < deadline and first.poll() is None:
        try:
            with open(os.path.join(out, ".runner/slurm/active.json")) as f:
                job = json.load(f)["job"]
        except (OSError, ValueError):
            pass
        started = os.path.exists(invocations) and long_dir in open(invocations).read()
        if job and started:
            state = subprocess.run(["squeue", "-h", "-j", f"{job}_3", "-o", "%T"], env=cluster.env,
                                   capture_output=True, text=True).stdout.strip()
            if state == "RUNNING":
                break
        time.sleep(0.1)
    check(job is not None and first.poll() is None, f"the long point started in array task {job}_3")
    subprocess.run(["scancel", f"{job}_3"], env=cluster.env, check=True)
    print(f"$ scancel {job}_3", flush=True)
    text, _ = first.communicate(timeout=120)
    print(f"first run (exit {first.returncode}):\n{text}", flush=True)
    check(first.returncode == 1, "a sweep with a cancelled task exits 1")
    check(f"FAILED measure-250000_seed1: no result: Slurm task {job}_3 ended CANCELLED" in text,
          "the cancelled point is reported with its Slurm task and state")
    rows = {r["point"]: r for r in read_csv(os.path.join(out, "sweep.csv"))}
    check(rows["measure-250000_seed1"]["status"] == "failed" and "CANCELLED" in rows["measure-250000_seed1"]["error"]
          and all(r["status"] == "ok" for p, r in rows.items() if p != "measure-250000_seed1"),
          "the CSV marks the cancelled point failed, the other 3 ok")
    done = [p for p in rows if p != "measure-250000_seed1"]
    before = {p: snapshot(os.path.join(out, p)) for p in done}
    second = sweep(out, *cmd)
    check(second.returncode == 0, "the same command again completes the sweep")
    check("4 points, 3 done before (reused), 1 to run" in second.stderr and "1 task(s) of 1 point(s)" in second.stderr,
          "the second run reuses 3 points and submits a one-task array for the fourth")
    check(all(r["status"] == "ok" for r in read_csv(os.path.join(out, "sweep.csv"))), "every point ok in the CSV")
    check(all(snapshot(os.path.join(out, p)) == before[p] for p in done),
          "stats.json and run.json of the finished points are byte-identical (perf included: not run again)")
    with open(invocations) as f:
        runs = [ln.strip() for ln in f if ln.strip().startswith(out + "/")]
    counts = {p: runs.count(os.path.join(out, p)) for p in rows}
    check(all(counts[p] == 1 for p in done) and counts["measure-250000_seed1"] == 2,
          f"`ccnet run` count per point over both runs: {counts} (the cancelled one twice, the others once)")
    left = pids_running(long_dir)
    check(not left, f"no ccnet of the cancelled task left running ({left})")

    # 3. Submit and leave (--no-wait); a local run there is refused; the same command follows the job.
    out = os.path.join(work, "detached")
    cmd = ["--vary", "sim.measure=2000,100000", "--backend", "slurm"]
    r = sweep(out, *cmd, "--no-wait")
    check(r.returncode == 0 and "keeps running" in r.stderr and not os.path.exists(os.path.join(out, "sweep.csv")),
          "--no-wait: submits, exits 0, no CSV yet")
    r = sweep(out, "--vary", "sim.measure=2000,100000")
    check(r.returncode == 1 and "is still queued or running" in r.stderr,
          "a local run in the directory of an active Slurm job is refused")
    r = sweep(out, *cmd)
    check(r.returncode == 0 and "submitted by an earlier run of this sweep, is still in the queue: following it"
          in r.stderr and "2 done before (reused), nothing to run" in r.stderr and "submitted job array" not in r.stderr,
          "the same command again follows the earlier job to its end and submits nothing")
finally:
    procs = list(cluster.procs.values())
    cluster.stop()
    keep_logs()
check(all(p.poll() is not None for p in procs), "slurmctld and slurmd stopped by their pids")
print(f"slurm backend test: {time.time() - t0:.1f} s")
if failures:
    sys.exit(f"{len(failures)} check(s) failed")
print("all checks passed")
