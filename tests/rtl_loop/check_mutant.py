#!/usr/bin/python3
"""A deliberately broken RTL build (rtl/CMakeLists.txt, ccn_rtl_loop_set ... MUTANT) must be
caught by --rtl-check: the run stops with a model error (exit status 3) whose message names the
cycle, the component, the block and the signal with both values.

  check_mutant.py CCNET CONFIG OUT BLOCK MUTANT [--waves FST2VCD] [--set key=value]...

Without --waves the run writes no waves (--rtl-check-window 0). With it, the run writes the waves
of the 5 cycles before the mismatch (--rtl-check-window 5; docs/rtl-verification.md, "Waves"), and
the test checks them: OUT/rtl_mismatch.vcd (the model) and OUT/rtl_mismatch.rtl.fst (the RTL, read
with GTKWave's fst2vcd) of the differing component, up to the mismatch's cycle, with the block.
"""
import argparse
import os
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
ap.add_argument("--waves", metavar="FST2VCD")
args = ap.parse_args()
WINDOW = 5

cmd = [args.ccnet, "run", args.config, "--out", args.out, "-q", "--rtl", args.block, "--rtl-check",
       "--rtl-mutant", args.mutant] + ["--rtl-check-window", str(WINDOW if args.waves else 0)]
for s in args.set:
    cmd += ["--set", s]
r = subprocess.run(cmd, capture_output=True, text=True)
want = re.compile(r"^ccnet: model error: RTL check failed at cycle \d+: net\.\S+ .*, block " + re.escape(args.block) +
                  r", signal \S+.*: rtl=\S+ model=\S+$", re.M)
if r.returncode != 3 or not want.search(r.stderr):
    sys.exit(f"{' '.join(cmd)}: exit {r.returncode}, expected 3 and an 'RTL check failed' line; stderr:\n{r.stderr}")
line = want.search(r.stderr).group(0)
print(line)
if not args.waves:
    sys.exit(0)

m = re.search(r"at cycle (\d+): (net\.\S+) ", line)
cycle, component = int(m.group(1)), m.group(2)
vcd, fst = os.path.join(args.out, "rtl_mismatch.vcd"), os.path.join(args.out, "rtl_mismatch.rtl.fst")
start = max(0, cycle - WINDOW)
said = f"ccnet: waves of {component} over cycles {start} to {cycle} (the last one up to the failing call): {vcd} (model), {fst} (RTL)"
if said not in r.stderr:
    sys.exit(f"expected the line\n  {said}\nin stderr:\n{r.stderr}")
with open(vcd) as f:
    model = f.read()
# SystemC's writer dumps the initial values (the state after the window's first cycle) without a
# time stamp line, naming their time in a comment.
first = re.search(r"initial values are dumped below at time .* = (\d+) timescale units", model)
times = ([int(first.group(1))] if first else []) + [int(t) for t in re.findall(r"^#(\d+)", model, re.M)]
if not times or times[0] != start or times[-1] != cycle or f"$scope module {component.split('.')[1]} $end" not in model:
    sys.exit(f"{vcd}: expected {component} from cycle {start} to {cycle}, got times {times[:1]}..{times[-1:]}")
rtl = subprocess.run([args.waves, fst], capture_output=True, text=True, check=True).stdout
ts = re.search(r"\$timescale\s+(\d+)\s*(\w+)", rtl)
unit = {"ps": 1, "ns": 1000}[ts.group(2)] * int(ts.group(1))
times = [int(t) * unit // 1000 for t in re.findall(r"^#(\d+)", rtl, re.M)]
if not times or times[0] != start or times[-1] != cycle:
    sys.exit(f"{fst}: expected cycles {start} to {cycle}, got {times[:1]}..{times[-1:]}")
if not re.search(r"\$scope module " + re.escape(args.block) + r"\S* \$end", rtl):
    sys.exit(f"{fst}: no model of block {args.block}")
print(f"waves: {vcd} and {fst}, cycles {start}..{cycle}")
