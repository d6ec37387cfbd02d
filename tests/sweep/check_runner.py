#!/usr/bin/python3
"""The experiment runner on this machine (scripts/ccnet_runner, scripts/sweep; docs/sweeps.md):

  1. grids: names by values, labels that tell apart keys sharing a last component, seed ranges,
     name collisions and plan-file mistakes rejected;
  2. resume: the same sweep again runs nothing; a config edit that changes the effective config
     reruns exactly the affected points, a comment edit none; a different ccnet binary reruns
     all; --fresh reruns all;
  3. a failing point: ccnet's own message in the summary and the CSV, the others' results kept,
     exit status 1;
  4. interruption: SIGINT stops the running ccnet processes, exit 130; the same command again
     finishes the sweep without running the finished points again; a second runner on the same
     directory is refused while the first works;
  5. progress: a redrawn bar with done/failed/running counts and an ETA on a terminal (pty),
     plain lines otherwise;
  6. a plan file runs several sweeps as one and writes a CSV per sweep.

  check_runner.py ROOT CCNET WORKDIR
"""
import csv
import glob
import os
import pty
import shutil
import signal
import subprocess
import sys
import time

root, ccnet, work = (os.path.abspath(a) for a in sys.argv[1:4])
sys.path.insert(0, os.path.join(root, "scripts"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ccnet_runner import grid, load_plan, parse_seeds  # noqa: E402
from private_slurm import pids_running  # noqa: E402

SWEEP = os.path.join(root, "scripts/sweep")
failures = []


def check(cond, what):
    print(f"  [{'ok' if cond else 'FAIL'}] {what}", flush=True)
    if not cond:
        failures.append(what)


def raises(fn, text):
    try:
        fn()
    except ValueError as e:
        return text in str(e)
    return False


def wrapper(name, body=""):
    """A ccnet that logs each `ccnet run` output directory (then runs the real one)."""
    path = os.path.join(work, name)
    with open(path, "w") as f:
        f.write(f"#!/bin/sh\n{body}[ \"$1\" = run ] && echo \"$4\" >> '{work}/runs.log'\nexec '{ccnet}' \"$@\"\n")
    os.chmod(path, 0o755)
    return path


def runs(out):
    """Output directories under `out` that `ccnet run` was started for since the last call."""
    log = os.path.join(work, "runs.log")
    if not os.path.exists(log):
        return []
    with open(log) as f:
        lines = [ln.strip() for ln in f if ln.strip()]
    os.remove(log)
    return sorted(os.path.relpath(ln, out) for ln in lines if ln.startswith(out + "/"))


def sweep(*args, binary=None):
    cmd = [SWEEP] + list(args) + ["--ccnet", binary or CCNET]
    r = subprocess.run(cmd, capture_output=True, text=True)
    print(f"$ sweep {' '.join(args)}  (exit {r.returncode})\n{r.stderr}", flush=True)
    return r


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
CCNET = wrapper("ccnet")
t0 = time.time()

# 1. Grids.
pts = grid(os.path.join(root, "configs/examples/quickstart.yaml"),
           [("traffic.classes[0].rate", ["0.1", "0.2"]), ("traffic.classes[1].rate", ["0.3"]),
            ("cc", ["{mechanism: ecn, timer: 300}"])], "/tmp/g", ["sim.measure=10"], [1, 2])
check([p.name for p in pts][:2] == ["classes[0].rate-0.1_classes[1].rate-0.3_cc-mechanism:ecn,timer:300_seed1",
                                    "classes[0].rate-0.1_classes[1].rate-0.3_cc-mechanism:ecn,timer:300_seed2"],
      f"points named by their values, keys with a shared last component told apart ({pts[0].name})")
check(pts[0].overrides() == ["sim.measure=10", "traffic.classes[0].rate=0.1", "traffic.classes[1].rate=0.3",
                             "cc={mechanism: ecn, timer: 300}", "seed=1"], f"overrides in order ({pts[0].overrides()})")
check(parse_seeds("1,3-5") == [1, 3, 4, 5] and raises(lambda: parse_seeds("2,1-3"), "listed twice"),
      "seeds: lists and ranges, duplicates rejected")
check(raises(lambda: grid("x.yaml", [("a", ["x/y", "x-y"])], "/tmp/g"), "the same name"),
      "two points that would share a directory name are rejected")
bad_plan = os.path.join(work, "bad.yaml")
with open(bad_plan, "w") as f:
    f.write("sweeps:\n  - {name: a, config: nowhere.yaml}\n")
check(raises(lambda: load_plan(bad_plan, "/tmp/g"), "config") and
      raises(lambda: load_plan(os.path.join(root, "configs/papers/paper003/full/figures.plan.yaml"), "/tmp/g", only=["x"]),
             "no sweep named x"), "plan-file mistakes name the file and the sweep")

# 2. Resume.
config = os.path.join(work, "mesh.yaml")
shutil.copy(os.path.join(root, "configs/examples/quickstart.yaml"), config)
out = os.path.join(work, "resume")
grid_args = [config, "--out", out, "--vary", "traffic.classes[0].rate=0.1,0.2", "--seeds", "1,2",
             "--set", "sim.measure=2000"]
names = ["rate-0.1_seed1", "rate-0.1_seed2", "rate-0.2_seed1", "rate-0.2_seed2"]
r = sweep(*grid_args)
check(r.returncode == 0 and runs(out) == names, "first run: 4 points run")
first = rows(os.path.join(out, "sweep.csv"))
r = sweep(*grid_args)
check(r.returncode == 0 and runs(out) == [] and "4 done before (reused), nothing to run" in r.stderr,
      "the same sweep again runs nothing")
check(rows(os.path.join(out, "sweep.csv")) == first, "and writes the same CSV (perf included: the same files)")
with open(config, "a") as f:
    f.write("# a comment changes nothing that runs\n")
r = sweep(*grid_args)
check(runs(out) == [], "a comment added to the config: nothing rerun")
text = open(config).read()
with open(config, "w") as f:
    f.write(text.replace("warmup: 2000", "warmup: 1900"))
r = sweep(*grid_args)
check("warmup: 1900" in open(config).read() and runs(out) == names,
      "a config edit that changes the effective config: every point rerun")
r = sweep(*grid_args, binary=wrapper("ccnet2", "# another build\n"))
check(runs(out) == names, "another ccnet binary: every point rerun")
r = sweep(*grid_args, "--fresh", binary=wrapper("ccnet2", "# another build\n"))
check(runs(out) == names, "--fresh: every point rerun")

# 3. A failing point.
out = os.path.join(work, "failing")
r = sweep(config, "--out", out, "--vary", "traffic.classes[0].rate=0.1,7", "--set", "sim.measure=2000")
msg = "traffic.classes[0].rate: value 7 out of range [0, 1]"
check(r.returncode == 1, "a failed point makes the sweep exit 1")
check("FAILED rate-7_seed1: exit 2 (configuration or option error): ccnet: config error: " in r.stderr and msg in r.stderr,
      "the failure is reported with ccnet's exit status and its own message")
got = {x["point"]: x for x in rows(os.path.join(out, "sweep.csv"))}
check(got["rate-7_seed1"]["status"] == "failed" and msg in got["rate-7_seed1"]["error"] and
      got["rate-7_seed1"]["accepted"] == "" and got["rate-0.1_seed1"]["status"] == "ok" and
      float(got["rate-0.1_seed1"]["accepted"]) > 0, "the CSV marks the failed point and keeps the other")

# 4. Interruption, and one runner per directory.
out = os.path.join(work, "interrupt")
long_args = [config, "--out", out, "--vary", "sim.measure=1000,1500,400000", "--jobs", "3"]
first = subprocess.Popen([SWEEP] + long_args + ["--ccnet", CCNET], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True)
deadline = time.time() + 60
while time.time() < deadline and not all(os.path.exists(os.path.join(out, f"measure-{m}_seed1", "run.json"))
                                          for m in (1000, 1500)):
    time.sleep(0.05)
time.sleep(0.3)
second = sweep(*long_args)
check(second.returncode != 0 and "another runner is working in" in second.stderr,
      "a second runner on the same directory is refused")
first.send_signal(signal.SIGINT)
text, _ = first.communicate(timeout=60)
print(f"interrupted run (exit {first.returncode}):\n{text}", flush=True)
check(first.returncode == 130 and "interrupted: 2 of 3 points have results" in text,
      "SIGINT: exit 130, the finished points kept")
left = pids_running(os.path.join(out, "measure-400000_seed1"))
check(not left, "the running ccnet was stopped")
runs(out)
r = sweep(*long_args)
check(r.returncode == 0 and runs(out) == ["measure-400000_seed1"] and "2 done before (reused), 1 to run" in r.stderr,
      "the same command again runs only the interrupted point")

# 5. Progress on a terminal.
out = os.path.join(work, "tty")
pid, fd = pty.fork()
if pid == 0:
    os.execv(SWEEP, [SWEEP, config, "--out", out, "--vary", "traffic.classes[0].rate=0.1,0.2,0.3,0.4,0.5",
                     "--set", "sim.measure=20000", "--jobs", "1", "--ccnet", CCNET])
chunks = []
while True:
    try:
        data = os.read(fd, 4096)
    except OSError:
        break
    if not data:
        break
    chunks.append(data)
_, status = os.waitpid(pid, 0)
screen = b"".join(chunks).decode(errors="replace")
bars = [b for b in screen.split("\r") if b.startswith("\033[Ksweep [")]
check(os.waitstatus_to_exitcode(status) == 0 and bars and "done, 0 failed, 1 running" in screen and
      "ETA" in bars[-1] and "ok rate-" not in screen,
      f"a terminal gets a redrawn bar ({len(bars)} redraws, last {bars[-1].strip() if bars else None!r})")
check(all("ok rate-" in r.stderr for r in [sweep(config, "--out", out, "--vary", "traffic.classes[0].rate=0.6",
                                                 "--set", "sim.measure=20000")]),
      "a pipe gets one plain line per point")
runs(out)

# 6. A plan file.
plan = os.path.join(work, "plan.yaml")
with open(plan, "w") as f:
    f.write(f"sweeps:\n"
            f"  - name: load\n    config: {config}\n    vary:\n      traffic.classes[0].rate: [0.1, 0.2]\n"
            f"  - name: mech\n    config: {config}\n    vary: {{cc: [{{mechanism: baseline}}, {{timer: 300, mechanism: ecn}}]}}\n"
            f"    set:\n      - traffic.classes[0].rate=0.3\n    seeds: 1-2\n")
out = os.path.join(work, "plan")
r = sweep("--plan", plan, "--out", out, "--set", "sim.measure=2000")
load, mech = rows(os.path.join(out, "load/sweep.csv")), rows(os.path.join(out, "mech/sweep.csv"))
check(r.returncode == 0 and [x["point"] for x in load] == ["load/rate-0.1_seed1", "load/rate-0.2_seed1"] and
      [x["cc"] for x in mech] == ["{mechanism: baseline}"] * 2 + ["{timer: 300, mechanism: ecn}"] * 2 and
      [x["mechanism"] for x in mech] == ["baseline", "baseline", "ecn", "ecn"],
      "a plan file: one run, a CSV per sweep, values as YAML flow text (map keys in their order)")

# 7. Every shipped plan file: each value of each varied key validates in its sweep's config.
for plan in sorted(glob.glob(os.path.join(root, "configs/**/*.plan.yaml"), recursive=True)):
    bad, n = [], 0
    for s in load_plan(plan, "/tmp/unused"):
        seen = set()
        for p in s.points:
            new = [f"{k}={v}" for k, v in p.values.items() if (k, v) not in seen]
            if new or not seen:
                seen.update(p.values.items())
                n += 1
                r = subprocess.run([ccnet, "validate", p.config] + [a for x in p.overrides() for a in ("--set", x)],
                                   capture_output=True, text=True)
                if r.returncode != 0:
                    bad.append(f"{p.name}: {r.stderr.strip()}")
    check(n > 0 and not bad, f"{os.path.relpath(plan, root)}: {n} points validate" + "".join(f"\n    {b}" for b in bad))

print(f"runner test: {time.time() - t0:.1f} s")
if failures:
    sys.exit(f"{len(failures)} check(s) failed")
print("all checks passed")
