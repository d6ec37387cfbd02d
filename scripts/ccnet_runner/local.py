"""The local backend: up to `jobs` ccnet processes at a time on this machine."""
import os
import subprocess
import time

from . import execute


class Interrupted(Exception):
    """The user (or a signal) stopped the sweep; unfinished points keep no result."""


def run_local(points, ccnet, ccnet_sha, jobs, progress):
    """Runs `points`, reporting each to `progress`; returns {name: PointResult}. On
    KeyboardInterrupt, stops the running ccnet processes (SIGTERM, then SIGKILL) and raises
    Interrupted with the results so far."""
    queue = list(points)
    running = {}   # Popen -> (point, start time, log file)
    results = {}
    try:
        while queue or running:
            while queue and len(running) < jobs:
                p = queue.pop(0)
                execute.prepare(p)
                log = open(os.path.join(p.out, execute.LOG), "w")
                proc = subprocess.Popen(execute.command(ccnet, p), stdout=log, stderr=subprocess.STDOUT,
                                        stdin=subprocess.DEVNULL)
                running[proc] = (p, time.time(), log)
            progress.set_running(len(running))
            time.sleep(0.05)
            for proc in [q for q in running if q.poll() is not None]:
                p, t0, log = running.pop(proc)
                log.close()
                r = execute.finish(p, ccnet, ccnet_sha, proc.returncode, t0, time.time() - t0)
                results[p.name] = r
                progress.set_running(len(running))
                progress.finished(r)
            progress.draw()
    except KeyboardInterrupt:
        for proc in running:
            if proc.poll() is None:
                proc.terminate()
        deadline = time.time() + 5
        for proc, (p, _, log) in running.items():
            try:
                proc.wait(max(0.1, deadline - time.time()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            log.close()
        raise Interrupted(results)
    return results
