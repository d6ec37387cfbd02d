"""scripts/hw_report: area and timing of every RTL block over the parameter sets of configs/hw/.

Usage:
  scripts/hw_report                       # full report: docs/hw-cost.md, docs/hw-cost/*.png + CSV
  scripts/hw_report --smallest --out DIR  # the two smallest sets of each block (the ctest)
  scripts/hw_report --blocks rr_arbiter --liberty my.lib -j 4 --out DIR

Per block and parameter set: yosys generic cells / flip-flops / logic depth; area on the 180 nm
OSU liberty (Debian qflow-tech-osu018) and the OpenSTA pre-layout critical path and Fmax; iCE40
HX8K logic cells and nextpnr post-route Fmax; the same ASIC figures for a user liberty
(--liberty). A tool that fails is recorded in its row (block, set, tool, message); the report
goes on. Method and caveats: docs/hw-cost.md.
"""
import argparse
import concurrent.futures
import csv
import datetime
import math
import os
import pathlib
import shutil
import subprocess
import sys
import threading
import time

from . import config as cfgmod
from . import flows

REPO = pathlib.Path(__file__).resolve().parent.parent.parent

COLUMNS = [
    "block", "module", "set", "params", "x",
    "generic_cells", "generic_ffs", "generic_depth",
    "osu018_area_um2", "osu018_cells", "osu018_ffs",
    "osu018_sta_crit_ns", "osu018_sta_fmax_mhz", "osu018_sta_path", "osu018_sta_scope",
    "ice40_lc", "ice40_fmax_mhz", "ice40_wrapper", "ice40_block_pins", "ice40_lc_placed",
    "userlib", "userlib_area", "userlib_cells",
    "userlib_sta_crit_ns", "userlib_sta_fmax_mhz", "userlib_sta_path", "userlib_sta_scope",
    "failures", "seconds",
]
USERLIB_COLUMNS = [c for c in COLUMNS if c.startswith("userlib")]

_print_lock = threading.Lock()


def log(msg):
    with _print_lock:
        print(msg, file=sys.stderr, flush=True)


def sta_scope(cells, ffs, max_cells):
    if cells > max_cells:
        return f"optimistic: {cells} cells > {max_cells} (wire load would dominate)"
    if ffs == 0:
        return "combinational: input-to-output delay"
    return "block-level"


def _liberty_flow(row, prefix, block, liberty, cwd, clock, reset, timeout, failures, tag):
    """Map onto one liberty and time it; fills <prefix>_* columns."""
    area_key = "osu018_area_um2" if prefix == "osu018" else "userlib_area"
    try:
        area, cells, ffs, _ = flows.asic_map(block, liberty, cwd, tag, timeout)
        row[area_key] = area
        row[f"{prefix}_cells"] = cells
        if prefix == "osu018":
            row["osu018_ffs"] = ffs
    except flows.FlowError as e:
        failures.append((e.tool, e.message))
        failures.append((f"opensta-{tag}", f"not run ({e.tool} failed)"))
        return
    try:
        st = flows.sta(block.module, liberty, cwd, tag, clock, reset, timeout)
        row[f"{prefix}_sta_crit_ns"] = st["crit_ns"]
        row[f"{prefix}_sta_fmax_mhz"] = st["fmax_mhz"]
        row[f"{prefix}_sta_path"] = st["path"]
        row[f"{prefix}_sta_scope"] = sta_scope(cells, row.get("generic_ffs", 0), block.sta_max_cells)
    except flows.FlowError as e:
        failures.append((e.tool, e.message))


