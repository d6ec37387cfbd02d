#!/usr/bin/python3
"""ctest driver for the hardware cost report (scripts/hw_report), label `hw`.

  test_hw_report.py smallest --out DIR
      Runs the report on the two smallest parameter sets of every configs/hw/*.yaml block, with
      the OSU liberty also given as --liberty, and checks: a row per set with every column filled
      and no failure; plausible values (cells, flip-flops and depth consistent, area within the
      liberty's cell areas, Fmax = 1 / critical path, iCE40 figures within the device); the larger
      set costs more (cells, area, logic cells) and is no shallower; the logic depth equals yosys'
      `ltp -noff` on the same netlist; the --liberty figures equal the built-in ones; the markdown
      has every block and set, the tool versions and a PNG plot per block.

  test_hw_report.py failure_isolation --out DIR
      Runs the report on tests/hw/fixtures (a good block, a block whose larger set fails in
      yosys, a block description with a misspelled key) with a liberty that has no flip-flop, and
      checks that each failure is a row entry naming the block, the set and the tool, that every
      other figure is still there, and that --strict exits 1 after writing the report.
"""
import argparse
import csv
import math
import os
import pathlib
import re
import subprocess
import sys

REPO = pathlib.Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(REPO / "scripts"))
from hw import config as cfgmod  # noqa: E402

OSU018 = "/usr/share/qflow/tech/osu018/osu018_stdcells.lib"
ICE40_LCS = 7680
ICE40_PINS = 206

errors = []


def fail(msg):
    errors.append(msg)
    print(f"FAIL: {msg}")


def num(row, col):
    v = row.get(col, "")
    try:
        x = float(v)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None


def run_report(args, expect_rc):
    cmd = ["/usr/bin/python3", str(REPO / "scripts" / "hw_report")] + args
    print("running:", " ".join(cmd), flush=True)
    p = subprocess.run(cmd, cwd=str(REPO))
    if p.returncode != expect_rc:
        fail(f"hw_report exited {p.returncode}, expected {expect_rc}")


def read_rows(out):
    path = pathlib.Path(out) / "hw_cost.csv"
    if not path.is_file():
        fail(f"no CSV at {path}")
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def liberty_areas(path):
    areas, flops, cell = {}, set(), None
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*cell\s*\(\s*\"?(\w+)\"?\s*\)", line)
            if m:
                cell = m.group(1)
            m = re.match(r"\s*area\s*:\s*([0-9.]+)", line)
            if m and cell:
                areas[cell] = float(m.group(1))
            if cell and re.match(r"\s*ff\s*\(", line):
                flops.add(cell)
    return areas, flops


