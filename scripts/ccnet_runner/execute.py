"""Running one point: the ccnet command, its run record, and whether an earlier result can be reused.

Every backend runs a point the same way: prepare() clears the point's old outputs, the command
runs with stdout and stderr in OUT/ccnet.log, and finish() writes OUT/run.json, the run record:

  {"name", "status": "ok" | "failed", "exit_code", "error", "command", "args", "seed",
   "ccnet", "ccnet_sha256", "host", "started", "seconds", "slurm_task"}

A point is done when its run record says ok and OUT/stats.json holds a complete result.
"""
import hashlib
import json
import os
import signal
import socket
import subprocess
import time
from dataclasses import dataclass

RECORD = "run.json"
LOG = "ccnet.log"

# ccnet's exit statuses (docs/outputs.md), and those after which stats.json holds the run's result
# (4: the network did not drain, saturated; stats.json says drained: false).
RESULT_EXITS = {0, 4}
EXIT_MEANING = {
    1: "error",
    2: "configuration or option error",
    3: "model error",
    4: "not drained (saturated)",
    130: "interrupted (SIGINT)",
    143: "terminated (SIGTERM)",
}


class RunError(RuntimeError):
    """A point that did not produce a result; the message carries ccnet's own."""


@dataclass
class PointResult:
    name: str
    status: str            # ok | failed
    error: str = ""        # one line; empty when ok
    seconds: float = 0.0
    reused: bool = False   # an earlier run's result (not run this time)
    stats: dict = None     # parsed stats.json when ok
    exit_code: int = None  # ccnet's exit status (negative: killed by that signal); None if unknown
    log: str = ""          # what ccnet printed (stdout and stderr) when it failed

    @property
    def ok(self):
        return self.status == "ok"


def binary_id(path):
    """sha256 of the ccnet binary: a result is reused only if the same binary produced it."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def command(ccnet, point):
    cmd = [ccnet, "run", point.config, "--out", point.out, "-q"]
    for s in point.overrides():
        cmd += ["--set", s]
    return cmd + list(point.args)


def prepare(point):
    """Removes a point's earlier outputs so that a stale stats.json can never pass for a new one."""
    os.makedirs(point.out, exist_ok=True)
    for f in (RECORD, "stats.json", LOG):
        try:
            os.remove(os.path.join(point.out, f))
        except FileNotFoundError:
            pass


def load_stats(out):
    """The parsed stats.json of a run directory, or None when it is missing or incomplete."""
    try:
        with open(os.path.join(out, "stats.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def read_record(out):
    try:
        with open(os.path.join(out, RECORD)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def _write_json(path, data):
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def describe_exit(code):
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit {code}" + (f" ({EXIT_MEANING[code]})" if code in EXIT_MEANING else "")


def error_message(code, log_text):
    """One line: how ccnet ended and its own message (its `ccnet: ...` lines, else the log's last line)."""
    lines = [ln.strip() for ln in log_text.splitlines() if ln.strip()]
    own = [ln for ln in lines if ln.startswith("ccnet:")]
    msg = "; ".join(own[-3:]) if own else (lines[-1] if lines else "")
    return describe_exit(code) + (f": {msg}" if msg else "")


def finish(point, ccnet, ccnet_sha, code, started, seconds, slurm_task=None):
    """Judges a finished ccnet process from its exit status and stats.json, writes the run record."""
    log_path = os.path.join(point.out, LOG)
    try:
        with open(log_path, errors="replace") as f:
            log_text = f.read()
    except OSError:
        log_text = ""
    stats = load_stats(point.out) if code in RESULT_EXITS else None
    if code in RESULT_EXITS and stats is None:
        status, error = "failed", f"exit {code} but no readable stats.json"
    elif code in RESULT_EXITS:
        status, error = "ok", ""
    else:
        status, error = "failed", error_message(code, log_text)
    if status == "ok" and not log_text.strip() and os.path.exists(log_path):
        os.remove(log_path)
    record = {"name": point.name, "status": status, "exit_code": code, "error": error,
              "command": command(ccnet, point), "args": list(point.args), "seed": point.seed,
              "ccnet": ccnet, "ccnet_sha256": ccnet_sha, "host": socket.gethostname(),
              "started": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(started)),
              "seconds": round(seconds, 3), "slurm_task": slurm_task}
    _write_json(os.path.join(point.out, RECORD), record)
    return PointResult(point.name, status, error, seconds, stats=stats, exit_code=code,
                       log="" if status == "ok" else log_text)


def run_blocking(point, ccnet, ccnet_sha, slurm_task=None):
    """prepare + run + finish, waiting for ccnet (Slurm tasks, run_one)."""
    prepare(point)
    t0 = time.time()
    with open(os.path.join(point.out, LOG), "w") as log:
        code = subprocess.run(command(ccnet, point), stdout=log, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL).returncode
    return finish(point, ccnet, ccnet_sha, code, t0, time.time() - t0, slurm_task)


def effective_config(ccnet, point):
    """`ccnet config --json` of the point (None if ccnet rejects it: the run will say why)."""
    r = subprocess.run([ccnet, "config", point.config, "--json"] + sum([["--set", s] for s in point.overrides()], []),
                       capture_output=True, text=True)
    if r.returncode != 0:
        return None
    try:
        return json.loads(r.stdout)
    except ValueError:
        return None


def reusable(point, ccnet, ccnet_sha):
    """The point's earlier result if it can stand for a new run, else None: the run record says
    ok, the same ccnet binary and run options produced it, and stats.json is complete with the
    same effective configuration and seed as the point has now (config files may have changed)."""
    rec = read_record(point.out)
    if not rec or rec.get("status") != "ok" or rec.get("ccnet_sha256") != ccnet_sha or rec.get("args") != list(point.args):
        return None
    stats = load_stats(point.out)
    if not stats:
        return None
    eff = effective_config(ccnet, point)
    if eff is None or stats.get("config") != eff or stats.get("seed") != eff.get("seed"):
        return None
    return PointResult(point.name, "ok", "", rec.get("seconds", 0.0), reused=True, stats=stats)