def run_set(block, pset, args, index, total):
    t0 = time.monotonic()
    cwd = pathlib.Path(args.out) / "work" / block.name / pset.name
    if cwd.exists():
        shutil.rmtree(cwd)
    cwd.mkdir(parents=True)
    cwd = str(cwd)
    row = {"block": block.name, "module": block.module, "set": pset.name, "params": pset.param_text(),
           "x": block.x_value(pset)}
    failures = []
    clock = reset = None
    why_not = None  # why the liberty flows cannot run
    try:
        gen, ports = flows.generic(block, pset, cwd, args.timeout)
        row.update({"generic_cells": gen["gen_cells"], "generic_ffs": gen["gen_ffs"],
                    "generic_depth": gen["gen_depth"]})
    except flows.FlowError as e:
        failures.append((e.tool, e.message))
        why_not = f"{e.tool} failed"
    if why_not is None:
        try:
            names = {n for n, _, _ in ports}
            clock = flows.resolve_port(names, block.clock, "clk_i", "clock")
            reset = flows.resolve_port(names, block.reset, "rst_ni", "reset")
        except flows.FlowError as e:
            failures.append((e.tool, e.message))
            why_not = "no clock/reset port"
    libs = [("osu018", flows.OSU018_LIBERTY, "osu018")]
    if args.liberty:
        row["userlib"] = os.path.basename(args.liberty)
        libs.append(("userlib", args.liberty, "userlib"))
    for prefix, lib, tag in libs:
        if why_not is None:
            _liberty_flow(row, prefix, block, lib, cwd, clock, reset, args.timeout, failures, tag)
        else:
            failures.append((f"yosys-{tag}", f"not run ({why_not})"))
            failures.append((f"opensta-{tag}", f"not run ({why_not})"))
    try:
        flows.ice40(block, pset, cwd, block.ice40_wrapper, args.timeout, row)
    except flows.FlowError as e:
        failures.append((e.tool, e.message))
    except (OSError, ValueError, KeyError) as e:
        failures.append(("ice40", f"{type(e).__name__}: {e}"))
    row["failures"] = " | ".join(f"{t}: {m}" for t, m in failures)
    row["seconds"] = round(time.monotonic() - t0, 1)
    status = "ok" if not failures else f"{len(failures)} failure(s): " + "; ".join(t for t, _ in failures)
    log(f"[{index}/{total}] {block.name} {pset.name}: {row['seconds']} s, {status}")
    return row


def weight(pset):
    w = 1
    for v in pset.params.values():
        w *= max(int(v), 1)
    return w


def fmt_csv(v):
    if isinstance(v, float):
        return f"{v:.6g}"
    return "" if v is None else str(v)


def write_csv(path, rows, with_userlib):
    cols = COLUMNS if with_userlib else [c for c in COLUMNS if c not in USERLIB_COLUMNS]
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(cols)
        for r in rows:
            w.writerow([fmt_csv(r.get(c)) for c in cols])


def git_state():
    def git(*a):
        try:
            return subprocess.run(["git", "-C", str(REPO)] + list(a), stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, timeout=30).stdout.strip()
        except (OSError, subprocess.TimeoutExpired):
            return ""
    sha = git("rev-parse", "--short", "HEAD") or "unknown"
    dirty = git("status", "--porcelain", "--", "rtl", "configs/hw")
    return sha, [l[3:] for l in dirty.splitlines()]