def ltp_depth(netlist_json):
    p = subprocess.run(["yosys", "-p", f"read_json {netlist_json}; ltp -noff"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    m = re.search(r"Longest topological path in .* \(length=(\d+)\)", p.stdout)
    return int(m.group(1)) if m else None


def check_row(r, out, areas, flops, userlib):
    tag = f"{r['block']} {r['set']}"
    cells, ffs, depth = num(r, "generic_cells"), num(r, "generic_ffs"), num(r, "generic_depth")
    if None in (cells, ffs, depth):
        fail(f"{tag}: generic columns not numeric: {cells} {ffs} {depth}")
        return
    if not (cells > 0 and 0 <= ffs <= cells and 1 <= depth <= cells - ffs):
        fail(f"{tag}: implausible generic cells {cells}, FFs {ffs}, depth {depth}")
    ltp = ltp_depth(pathlib.Path(out) / "work" / r["block"] / r["set"] / "generic.json")
    if ltp != depth:
        fail(f"{tag}: logic depth {depth} but yosys ltp -noff says {ltp}")
    area, acells, affs = num(r, "osu018_area_um2"), num(r, "osu018_cells"), num(r, "osu018_ffs")
    if None in (area, acells, affs):
        fail(f"{tag}: osu018 columns not numeric")
    else:
        lo, hi = min(areas.values()), max(areas.values())
        if not (acells > 0 and acells * lo <= area <= acells * hi):
            fail(f"{tag}: area {area} outside [{acells} cells x {lo}, x {hi}] um^2")
        if affs != ffs:
            fail(f"{tag}: {affs} osu018 flip-flops but {ffs} generic ones")
        if area < affs * min(areas[c] for c in flops):
            fail(f"{tag}: area {area} below the area of its {affs} flip-flops")
    crit, fmax = num(r, "osu018_sta_crit_ns"), num(r, "osu018_sta_fmax_mhz")
    if crit is None or fmax is None or not (0.05 < crit < 100) or abs(fmax * crit - 1000) > 1:
        fail(f"{tag}: implausible OpenSTA critical path {crit} ns / Fmax {fmax} MHz")
    if not re.match(r"^(in|reg)->(out|reg): \S.* -> \S.*$", r["osu018_sta_path"]):
        fail(f"{tag}: worst path {r['osu018_sta_path']!r} not 'kind->kind: start -> end'")
    want_scope = "combinational: input-to-output delay" if ffs == 0 else "block-level"
    if acells is not None and acells <= 2000 and r["osu018_sta_scope"] != want_scope:
        fail(f"{tag}: STA scope {r['osu018_sta_scope']!r}, expected {want_scope!r}")
    lc, placed, ifmax = num(r, "ice40_lc"), num(r, "ice40_lc_placed"), num(r, "ice40_fmax_mhz")
    pins = num(r, "ice40_block_pins")
    if None in (lc, placed, ifmax, pins):
        fail(f"{tag}: iCE40 columns not numeric")
    else:
        if not (0 < lc <= placed <= ICE40_LCS):
            fail(f"{tag}: implausible iCE40 logic cells: block {lc}, placed with wrapper {placed}")
        if not (1 < ifmax < 1000):  # nextpnr: one LUT level between flip-flops is ~600 MHz
            fail(f"{tag}: implausible iCE40 Fmax {ifmax} MHz")
        mode = r["ice40_wrapper"].split(" ")[0]
        if mode not in ("registered", "serial") or (mode == "registered" and pins > ICE40_PINS):
            fail(f"{tag}: wrapper {r['ice40_wrapper']!r} for {pins} pins")
    if userlib:
        if r["userlib"] != os.path.basename(userlib):
            fail(f"{tag}: userlib column {r['userlib']!r}")
        for a, b in (("userlib_area", "osu018_area_um2"), ("userlib_cells", "osu018_cells"),
                     ("userlib_sta_crit_ns", "osu018_sta_crit_ns")):
            if num(r, a) is None or num(r, b) is None or abs(num(r, a) - num(r, b)) > 1e-3:
                fail(f"{tag}: --liberty with the same library gives {a}={r[a]} but {b}={r[b]}")
    if not (num(r, "seconds") or 0) > 0:
        fail(f"{tag}: seconds {r['seconds']!r}")


def check_growth(blk, small, big):
    tag = f"{blk.name} {small['set']} -> {big['set']}"
    if not num(small, "x") < num(big, "x"):
        fail(f"{tag}: x does not increase")
    for col in ("generic_cells", "osu018_area_um2", "osu018_cells", "ice40_lc"):
        a, b = num(small, col), num(big, col)
        if a is None or b is None or not b > a:
            fail(f"{tag}: {col} does not grow with {blk.x_params[0]}: {a} -> {b}")
    for col in ("generic_ffs", "generic_depth"):
        a, b = num(small, col), num(big, col)
        if a is None or b is None or b < a:
            fail(f"{tag}: {col} shrinks with {blk.x_params[0]}: {a} -> {b}")


def check_doc(out, blocks, rows):
    doc = pathlib.Path(out) / "hw-cost.md"
    if not doc.is_file():
        fail(f"no markdown at {doc}")
        return ""
    text = doc.read_text()
    for needle in ("Yosys 0.", "OpenSTA", "nextpnr-ice40", "qflow-tech-osu018", "pre-layout, no wire load",
                   "180 nm OSU academic library", "Run time of this report"):
        if needle not in text:
            fail(f"markdown lacks {needle!r}")
    if not re.search(r"Generated on \d{4}-\d{2}-\d{2}", text):
        fail("markdown lacks the generation date")
    for blk in blocks:
        if f"## {blk.name}: `{blk.module}`" not in text:
            fail(f"markdown has no section for {blk.name}")
        png = pathlib.Path(out) / "hw-cost" / f"{blk.name}.png"
        if not png.is_file() or png.read_bytes()[:8] != b"\x89PNG\r\n\x1a\n" or png.stat().st_size < 5000:
            fail(f"no plausible plot {png}")
        if f"](hw-cost/{blk.name}.png)" not in text:
            fail(f"markdown does not show {png.name}")
    for r in rows:
        if r["set"] and f"| {r['set']} | {r['params']} |" not in text:
            fail(f"markdown has no table row for {r['block']} {r['set']}")
    return text


def smallest(out):
    run_report(["--smallest", "--out", out, "-j", "2", "--liberty", OSU018, "--strict"], 0)
    rows = read_rows(out)
    areas, flops = liberty_areas(OSU018)
    blocks = [cfgmod.load_block(p, REPO / "rtl") for p in cfgmod.discover(REPO / "configs" / "hw")]
    if not blocks:
        fail("no block in configs/hw")
    by = {(r["block"], r["set"]): r for r in rows}
    want = {(b.name, s) for b in blocks for s in b.smallest}
    if set(by) != want or len(rows) != len(want):
        fail(f"rows {sorted(by)} != the smallest sets {sorted(want)}")
    for r in rows:
        empty = [c for c, v in r.items() if c != "failures" and v == ""]
        if empty:
            fail(f"{r['block']} {r['set']}: empty columns {empty} (failures: {r['failures']})")
        if r["failures"]:
            fail(f"{r['block']} {r['set']}: failures: {r['failures']}")
        check_row(r, out, areas, flops, OSU018)
    for b in blocks:
        a, c = by.get((b.name, b.smallest[0])), by.get((b.name, b.smallest[1]))
        if a and c:
            check_growth(b, a, c)
    text = check_doc(out, blocks, rows)
    if "None: every tool succeeded on every parameter set." not in text:
        fail("markdown reports failures")


def failure_isolation(out):
    fx = REPO / "tests" / "hw" / "fixtures"
    lib = str(fx / "noflop.lib")
    run_report(["--configs", str(fx), "--out", out, "-j", "2", "--liberty", lib, "--strict"], 1)
    rows = read_rows(out)
    by = {(r["block"], r["set"]): r for r in rows}
    want = {("good", "i3"), ("good", "i7"), ("broken_rtl", "w2"), ("broken_rtl", "w4"), ("broken_config", "")}
    if set(by) != want:
        fail(f"rows {sorted(by)} != {sorted(want)}")
        return
    areas, flops = liberty_areas(OSU018)
    for key in (("good", "i3"), ("good", "i7"), ("broken_rtl", "w2")):
        r = by[key]
        tag = " ".join(key)
        check_row(r, out, areas, flops, None)
        if not re.search(r"(^| \| )yosys-userlib: exit 1: .*(async|cannot)", r["failures"]):
            fail(f"{tag}: no yosys-userlib failure for a liberty without flip-flops: {r['failures']!r}")
        if "opensta-userlib: not run (yosys-userlib failed)" not in r["failures"]:
            fail(f"{tag}: the dependent OpenSTA run is not reported as not run: {r['failures']!r}")
        if r["userlib"] != "noflop.lib" or r["userlib_area"] != "":
            fail(f"{tag}: user liberty columns {r['userlib']!r} {r['userlib_area']!r}")
    good = cfgmod.load_block(fx / "good.yaml", REPO / "rtl")
    check_growth(good, by[("good", "i3")], by[("good", "i7")])
    r = by[("broken_rtl", "w4")]
    for needle in ("yosys-generic: exit 1: ", "rejected on purpose", "yosys-osu018: not run (yosys-generic failed)",
                   "opensta-osu018: not run (yosys-generic failed)", "yosys-ice40: exit 1: "):
        if needle not in r["failures"]:
            fail(f"broken_rtl w4: failures lack {needle!r}: {r['failures']!r}")
    for col in ("generic_cells", "osu018_area_um2", "osu018_sta_fmax_mhz", "ice40_lc", "ice40_fmax_mhz"):
        if r[col] != "":
            fail(f"broken_rtl w4: {col} = {r[col]!r} although its flow failed")
    r = by[("broken_config", "")]
    if not re.match(r"^config: .*broken_config\.yaml: smalest: unknown key", r["failures"]):
        fail(f"broken_config: failure {r['failures']!r} does not name the file and the key")
    doc = pathlib.Path(out) / "hw-cost.md"
    text = doc.read_text() if doc.is_file() else ""
    for line in ("| broken_rtl | w4 | yosys-generic |", "| broken_rtl | w4 | yosys-ice40 |",
                 "| good | i3 | yosys-userlib |", "| broken_config |  | config |"):
        if line not in text:
            fail(f"markdown Failures table lacks {line!r}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["smallest", "failure_isolation"])
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    {"smallest": smallest, "failure_isolation": failure_isolation}[a.mode](a.out)
    if errors:
        print(f"{len(errors)} check(s) failed")
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
