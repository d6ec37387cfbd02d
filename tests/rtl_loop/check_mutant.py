#!/usr/bin/python3
"""A deliberately broken RTL build (rtl/CMakeLists.txt, ccn_rtl_loop_set ... MUTANT) must be
caught by --rtl-check: the run stops with a model error (exit status 3) whose message names the
cycle, the component, the block and the signal with both values.

  check_mutant.py CCNET CONFIG OUT BLOCK MUTANT [--set key=value]...
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
ap.add_argument("mutant")
ap.add_argument("--set", action="append", default=[])
args = ap.parse_args()

cmd = [args.ccnet, "run", args.config, "--out", args.out, "-q", "--rtl", args.block, "--rtl-check",
       "--rtl-mutant", args.mutant]
for s in args.set:
    cmd += ["--set", s]
r = subprocess.run(cmd, capture_output=True, text=True)
want = re.compile(r"^ccnet: model error: RTL check failed at cycle \d+: net\.\S+ .*, block " + re.escape(args.block) +
                  r", signal \S+.*: rtl=\S+ model=\S+$", re.M)
if r.returncode != 3 or not want.search(r.stderr):
    sys.exit(f"{' '.join(cmd)}: exit {r.returncode}, expected 3 and an 'RTL check failed' line; stderr:\n{r.stderr}")
print(want.search(r.stderr).group(0))