def host_info():
    model = ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{os.cpu_count()} cores" + (f" ({model})" if model else "")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--configs", default=str(REPO / "configs" / "hw"), help="block descriptions (*.yaml)")
    ap.add_argument("--rtl", default=str(REPO / "rtl"), help="RTL directory the sources are relative to")
    ap.add_argument("--out", default=str(REPO / "out" / "hw"), help="CSV and work files (default out/hw)")
    ap.add_argument("--doc", help="markdown output (default docs/hw-cost.md for a full run, else OUT/hw-cost.md)")
    ap.add_argument("--plots", help="plot directory (default: hw-cost/ next to the markdown)")
    ap.add_argument("--blocks", help="comma-separated block names (file stems of configs/hw/*.yaml)")
    ap.add_argument("--smallest", action="store_true", help="only the two smallest sets of each block")
    ap.add_argument("--liberty", help="also map and time with this liberty file")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="parallel sets (default: cores)")
    ap.add_argument("--timeout", type=int, default=flows.DEFAULT_TIMEOUT_S, help="seconds per tool run")
    ap.add_argument("--strict", action="store_true", help="exit 1 when any tool failed")
    args = ap.parse_args(argv)
    args.out = os.path.abspath(args.out)  # the tools run in work directories below it

    t_start = time.monotonic()
    full = not args.smallest and not args.blocks and \
        pathlib.Path(args.configs).resolve() == (REPO / "configs" / "hw").resolve()
    doc = pathlib.Path(args.doc) if args.doc else (REPO / "docs" / "hw-cost.md" if full
                                                    else pathlib.Path(args.out) / "hw-cost.md")
    plots = pathlib.Path(args.plots) if args.plots else doc.parent / "hw-cost"
    if args.liberty and not os.path.isfile(args.liberty):
        ap.error(f"--liberty {args.liberty}: no such file")
    args.liberty = os.path.abspath(args.liberty) if args.liberty else None
    os.makedirs(args.out, exist_ok=True)
    missing = [t for t, ok in flows.have_tools().items() if not ok]
    if missing:
        log(f"hw_report: missing tools {', '.join(missing)} (scripts/setup installs them); "
            "their flows will be recorded as failures")

    # Blocks: a broken description becomes a failure row of that block, not an abort.
    blocks, rows_cfg = [], []
    wanted = set(args.blocks.split(",")) if args.blocks else None
    paths = cfgmod.discover(args.configs)
    if wanted:
        unknown = wanted - {p.stem for p in paths}
        if unknown:
            ap.error(f"--blocks: no configs/hw/<block>.yaml for {', '.join(sorted(unknown))}")
    probe = pathlib.Path(args.out) / "work" / "_params"
    probe.mkdir(parents=True, exist_ok=True)
    for p in paths:
        if wanted and p.stem not in wanted:
            continue
        try:
            blk = cfgmod.load_block(p, args.rtl)
            known = flows.module_params(blk, str(probe))
            for s in blk.sets:
                for k in s.params:
                    if k not in known:
                        raise cfgmod.ConfigError(
                            f"{p}: sets: {s.name}: {k}: not a parameter of {blk.module} (has {', '.join(known)})")
            blocks.append(blk)
        except cfgmod.ConfigError as e:
            rows_cfg.append({"block": p.stem, "module": "", "set": "", "params": "", "x": "",
                             "failures": f"config: {e}", "seconds": 0})
            log(f"hw_report: {e}")
        except flows.FlowError as e:
            rows_cfg.append({"block": p.stem, "module": "", "set": "", "params": "", "x": "",
                             "failures": f"{e.tool}: {e.message}", "seconds": 0})
            log(f"hw_report: {p.stem}: {e}")

    tasks = []
    for b in blocks:
        sets = [b.set_by_name(n) for n in b.smallest] if args.smallest else b.sets
        tasks += [(b, s) for s in sets]
    # Longest first (a better schedule on few cores): the run times of the previous report in
    # OUT when there is one, else a guess from the parameter values.
    previous = {}
    try:
        with open(pathlib.Path(args.out) / "hw_cost.csv", newline="") as f:
            for r in csv.DictReader(f):
                try:
                    previous[(r["block"], r["set"])] = float(r["seconds"])
                except (KeyError, ValueError):
                    pass
    except OSError:
        pass

    def cost(i):
        b, s = tasks[i]
        if previous:
            return previous.get((b.name, s.name), math.inf)
        return weight(s)
    order = sorted(range(len(tasks)), key=lambda i: -cost(i))
    log(f"hw_report: {len(tasks)} parameter sets of {len(blocks)} blocks, {args.jobs} in parallel")
    results = [None] * len(tasks)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        futs = {}
        for n, i in enumerate(order):
            b, s = tasks[i]
            futs[ex.submit(run_set, b, s, args, n + 1, len(tasks))] = i
        for f in concurrent.futures.as_completed(futs):
            i = futs[f]
            try:
                results[i] = f.result()
            except Exception as e:  # a bug in this script must still leave a row naming the set
                b, s = tasks[i]
                results[i] = {"block": b.name, "module": b.module, "set": s.name, "params": s.param_text(),
                              "x": b.x_value(s), "failures": f"hw_report: {type(e).__name__}: {e}", "seconds": 0}
                log(f"hw_report: {b.name} {s.name}: {type(e).__name__}: {e}")
    rows = results + rows_cfg
    elapsed = time.monotonic() - t_start
    times = os.times()
    tool_cpu = times.children_user + times.children_system
    load5 = os.getloadavg()[1]

    csv_path = pathlib.Path(args.out) / "hw_cost.csv"
    write_csv(csv_path, rows, bool(args.liberty))
    plots.mkdir(parents=True, exist_ok=True)
    write_csv(plots / "hw_cost.csv", rows, bool(args.liberty))
    from . import render  # matplotlib is imported only here
    versions = flows.tool_versions()
    sha, dirty = git_state()
    meta = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
        "versions": versions, "git": sha, "dirty": dirty, "host": host_info(), "jobs": args.jobs,
        "elapsed_s": elapsed, "tool_cpu_s": tool_cpu, "load5": load5,
        "smallest": args.smallest, "liberty": args.liberty,
        "argv": " ".join(["scripts/hw_report"] + (argv if argv is not None else sys.argv[1:])),
    }
    plot_failures = render.plots(blocks, rows, plots)
    for blk, msg in plot_failures:
        log(f"hw_report: plot of {blk}: {msg}")
    render.markdown(doc, plots, blocks, rows, rows_cfg, meta, plot_failures)
    nfail = sum(1 for r in rows if r.get("failures"))
    log(f"hw_report: {len(rows)} rows, {nfail} with failures, {elapsed:.0f} s; "
        f"CSV {csv_path}, markdown {doc}, plots {plots}/")
    return 1 if (args.strict and (nfail or plot_failures)) else 0
