#!/usr/bin/python3
"""A run that needs an RTL parameter set ccnet was not built with stops before simulating with a
configuration error (exit status 2) naming the block, its parameters and the first instance that
needs it, and giving the rtl/CMakeLists.txt line that adds the set, or, with --listed (a set of
the shipped configurations, rtl/rtl_loop_sets.txt), saying so and naming the CMake option that
builds those (-DCCNET_RTL_LOOP_SETS=all).

  check_missing_set.py CCNET CONFIG OUT BLOCK PARAMS [--listed] [--set key=value]...
"""
import argparse
import re
import subprocess
import sys

ap = argparse.ArgumentParser()
ap.add_argument("ccnet")
ap.add_argument("config")
ap.add_argument("out")
ap.add_argument("block")
ap.add_argument("params", help='the set\'s parameters as the message names them, e.g. "Init=12 MaxGive=4"')
ap.add_argument("--set", action="append", default=[])
ap.add_argument("--listed", action="store_true")
args = ap.parse_args()

cmd = [args.ccnet, "run", args.config, "--out", args.out, "-q", "--rtl", args.block]
for s in args.set:
    cmd += ["--set", s]
r = subprocess.run(cmd, capture_output=True, text=True)
name = args.params.replace("=", "").replace(" ", "_").lower()
head = r"^ccnet: config error: sim\.rtl: this ccnet was not built with the RTL parameter sets the network needs:$"
line = r"^  " + re.escape(f"{args.block} {args.params}") + r" \(first needed by net\.[^;]*"
add = r"^  " + re.escape(f"ccn_rtl_loop_set({args.block} {name} {args.params})") + "$"
if args.listed:
    want = [head, line + r"; a set of the shipped configurations\)$",
            r"^the shipped configurations' sets \(rtl/rtl_loop_sets\.txt\) are built by configuring with "
            r"-DCCNET_RTL_LOOP_SETS=all and rebuilding .*$"]
    unwanted = [add]
else:
    want = [head, line + r"\)$", r"^add these lines to rtl/CMakeLists\.txt .*$", add]
    unwanted = [r"CCNET_RTL_LOOP_SETS"]
missing = [w for w in want if not re.search(w, r.stderr, re.M)]
missing += [f"(none like) {u}" for u in unwanted if re.search(u, r.stderr, re.M)]
if r.returncode != 2 or missing:
    sys.exit(f"{' '.join(cmd)}: exit {r.returncode}, expected 2; lines not found: {missing}; stderr:\n{r.stderr}")
print(r.stderr.strip())
