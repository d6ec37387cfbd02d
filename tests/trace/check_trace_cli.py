#!/usr/bin/python3
"""Waveforms and packet traces through the CLI, as users run them (docs/tracing.md):

  1. tracing and watching do not change results (stats.json equal apart from perf and trace);
  2. the VCD's flit counts (read by scripts/wave2png's parser) equal stats.json's trace.channels;
  3. watch events go to stdout and OUT/watch.log alike;
  4. option mistakes exit with status 2 and say what is wrong;
  5. scripts/wave2png draws a PNG from the VCD and from its FST conversion, and refuses an
     unknown signal;
  6. every example config has a .gtkw layout, and every signal of the layout exists in the VCD
     that the command written in the layout produces.

  check_trace_cli.py CCNET ROOT WORKDIR
"""
import glob
import importlib.machinery
import json
import os
import shutil
import subprocess
import sys

ccnet, root, work = (os.path.abspath(a) for a in sys.argv[1:4])
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
quick = os.path.join(root, "configs/examples/quickstart.yaml")
wave2png = os.path.join(root, "scripts/wave2png")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(args, cwd=work):
    return subprocess.run([ccnet, "run"] + args, cwd=cwd, capture_output=True, text=True)


def stats(d):
    with open(os.path.join(d, "stats.json")) as f:
        return json.load(f)


# 1. Results do not change.
plain = run([quick, "-q", "--out", "plain"])
check(plain.returncode == 0, f"plain run failed: {plain.stderr}")
traced = run([quick, "--out", "traced", "--trace", "traced/q.vcd", "--trace-scope", "net.router_5",
              "--trace-scope", "net.nic_5", "--trace-window", "3000:4000", "--watch-flow", "0:15",
              "--watch-packet", "5.3"])
check(traced.returncode == 0, f"traced run failed: {traced.stderr}")
a, b = stats(os.path.join(work, "plain")), stats(os.path.join(work, "traced"))
tr = b.pop("trace")
for d in (a, b):
    d.pop("perf")
check(a == b, "tracing changed the results: " + ", ".join(k for k in a if a.get(k) != b.get(k)))
check(tr["window"] == {"start": 3000, "end": 4000} and tr["components"] == 2 and tr["opened"],
      f"trace section: {tr}")

# 2. The VCD agrees with stats.json (counted with wave2png's own reader).
w2p = importlib.machinery.SourceFileLoader("wave2png", wave2png).load_module()
with open(os.path.join(work, "traced/q.vcd")) as f:
    ids, widths, timescale = w2p.read_header(f)
    sigs = {n: w2p.Signal(n, w) for n, w in widths.items()}
    wanted = {}
    for code, names in ids.items():
        for n in names:
            wanted.setdefault(code, []).append(sigs[n])
    first, last = w2p.read_values(f, wanted, 0, float("inf"))
check((first, last) == (3000, 4000), f"VCD spans {first}..{last}, not the window 3000..4000")
check(timescale == "1 ns", f"timescale {timescale}")
for chan, fig in tr["channels"].items():
    p, i = sigs[chan + ".flit.packet"], sigs[chan + ".flit.index"]
    times = sorted({t for t, _ in p.changes} | {t for t, _ in i.changes})
    n, prev = 0, None
    for t in times:
        v = (p.value_at(t), i.value_at(t))
        if v != prev and v[0] != 2 ** 32 - 1:
            n += 1
        prev = v
    check(n == fig["flits"] and n > 0, f"{chan}: {n} flits in the VCD, stats.json says {fig['flits']}")
check(all(n.startswith(("net.router_5.", "net.nic_5.")) for n in widths), "signals outside the scope")

# 3. Watch events: stdout and watch.log carry the same lines.
with open(os.path.join(work, "traced/watch.log")) as f:
    log = f.read().splitlines()
check(len(log) > 50, f"only {len(log)} watch events")
check(all(line in traced.stdout.splitlines() for line in log), "watch.log lines missing from stdout")
check(any(" 5.3.0 " in line and " created " in line for line in log), "--watch-packet 5.3 not reported")
check(f"packet events: traced/watch.log ({len(log)} events" in traced.stdout, "summary line about watch.log")

