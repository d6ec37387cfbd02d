#!/usr/bin/python3
"""Runs one config under two sets of overrides and requires identical results: every field of
stats.json except those named with --ignore (dotted paths, e.g. protocol.retransmit_buffer_peak)
and perf. Used for "mechanism X in its neutral
setting equals the baseline cycle for cycle".

  check_equivalent.py CCNET CONFIG OUT --a key=v ... --b key=v ... [--ignore field]...
"""
import argparse
import json
import subprocess
import sys

ap = argparse.ArgumentParser()
ap.add_argument("ccnet")
ap.add_argument("config")
ap.add_argument("out")
ap.add_argument("--a", action="append", default=[])
ap.add_argument("--b", action="append", default=[])
ap.add_argument("--ignore", action="append", default=[])
args = ap.parse_args()


def run(tag, sets):
    cmd = [args.ccnet, "run", args.config, "--out", f"{args.out}/{tag}", "-q"]
    for s in sets:
        cmd += ["--set", s]
    r = subprocess.run(cmd)
    if r.returncode not in (0, 4):  # 4: not drained (saturated), results written
        sys.exit(f"{' '.join(cmd)}: exit {r.returncode}")
    with open(f"{args.out}/{tag}/stats.json") as f:
        d = json.load(f)
    for k in ["perf"] + args.ignore:
        *parents, leaf = k.split(".")
        node = d
        for part in parents:
            node = node.get(part, {})
        node.pop(leaf, None)
    return d


a, b = run("a", args.a), run("b", args.b)
if a != b:
    diff = [k for k in a if a.get(k) != b.get(k)]
    sys.exit(f"results differ in: {', '.join(diff)}")
print(f"identical results ({a['latency']['packet']['count']} measured packets) for {args.a} and {args.b}")
