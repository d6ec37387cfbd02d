#!/usr/bin/python3
"""Waves of RTL in the loop (docs/rtl-verification.md, "Waves"): `ccnet run --rtl all --trace FILE.vcd`
writes FILE.rtl.fst with the Verilated models of the traced components, under
<component>.rtl.<block>_<instance>, over the trace window, and the run's results are those of the
same run without waves. The FST is read back with GTKWave's fst2vcd.

  check_waves.py CCNET FST2VCD CONFIG OUT ROUTER NIC [--router-model M]... [--nic-model M]...
                 [--register SIDE:MODEL:SCOPE.REG]... [--set key=value]...

ROUTER and NIC are the components traced (e.g. net.router_9 net.nic_9); the window is 200:300.
--router-model/--nic-model: model names (prefixes) that must be there (default: the 8x8 mesh's);
--register: a register that must be in a model's internals, e.g.
router:credit_counter_:ccn_credit_counter.count_q (the default) or nic:saa_ps_pacer:ccn_ps_pacer.next_q.
"""
import argparse
import json
import os
import re
import subprocess
import sys

ap = argparse.ArgumentParser()
ap.add_argument("ccnet")
ap.add_argument("fst2vcd")
ap.add_argument("config")
ap.add_argument("out")
ap.add_argument("router")
ap.add_argument("nic")
ap.add_argument("--set", action="append", default=[])
ap.add_argument("--router-model", action="append")
ap.add_argument("--nic-model", action="append")
ap.add_argument("--register", action="append")
args = ap.parse_args()
router_want = args.router_model or ["switch_allocator", "credit_counter_output_", "rr_arbiter_vc_allocator_output_"]
nic_want = args.nic_model or ["injection_engine", "output_arbiter_injection"]
registers = args.register or ["router:credit_counter_:ccn_credit_counter.count_q"]
START, END = 200, 300


def run(out, extra):
    cmd = [args.ccnet, "run", args.config, "--out", out, "-q", "--rtl", "all"] + extra
    for s in args.set:
        cmd += ["--set", s]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit {r.returncode}; stderr:\n{r.stderr}")
    with open(os.path.join(out, "stats.json")) as f:
        return json.load(f)


vcd = os.path.join(args.out, "traced", "w.vcd")
fst = os.path.join(args.out, "traced", "w.rtl.fst")
traced = run(os.path.join(args.out, "traced"),
             ["--trace", vcd, "--trace-scope", args.router, "--trace-scope", args.nic, "--trace-window", f"{START}:{END}"])
plain = run(os.path.join(args.out, "plain"), [])
for s in (traced, plain):
    s.pop("perf", None)
info = traced.pop("trace")
if traced != plain:
    sys.exit("stats.json differs between the run with RTL waves and the run without")
if not os.path.exists(vcd) or not os.path.exists(fst):
    sys.exit(f"missing {vcd} or {fst}")
if info.get("rtl", {}).get("file") != fst or info["rtl"].get("models", 0) < 2:
    sys.exit(f"stats.json trace.rtl does not name {fst} with the models: {info.get('rtl')}")

r = subprocess.run([args.fst2vcd, fst], capture_output=True, text=True)
if r.returncode != 0:
    sys.exit(f"fst2vcd {fst}: exit {r.returncode}\n{r.stderr}")
text = r.stdout

# Scopes: net > router_9 > rtl > <block>_<instance> > ccn_<block> (its internals).
scopes, stack, signals = set(), [], {}
for line in text.splitlines():
    m = re.match(r"\s*\$scope \w+ (\S+) \$end", line)
    if m:
        stack.append(m.group(1))
        scopes.add(".".join(stack))
    elif re.match(r"\s*\$upscope", line):
        stack.pop()
    else:
        m = re.match(r"\s*\$var \w+ \d+ (\S+) (\S+)", line)
        if m:
            signals.setdefault(".".join(stack), []).append(m.group(2))


def models_of(component):
    pre = component + ".rtl."
    return sorted(s[len(pre):] for s in scopes if s.startswith(pre) and "." not in s[len(pre):])


router_models, nic_models = models_of(args.router), models_of(args.nic)
for want in router_want:
    if not any(m.startswith(want) for m in router_models):
        sys.exit(f"no {args.router}.rtl.{want}* model in {fst}: {router_models}")
for want in nic_want:
    if not any(m.startswith(want) for m in nic_models):
        sys.exit(f"no {args.nic}.rtl.{want}* model in {fst}: {nic_models}")
others = sorted({s.split(".")[1] for s in scopes if s.count(".") >= 1} - {args.router.split(".")[1], args.nic.split(".")[1]})
if others:
    sys.exit(f"{fst} has components that were not traced: {others}")
# A block's internals and ports: the allocator's ports, the registers asked for.
sa = f"{args.router}.rtl.switch_allocator"
if "clk_i" not in signals.get(sa, []) or "ack_i" not in signals.get(sa, []):
    sys.exit(f"{sa} lacks its ports: {signals.get(sa)}")
for spec in registers:
    side, prefix, reg = spec.split(":")
    component, models = (args.router, router_models) if side == "router" else (args.nic, nic_models)
    scope, name = reg.rsplit(".", 1)
    where = next((f"{component}.rtl.{m}.{scope}" for m in models if m.startswith(prefix)), None)
    if where is None or name not in signals.get(where, []):
        sys.exit(f"{component}.rtl.{prefix}*.{scope} lacks its register {name}: {signals.get(where)}")

# Time: one step per cycle of the window, in the file's unit (the period, 1 ns = 1000 ps here).
ts = re.search(r"\$timescale\s+(\d+)\s*(\w+)", text)
unit = {"ps": 1, "ns": 1000}[ts.group(2)] * int(ts.group(1))
times = [int(t) * unit // 1000 for t in re.findall(r"^#(\d+)", text, re.M)]
if not times or times[0] != START or times[-1] != END - 1:
    sys.exit(f"{fst} covers cycles {times[:1]}..{times[-1:]}, expected {START}..{END - 1}")
changes = len(re.findall(r"^[01]\S*$|^b[01]+ \S+$", text, re.M))
print(f"{fst}: {len(router_models)} models of {args.router}, {len(nic_models)} of {args.nic}, "
      f"cycles {times[0]}..{times[-1]}, {changes} value changes; stats.json as without waves")