# 4. Option errors.
for args, expect in [
    (["--trace", "x.vcd", "--trace-window", "500:100"], "--trace-window '500:100': the window is empty"),
    (["--trace", "x.vcd", "--trace-window", "1e3:2e3"], "expected START:END"),
    (["--trace", "x.vcd", "--trace-window", "99999999:"], "starts after the run ended"),
    (["--trace", "x.vcd", "--trace-scope", "net.routr_5"], "--trace-scope 'net.routr_5' matches no component"),
    (["--watch-packet", "5.999999"], "--watch-packet 5.999999: no such packet was formed in this run (node 5 formed"),
    (["--watch-packet", "77.0"], "node 77 does not exist (the network has nodes 0..15)"),
    (["--watch-flow", "3"], "--watch-flow '3': expected SRC:DST"),
]:
    r = run([quick, "-q", "--out", "err"] + args)
    check(r.returncode == 2 and expect in r.stderr, f"{args}: status {r.returncode}, stderr {r.stderr!r}")
r = run([quick, "-q", "--out", "err", "--trace-scope", "net.router_5"])
check(r.returncode != 0 and "requires --trace" in r.stderr, f"--trace-scope without --trace: {r.stderr!r}")

# 5. wave2png, from VCD and from FST.
png = os.path.join(work, "w.png")
r = subprocess.run([wave2png, os.path.join(work, "traced/q.vcd"), png, "-s", "net.router_5.out_0.flit*",
                    "-s", "net.router_5.in_*.vc_0.occupancy", "--analog", "*.occupancy", "--window", "3100:3160"],
                   capture_output=True, text=True)
check(r.returncode == 0 and "rows, time 3100..3160" in r.stdout, f"wave2png: {r.stdout} {r.stderr}")


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


size = png_size(png) if os.path.exists(png) else None
check(size is not None and size[0] > 800 and size[1] > 200, f"PNG {size}")
fst = os.path.join(work, "q.fst")
subprocess.run(["vcd2fst", os.path.join(work, "traced/q.vcd"), fst], check=True, capture_output=True)
r = subprocess.run([wave2png, fst, os.path.join(work, "f.png"), "-s", "net.router_5.out_0.flit*"],
                   capture_output=True, text=True)
check(r.returncode == 0 and png_size(os.path.join(work, "f.png")) is not None, f"wave2png from FST: {r.stderr}")
r = subprocess.run([wave2png, os.path.join(work, "traced/q.vcd"), png, "-s", "net.router_9*"],
                   capture_output=True, text=True)
check(r.returncode != 0 and "matches no signal" in r.stderr, f"wave2png unknown signal: {r.stderr!r}")

# 6. The .gtkw layouts, with the command each one documents.
examples = sorted(glob.glob(os.path.join(root, "configs/examples/*.yaml")))
for cfg in examples:
    name = os.path.splitext(os.path.basename(cfg))[0]
    gtkw = os.path.join(root, "configs/examples", name + ".gtkw")
    if not os.path.exists(gtkw):
        check(False, f"{name}: no configs/examples/{name}.gtkw")
        continue
    with open(gtkw) as f:
        lines = f.read().splitlines()
    cmd = lines[1][len("[*] "):].split()
    check(cmd[:2] == ["build/ccnet", "run"], f"{name}.gtkw: line 2 is not the ccnet command: {lines[1]}")
    vcd = cmd[cmd.index("--trace") + 1]
    d = os.path.join(work, "examples", name)
    os.makedirs(d)
    # As documented (paths relative to the repository), with the output under the work directory.
    args = [os.path.join(root, c) if c.startswith("configs/") else c for c in cmd[1:]]
    r = subprocess.run([ccnet] + args + ["-q", "--out", "o"], cwd=d, capture_output=True, text=True)
    check(r.returncode == 0, f"{name}: {' '.join(cmd)}: {r.stderr}")
    if r.returncode:
        continue
    with open(os.path.join(d, vcd)) as f:
        _, widths, _ = w2p.read_header(f)
    shown = [l for l in lines if l.startswith("SystemC.")]
    check(len(shown) >= 10, f"{name}.gtkw shows only {len(shown)} signals")
    for s in shown:
        base, width = (s.split("[")[0], int(s.split("[")[1].split(":")[0]) + 1) if "[" in s else (s, 1)
        base = base[len("SystemC."):]
        check(widths.get(base) == width, f"{name}.gtkw: {s} not in {vcd} (width {widths.get(base)})")

if failures:
    sys.exit(f"{len(failures)} failures")
print(f"trace CLI checks passed ({len(examples)} example layouts)")
