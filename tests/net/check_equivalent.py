#!/usr/bin/python3
"""Runs one config under two sets of overrides and requires identical results: every field of
stats.json except those named with --ignore (dotted paths, e.g. protocol.retransmit_buffer_peak)
and perf. Fields named with --zero (dotted paths whose components may be globs, e.g. cc.* or
protocol.*.cnp) must be 0 where present and are then left out: the counters and packet kinds
of a mechanism that, in its neutral setting, never acts. Used for "mechanism X in its neutral
setting equals the baseline cycle for cycle".

Command-line options of `ccnet run` (e.g. --trace FILE) are given with --a-arg / --b-arg.

  check_equivalent.py CCNET CONFIG OUT --a key=v ... --b key=v ... [--a-arg ARG]... [--b-arg ARG]...
                      [--ignore field]... [--zero field]...
"""
import argparse
import fnmatch
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../scripts"))
from ccnet_runner import run_one, without_perf  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("ccnet")
ap.add_argument("config")
ap.add_argument("out")
ap.add_argument("--a", action="append", default=[])
ap.add_argument("--b", action="append", default=[])
ap.add_argument("--a-arg", action="append", default=[])
ap.add_argument("--b-arg", action="append", default=[])
ap.add_argument("--ignore", action="append", default=[])
ap.add_argument("--zero", action="append", default=[])
args = ap.parse_args()


def drop_zero(node, parts, tag, path=""):
    """Removes the fields matching the pattern `parts` under `node`; exits if one is not 0."""
    if not isinstance(node, dict):
        return
    for k in [k for k in node if fnmatch.fnmatchcase(k, parts[0])]:
        p = f"{path}.{k}" if path else k
        if len(parts) > 1:
            drop_zero(node[k], parts[1:], tag, p)
        elif node[k] != 0:
            sys.exit(f"run {tag}: {p} = {node[k]}, expected 0")
        else:
            del node[k]


def run(tag, sets, cli):
    d = without_perf(run_one(args.ccnet, args.config, f"{args.out}/{tag}", sets=sets, args=cli))
    for k in args.ignore:
        *parents, leaf = k.split(".")
        node = d
        for part in parents:
            node = node.get(part, {})
        node.pop(leaf, None)
    for z in args.zero:
        drop_zero(d, z.split("."), tag)
    return d


a, b = run("a", args.a, args.a_arg), run("b", args.b, args.b_arg)
if a != b:
    diff = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
    sys.exit(f"results differ in: {', '.join(diff)}")
print(f"identical results ({a['latency']['packet']['count']} measured packets) for {args.a + args.a_arg} and {args.b + args.b_arg}")
