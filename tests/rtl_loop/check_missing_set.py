#!/usr/bin/python3
"""A run that needs an RTL parameter set ccnet was not built with stops before simulating with a
configuration error (exit status 2) naming the block, its parameters and the first instance that
needs it, and giving the rtl/CMakeLists.txt line that adds the set.

  check_missing_set.py CCNET CONFIG OUT BLOCK PARAMS [--set key=value]...
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
args = ap.parse_args()

cmd = [args.ccnet, "run", args.config, "--out", args.out, "-q", "--rtl", args.block]
for s in args.set:
    cmd += ["--set", s]
r = subprocess.run(cmd, capture_output=True, text=True)
name = args.params.replace("=", "").replace(" ", "_").lower()
want = [
    r"^ccnet: config error: sim\.rtl: this ccnet was not built with the RTL parameter sets the network needs:$",
    r"^  " + re.escape(f"{args.block} {args.params}") + r" \(first needed by net\.\S+.*\)$",
    r"^add these lines to rtl/CMakeLists\.txt .*$",
    r"^  " + re.escape(f"ccn_rtl_loop_set({args.block} {name} {args.params})") + "$",
]
missing = [w for w in want if not re.search(w, r.stderr, re.M)]
if r.returncode != 2 or missing:
    sys.exit(f"{' '.join(cmd)}: exit {r.returncode}, expected 2; lines not found: {missing}; stderr:\n{r.stderr}")
print(r.stderr.strip())
