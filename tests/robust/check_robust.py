#!/usr/bin/python3
"""Bad input, slow runs, interrupts and output files, through the CLI as users meet them
(issue 20 items 2-9, issue 19 sections 3-4; docs/outputs.md "Exit status").

  check_robust.py CCNET ROOT WORKDIR CHECK

CHECK is one of the functions below named check_<CHECK>; each is its own ctest (robust:CHECK).
"""
import json
import os
import pty
import re
import select
import shutil
import signal
import subprocess
import sys
import time

ccnet, root, work, which = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3]), sys.argv[4]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
quick = os.path.join(root, "configs/examples/quickstart.yaml")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def cli(args, timeout=120, **kw):
    """Runs ccnet; returns CompletedProcess, or None on timeout (a hang)."""
    try:
        return subprocess.run([ccnet] + args, capture_output=True, text=True, timeout=timeout, cwd=work, **kw)
    except subprocess.TimeoutExpired:
        return None


def config(name, text):
    path = os.path.join(work, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def stats(out):
    with open(os.path.join(out, "stats.json")) as f:
        return json.load(f)


def expect_error(args, status, pattern, what, timeout=60):
    r = cli(args, timeout)
    if r is None:
        check(False, f"{what}: no answer within {timeout} s (hang)")
        return None
    check(r.returncode == status, f"{what}: exit {r.returncode}, expected {status}; stderr {r.stderr[:300]!r}")
    check(re.search(pattern, r.stderr) is not None, f"{what}: stderr {r.stderr[:300]!r} lacks /{pattern}/")
    return r


# ---- issue 20 item 2: a class whose only destination is one of its sources --------------------
def check_self_destination():
    hang = config("hang.yaml", """# everyone (including the hot node itself) sends to hot node 5
topology: {type: mesh, k: 4, n: 2}
traffic:
  groups:
    - {name: hot, nodes: [5]}
  classes:
    - {name: hs, pattern: {type: hotspot}, destinations: hot, rate: 0.1, size: 1}
""")
    for cmd in (["validate"], ["run", "--out", "o"]):
        expect_error(cmd[:1] + [hang] + cmd[1:], 2,
                     re.escape(hang) + r":7: traffic\.classes\[0\]\.destinations: the only destination, node 5, is also a source",
                     f"{cmd[0]} of a class sending only to one of its own sources")
    check(not os.path.exists(os.path.join(work, "o", "stats.json")), "rejected run wrote stats.json")
    # Uniform with a one-node destination group holding one of several sources: same loop.
    uni = config("uni.yaml", """topology: {type: mesh, k: 2, n: 1}
traffic:
  groups: [{name: one, nodes: [1]}]
  classes: [{name: u, destinations: one, rate: 0.1}]
""")
    expect_error(["validate", uni], 2, r"uni\.yaml:4: traffic\.classes\[0\]\.destinations: the only destination, node 1",
                 "uniform class whose single destination is a source")
    # A permutation with no map free of fixed points: 6 sources in node order share 2 slots, and
    # both destinations (0 and 2) are sources of slot 0.
    perm = config("perm.yaml", """topology: {type: mesh, k: 3, n: 1, concentration: 2}
traffic:
  groups: [{name: d, nodes: [0, 2]}]
  classes: [{name: p, pattern: {type: permutation}, destinations: d, rate: 0.1}]
""")
    expect_error(["validate", perm], 2, r"perm\.yaml:4: traffic\.classes\[0\]\.destinations: pattern permutation: every destination is a source",
                 "infeasible permutation")
    # The hot node left out of the sources (the documented fix) runs.
    ok = config("hot_ok.yaml", """topology: {type: mesh, k: 4, n: 2}
sim: {warmup: 200, measure: 1000}
traffic:
  groups:
    - {name: hot, nodes: [5]}
    - {name: senders, exclude: [hot]}
  classes:
    - {name: hs, pattern: {type: hotspot}, sources: senders, destinations: hot, rate: 0.05, size: 1, stop: 2000}
""")
    r = cli(["run", ok, "--out", "ok", "-q"])
    check(r is not None and r.returncode == 0, f"hot spot without the hot node as source: {r and r.stderr}")


# ---- item 3 (and the --trace '' of item 9): an unwritable waveform is found before the run ----
def check_trace_unwritable():
    os.makedirs(os.path.join(work, "dir.vcd"))
    with open(os.path.join(work, "afile"), "w") as f:
        f.write("x")
    for trace, pattern in [("/proc/t.vcd", r"--trace /proc/t\.vcd: cannot write"),
                           ("dir.vcd", r"--trace dir\.vcd: dir\.vcd is a directory"),
                           ("afile/t.vcd", r"--trace afile/t\.vcd: cannot create the directory afile"),
                           ("", r"--trace: empty file name"),
                           # a file name that is not UTF-8 (stats.json records it): \udc87 is byte 0x87
                           ("t\udc87.vcd", r"--trace: the file name is not valid UTF-8 text \(byte 0x87 at offset 1\)")]:
        t0 = time.monotonic()
        expect_error(["run", quick, "-q", "--out", "o", "--trace", trace, "--set", "sim.measure=2000000"], 2,
                     "ccnet: option error: " + pattern, f"--trace {trace!r}")
        # Checked before simulating: two million cycles would take far longer than this.
        check(time.monotonic() - t0 < 20, f"--trace {trace!r}: the error came after the run")
    check(not os.path.exists(os.path.join(work, "o", "stats.json")), "a refused run wrote stats.json")


# ---- item 8: an unwritable --out is found before the run ---------------------------------------
def check_out_unwritable():
    with open(os.path.join(work, "afile"), "w") as f:
        f.write("x")
    for out, pattern in [("/proc/nope", r"--out /proc/nope: cannot create the directory"),
                         ("afile", r"--out afile: cannot create the directory"),
                         ("afile/sub", r"--out afile/sub: cannot create the directory"),
                         ("", r"--out: empty directory name")]:
        t0 = time.monotonic()
        expect_error(["run", quick, "-q", "--out", out, "--set", "sim.measure=2000000"], 2,
                     "ccnet: option error: " + pattern, f"--out {out}")
        check(time.monotonic() - t0 < 20, f"--out {out}: the error came after the run")


# ---- item 4: periodic arrivals whose period overflows -----------------------------------------
def check_periodic_overflow():
    for rate in ("1e-19", "1e-300", "0"):
        r = cli(["run", quick, "-q", "--out", "o" + rate, "--set", "traffic.classes[0].process=periodic",
                 "--set", f"traffic.classes[0].rate={rate}", "--set", "sim.measure=2000"])
        check(r is not None and r.returncode == 0, f"periodic rate {rate}: exit {r and r.returncode}, {r and r.stderr[:200]!r}")
        if r is not None and r.returncode == 0:
            check(stats(os.path.join(work, "o" + rate))["throughput"]["offered"]["mean"] < 1e-3,
                  f"periodic rate {rate}: traffic offered")


# ---- item 5: sizes computed in 64 bits ---------------------------------------------------------
def check_size_overflow():
    for topo, pattern in [("{type: mesh, k: 256, n: 4}", r"topology\.k: a 256-ary 4-mesh has 4294967296 routers"),
                          ("{type: fattree, k: 64, n: 6}", r"topology\.k: a 64-ary 6-tree has 68719476736 nodes"),
                          ("{type: fattree, k: 37, n: 6}", r"topology\.k: a 37-ary 6-tree has 2565726409 nodes")]:
        for cmd in (["validate"], ["run", "--out", "o"]):
            expect_error(cmd[:1] + [quick, "--set", "topology=" + topo] + cmd[1:], 2, pattern, f"{cmd[0]} {topo}", timeout=30)
    # Below the id limit, the memory guard refuses what would not fit (naming the estimate).
    expect_error(["validate", quick, "--set", "topology={type: mesh, k: 256, n: 3, concentration: 64}"], 2,
                 r"topology: the network would need about [0-9.e+]+ TB of memory", "a 2^30-node mesh", timeout=30)


# ---- item 6: NaN and infinity --------------------------------------------------------------------
def check_nan_inf():
    for key, value in [("rate", ".nan"), ("rate", ".inf"), ("rate", "-.inf")]:
        path = config(f"{value}.yaml", f"traffic:\n  classes:\n    - name: u\n      {key}: {value}\n")
        expect_error(["validate", path], 2, re.escape(path) + rf":4: traffic\.classes\[0\]\.{key}: expected a finite number, got '{re.escape(value)}'",
                     f"{key}: {value}")
    path = config("clock.yaml", "sim:\n  clock_ghz: .nan\n")
    expect_error(["run", path, "--out", "o"], 2, re.escape(path) + r":2: sim\.clock_ghz: expected a finite number", "clock_ghz: .nan")


# ---- item 7: slow or saturated runs are not model errors, and end the same way ------------------
def check_slow_not_deadlock():
    # ECN at paper 000's parameters with every packet marked: sources wait up to 192,000 cycles
    # between packets, router stages take 64 cycles. Throttled, not deadlocked.
    slow = config("slow.yaml", """sim: {warmup: 200, measure: 1000}
topology: {type: mesh, k: 2, n: 1}
router:
  buffer: {terminal: 16, local: 16}
  delays: {routing: 64, vc_alloc: 64, sw_alloc: 64, traversal: 64, credit: 64}
nic: {max_packet: 4, acks: false}
cc: {mechanism: ecn_paper000, threshold: 0}
traffic:
  classes:
    - {name: u, rate: 0.05, size: 16}
""")
    for seed in (1, 2):
        out = f"slow{seed}"
        r = cli(["run", slow, "-q", "--out", out, "--seed", str(seed)], timeout=300)
        check(r is not None and r.returncode == 4, f"throttled ECN seed {seed}: exit {r and r.returncode}, {r and r.stderr[:300]!r}")
        if r is not None and r.returncode == 4:
            check("ccnet: not drained:" in r.stderr and "saturated" in r.stderr, f"seed {seed}: message {r.stderr!r}")
            check(stats(os.path.join(work, out))["drained"] is False, f"seed {seed}: drained not false")
    # A saturated mesh whose traffic stops, two ways: the measured packets do not get out within
    # sim.drain_limit (A), or they do but the backlog built up afterwards does not empty within
    # sim.drain_limit of the stop (B; once a model error without results). Both end the same
    # way, for every seed: exit 4, results written, drained false, a message saying which.
    mesh = """sim: {{warmup: 500, measure: {measure}, drain_limit: 3000}}
topology: {{type: mesh, k: 4, n: 2}}
router: {{buffer: {{terminal: 8, local: 8}}}}
nic: {{max_packet: 4}}
traffic:
  classes: [{{name: u, rate: 0.9, size: 4, stop: {stop}}}]
"""
    for name, measure, stop, says in (("A", 2000, 6000, "flits of measured packets still in flight"),
                                      ("B", 500, 20000, "not yet delivered 3000 cycles after the traffic stopped")):
        sat = config(f"sat{name}.yaml", mesh.format(measure=measure, stop=stop))
        for seed in (1, 2):
            out = f"sat{name}{seed}"
            r = cli(["run", sat, "-q", "--out", out, "--seed", str(seed)], timeout=300)
            check(r is not None and r.returncode == 4, f"saturated mesh {name} seed {seed}: exit {r and r.returncode}, "
                                                         f"{r and r.stderr[:300]!r}")
            if r is not None and r.returncode == 4:
                s = stats(os.path.join(work, out))
                check(s["drained"] is False and s["quiescent_checked"] is False, f"saturated {name} seed {seed}: drained")
                check(f"ccnet: not drained: " in r.stderr and says in r.stderr, f"saturated {name} seed {seed}: {r.stderr!r}")
    # The watchdog still finds real deadlocks: tests/net (clockwise routing) and the stranded
    # reproducers; a throttled source no longer trips it, because NIC injections count as moves.


# ---- item 9: CLI parse errors, duplicate keys, empty configs -----------------------------------
def check_cli_input():
    for args in (["run"], ["run", quick, "--bogus"], ["run", quick, "--seed", "abc"], ["run", quick, "--seed", "-3"],
                 ["nope"], [], ["run", "/nonexistent.yaml"], ["docs", "nope"]):
        r = cli(args)
        check(r is not None and r.returncode == 2 and r.stderr.strip(), f"{args}: exit {r and r.returncode}, stderr {r and r.stderr!r}")
    for args in (["--help"], ["run", "--help"], ["list"]):
        r = cli(args)
        check(r is not None and r.returncode == 0 and r.stdout.strip(), f"{args}: exit {r and r.returncode}")
    dup = config("dup.yaml", "sim:\n  warmup: 1\n  measure: 5\n  warmup: 2\ntraffic:\n  classes: [{name: u, rate: 0.1, rate: 0.2}]\n")
    expect_error(["validate", dup], 2, re.escape(dup) + r":4: sim\.warmup: duplicate key 'warmup' \(first given on line 2\)",
                 "duplicate key")
    dup2 = config("dup2.yaml", "traffic:\n  classes: [{name: u, rate: 0.1, rate: 0.2}]\n")
    expect_error(["validate", dup2], 2, re.escape(dup2) + r":2: traffic\.classes\[0\]\.rate: duplicate key 'rate'",
                 "duplicate key in a flow map")
    for text in ("", "# only a comment\n"):
        empty = config("empty.yaml", text)
        r = cli(["validate", empty])
        check(r is not None and r.returncode == 0 and f"ccnet: note: {empty} holds no settings" in r.stderr,
              f"empty config {text!r}: {r and r.stderr!r}")
    r = cli(["run", empty, "-q", "--out", "e", "--set", "sim.measure=500", "--set", "sim.warmup=100"])
    check(r is not None and r.returncode == 0 and "holds no settings" in r.stderr, f"run of an empty config: {r and r.stderr!r}")


# ---- issue 19 section 4: SIGINT / SIGTERM ------------------------------------------------------
def start_long(out, extra=()):
    return subprocess.Popen([ccnet, "run", quick, "-q", "--out", out, "--set", "sim.measure=100000000",
                             "--watch-flow", "0:15", "--trace", os.path.join(out, "t.vcd"), "--trace-scope", "net.router_0",
                             *extra], cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def wait_for_cycles(p, path, seconds=60):
    """Waits until the run has simulated a while (its VCD grows past the first cycles)."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < seconds:
        if p.poll() is not None:
            return False
        if os.path.exists(path) and os.path.getsize(path) > 4000000:  # about 20,000 cycles
            return True
        time.sleep(0.1)
    return False


def check_interrupt():
    for sig, status in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
        out = os.path.join(work, sig.name)
        p = start_long(out)
        check(wait_for_cycles(p, os.path.join(out, "t.partial.vcd")), f"{sig.name}: the run did not get going")
        p.send_signal(sig)
        try:
            _, err = p.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            p.kill()
            check(False, f"{sig.name}: the run did not stop")
            continue
        check(p.returncode == status, f"{sig.name}: exit {p.returncode}, expected {status}; {err!r}")
        check(f"interrupted by {sig.name} at cycle" in err, f"{sig.name}: message {err!r}")
        s = stats(out)
        check(s["interrupted"] is True and s["drained"] is False, f"{sig.name}: interrupted {s['interrupted']}")
        cycle = s["cycles_total"]
        check(s["cycles"] == cycle - 2000, f"{sig.name}: measured window {s['cycles']} of {cycle} cycles")
        check(s["latency"]["packet"]["count"] > 0 and abs(s["throughput"]["offered"]["mean"] - 0.3) < 0.03,
              f"{sig.name}: partial results {s['latency']['packet']['count']} packets, offered {s['throughput']['offered']['mean']}")
        vcd = open(os.path.join(out, "t.vcd")).read()
        check(vcd.rstrip().endswith(f"#{cycle}"), f"{sig.name}: VCD does not end at cycle {cycle}: {vcd[-40:]!r}")
        check(not os.path.exists(os.path.join(out, "t.partial.vcd")), f"{sig.name}: partial VCD left behind")
        log = open(os.path.join(out, "watch.log")).read().splitlines()
        check(len(log) > 10 and all(re.match(r"^\s*\d+ ", line) for line in log), f"{sig.name}: watch.log {log[-1:]}")
        check(not any(f.startswith("stats.json.") or f.endswith(".partial") for f in os.listdir(out)),
              f"{sig.name}: temporary files left: {os.listdir(out)}")


def check_atomic_outputs():
    # A finished run, then a second one into the same directory killed outright (SIGKILL: no
    # chance to clean up): the first run's stats.json and waveform are intact.
    out = os.path.join(work, "a")
    r = cli(["run", quick, "-q", "--out", out, "--set", "sim.measure=3000", "--trace", os.path.join(out, "t.vcd"),
             "--trace-scope", "net.router_0"])
    check(r is not None and r.returncode == 0, f"first run: {r and r.stderr}")
    before = {f: open(os.path.join(out, f), "rb").read() for f in ("stats.json", "t.vcd")}
    p = start_long(out)
    check(wait_for_cycles(p, os.path.join(out, "t.partial.vcd")), "second run did not get going")
    p.kill()
    p.communicate()
    for f, data in before.items():
        check(open(os.path.join(out, f), "rb").read() == data, f"{f} changed by a killed run")
    json.loads(before["stats.json"])
    check(os.stat(os.path.join(out, "stats.json")).st_mode & 0o044 == 0o044, "stats.json is not world-readable")


# ---- issue 19 section 3: memory guard and progress -----------------------------------------------
def check_memory_guard():
    df = os.path.join(root, "configs/examples/dragonfly72.yaml")
    expect_error(["validate", df, "--set", "router.buffer.global=1048576", "--set", "sim.memory_limit_mb=8000"], 2,
                 r"router\.buffer\.global: the network would need about 15\.0 GB of memory, above the limit of 8\.0 GB "
                 r"\(sim\.memory_limit_mb 8000\): router input buffers on global ports: 72 ports x 6 VCs x 1048576 flits",
                 "dragonfly with million-flit global buffers", timeout=30)
    # The default limit is half of the machine's memory (or of a container's limit, when lower).
    total = int(re.search(r"MemTotal:\s+(\d+) kB", open("/proc/meminfo").read()).group(1)) * 1024
    try:
        cg = int(open("/sys/fs/cgroup/memory.max").read())
        total = min(total, cg)
    except (OSError, ValueError):
        pass
    # Global buffers 5% above what half the memory holds (more VCs on big machines: depth <= 2^20).
    for vpl in range(1, 17):
        depth = int(total / 2 / (72 * 6 * vpl * 33) * 1.05)
        if depth <= 1 << 20:
            expect_error(["validate", df, "--set", f"router.buffer.global={depth}", "--set", f"router.vcs_per_level={vpl}"], 2,
                         r"above the limit of [0-9.]+ [GT]B \(sim\.memory_limit_mb 0: half of this "
                         r"(machine's memory|container's memory limit)\)", "the default limit", timeout=30)
            break
    else:
        print(f"default limit not checked: {total / 1e12:.1f} TB of memory is more than the largest dragonfly72 buffers")
    expect_error(["validate", quick, "--set", "topology.k=256", "--set", "sim.memory_limit_mb=100000"], 2,
                 r"topology: the network would need about \d+\.\d GB .*NIC per-destination state: 65536 nodes",
                 "256x256 mesh", timeout=30)
    expect_error(["validate", quick, "--set", "sim.memory_limit_mb=5"], 2,
                 r"--set sim\.memory_limit_mb=5: sim\.memory_limit_mb: the network would need about 11 MB of memory, "
                 r"above the limit of 5 MB \(sim\.memory_limit_mb 5\): the simulator itself", "a 5 MB limit")
    r = cli(["validate", df, "--set", "router.buffer.global=1048576", "--set", "sim.memory_limit_mb=100000"])
    check(r is not None and r.returncode == 0, f"a raised limit accepts the network: {r and r.stderr}")
    # The estimate against the measured peak: within [0.8, 1.25] on a few shapes.
    for name, sets in [("mesh", ["topology.k=24"]), ("dragonfly", ["topology={type: dragonfly, p: 2, a: 8, h: 4}"]),
                       ("fattree", ["topology={type: fattree, k: 4, n: 4}", "router.buffer.local=512"]),
                       ("lhrp", ["topology.k=12", "cc={mechanism: lhrp}"])]:
        out = os.path.join(work, "m_" + name)
        r = cli(["run", quick, "-q", "--out", out, "--set", "sim.warmup=0", "--set", "sim.measure=10", "--set",
                 "sim.drain_limit=0", "--set", "traffic.classes[0].rate=0.01", "--set", "sim.check_quiescent=false"] +
                [a for s in sets for a in ("--set", s)])
        check(r is not None and r.returncode in (0, 4), f"{name}: {r and r.stderr}")
        if r is not None and r.returncode in (0, 4):
            perf = stats(out)["perf"]
            ratio = perf["memory_estimate_mb"] / perf["peak_rss_mb"]
            print(f"{name}: estimate {perf['memory_estimate_mb']:.1f} MB, peak {perf['peak_rss_mb']:.1f} MB")
            check(0.8 < ratio < 1.25, f"{name}: estimate {perf['memory_estimate_mb']:.1f} MB vs peak {perf['peak_rss_mb']:.1f} MB")


def check_progress_eta():
    # On a terminal, the progress line shows speed and the time left once a few thousand cycles ran
    # (whole seconds or minutes, hours with one decimal: a slow or loaded machine shows hours).
    # The run is made far longer than needed and interrupted as soon as an ETA appeared, so the
    # check does not depend on how fast the machine is (a short run can end before the second
    # progress update on a fast one).
    master, slave = pty.openpty()
    p = subprocess.Popen([ccnet, "run", quick, "--out", os.path.join(work, "p"), "--set", "sim.measure=100000000"],
                         cwd=work, stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    text, t0, stopped = b"", time.monotonic(), False
    while time.monotonic() - t0 < 120:
        ready, _, _ = select.select([master], [], [], 1)
        if ready:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            text += chunk
            if not stopped and re.search(rb"ETA \d+(\.\d)? (s|min|h)", text):
                # a whole progress line with an ETA is there: ask the run to end
                p.send_signal(signal.SIGINT)
                stopped = True
        elif p.poll() is not None:
            break
    if not stopped and p.poll() is None:
        p.kill()
    p.wait()
    os.close(master)
    lines = text.decode(errors="replace").split("\r")
    eta = [line for line in lines if re.search(r"ETA \d+(\.\d)? (s|min|h)", line)]
    check(bool(eta), f"no ETA on the terminal within 120 s: {lines[-3:]}")
    if eta:
        m = re.search(r"cycle (\d+)/(\d+) \(\w[\w-]*\)\s+(\d+) cycles/s\s+ETA (\d+(\.\d)?) (s|min|h)", eta[0])
        check(m is not None and int(m.group(1)) >= 2000, f"progress line {eta[0]!r}")
    check(stopped, "the run was not interrupted after the ETA appeared")


globals()["check_" + which]()
if failures:
    sys.exit(f"{len(failures)} failure(s)")
print(f"{which}: all checks passed")
