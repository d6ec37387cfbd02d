#!/usr/bin/python3
"""Runs one config through the CLI and requires a clean end: exit status 0, every measured
packet delivered (`drained`), and the end-of-run quiescence check run and passed
(`quiescent_checked`: every buffer empty, every VC released, every credit back)."""
import json
import subprocess
import sys

ccnet, config, out = sys.argv[1:4]
extra = sys.argv[4:]
p = subprocess.run([ccnet, "run", config, "--out", out, "-q", *extra], capture_output=True, text=True)
if p.returncode != 0:
    sys.stderr.write(p.stdout + p.stderr)
    sys.exit(f"{config}: exit status {p.returncode}")
with open(f"{out}/stats.json") as f:
    stats = json.load(f)
if not stats["drained"]:
    sys.exit(f"{config}: not drained")
if not stats["quiescent_checked"]:
    sys.exit(f"{config}: quiescence not checked (check_quiescent off, or traffic never stops)")
print(f"{config}: clean end at cycle {stats['cycles_total']}, accepted {stats['throughput']['accepted']['mean']:.4f}, "
      f"{stats['protocol']['dropped_packets']} drops")
