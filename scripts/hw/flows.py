"""The tool flows of the hardware cost report, one parameter set at a time.

Each flow writes its scripts, logs and netlists under the set's work directory and returns the
figures it measured; a tool that fails raises FlowError naming the tool, and the caller records it
in the set's row (the report goes on).
"""
import json
import math
import os
import re
import shutil
import subprocess
import time

from . import netlist

OSU018_LIBERTY = "/usr/share/qflow/tech/osu018/osu018_stdcells.lib"
STA_PERIOD_NS = 10.0         # the clock period the constraints use; Fmax = 1 / (period - slack)
ICE40_DEVICE = "--hx8k"
ICE40_PACKAGE = "ct256"
ICE40_PACKAGE_PINS = 206     # user I/O of the HX8K in the CT256 package (nextpnr places no more)
ICE40_SEED = 1
DEFAULT_TIMEOUT_S = 3600


class FlowError(Exception):
    def __init__(self, tool, message):
        super().__init__(f"{tool}: {message}")
        self.tool = tool
        self.message = message


def _first_error(text):
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("ERROR") or s.startswith("Error") or "ERROR:" in s:
            return s[:300]
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    return lines[-1][:300] if lines else "no output"


def run_tool(tool, cmd, cwd, log_name, timeout=DEFAULT_TIMEOUT_S, stdin_text=None):
    """Run one tool; its combined output goes to cwd/log_name. Returns (output, seconds)."""
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, cwd=cwd, input=stdin_text, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        out = e.stdout or ""
        if isinstance(out, bytes):
            out = out.decode(errors="replace")
        with open(os.path.join(cwd, log_name), "w") as f:
            f.write(out)
        raise FlowError(tool, f"timeout after {timeout} s")
    except OSError as e:
        raise FlowError(tool, f"cannot run {cmd[0]}: {e}")
    dt = time.monotonic() - t0
    with open(os.path.join(cwd, log_name), "w") as f:
        f.write(p.stdout)
    if p.returncode != 0:
        raise FlowError(tool, f"exit {p.returncode}: {_first_error(p.stdout)} (log {os.path.relpath(os.path.join(cwd, log_name))})")
    return p.stdout, dt


def _yosys(tool, script, cwd, name, timeout):
    path = os.path.join(cwd, name + ".ys")
    with open(path, "w") as f:
        f.write(script)
    return run_tool(tool, ["yosys", "-q", "-s", path], cwd, name + ".log", timeout)


def _chparams(block, pset):
    if not pset.params:
        return ""
    sets = " ".join(f"-set {k} {v}" for k, v in pset.params.items())
    return f"chparam {sets} {block.module}\n"


def _read_sources(block):
    return "read_verilog -sv " + " ".join(str(s) for s in block.sources) + "\n"


def module_params(block, cwd, timeout=300):
    """Parameter names of the module (yosys `chparam -list`)."""
    script = _read_sources(block) + f"chparam -list {block.module}\n"
    path = os.path.join(cwd, "params.ys")
    with open(path, "w") as f:
        f.write(script)
    out, _ = run_tool("yosys (read)", ["yosys", "-s", path], cwd, "params.log", timeout)
    names, inside = [], False
    for line in out.splitlines():
        if line.strip() == f"{block.module}:":
            inside = True
            continue
        if inside:
            if line.startswith("  ") and line.strip():
                names.append(line.strip())
            else:
                inside = False
    return names


# ---------------------------------------------------------------------------------------------
# yosys generic
def generic(block, pset, cwd, timeout):
    """Generic synthesis (yosys `synth -flatten`): cells, flip-flops, logic depth. Leaves
    generic.il for the liberty flows and the top's port list."""
    script = (_read_sources(block) + _chparams(block, pset)
              + f"synth -flatten -top {block.module}\n"
              + f"rename -top {block.module}\n"
              + "check -assert\n"
              + "write_json generic.json\n"
              + "write_rtlil generic.il\n")
    _, dt = _yosys("yosys-generic", script, cwd, "generic", timeout)
    try:
        mod = netlist.load_module(os.path.join(cwd, "generic.json"), block.module)
        cells, ffs, coarse = netlist.cell_counts(mod)
        if coarse:
            raise FlowError("yosys-generic", f"cells left unmapped to gates: {', '.join(coarse)}")
        depth = netlist.logic_depth(mod)
    except (ValueError, KeyError, OSError) as e:
        raise FlowError("yosys-generic", f"netlist: {e}")
    ports = netlist.ports(mod)
    return {"gen_cells": cells, "gen_ffs": ffs, "gen_depth": depth, "t_generic_s": dt}, ports


# ---------------------------------------------------------------------------------------------
# ASIC: liberty mapping + OpenSTA
_AREA_RE = re.compile(r"Chip area for (?:top )?module '[^']*':\s*([0-9.eE+-]+)")


def asic_map(block, liberty, cwd, tag, timeout):
    """Map generic.il onto a liberty (dfflibmap + abc), area with `stat -liberty`; writes
    <tag>.v for OpenSTA. Returns (area, std cells, flip-flops, seconds)."""
    script = ("read_rtlil generic.il\n"
              f"dfflibmap -liberty {liberty}\n"
              f"abc -liberty {liberty}\n"
              "opt_clean\n"
              f"tee -q -o {tag}_stat.txt stat -liberty {liberty}\n"
              f"tee -q -o {tag}_stat.json stat -json\n"
              "setundef -zero\n"
              "opt_clean -purge\n"
              f"write_verilog -noattr -noexpr -nohex -nodec {tag}.v\n")
    tool = f"yosys-{tag}"
    _, dt = _yosys(tool, script, cwd, tag, timeout)
    with open(os.path.join(cwd, f"{tag}_stat.txt")) as f:
        m = _AREA_RE.search(f.read())
    if not m:
        raise FlowError(tool, "no chip area in `stat -liberty` (cells without area?)")
    with open(os.path.join(cwd, f"{tag}_stat.json")) as f:
        st = json.load(f)
    by_type = st["design"]["num_cells_by_type"]
    unmapped = sorted(t for t in by_type if t.startswith("$"))
    if unmapped:
        raise FlowError(tool, f"cells the liberty cannot implement: {', '.join(unmapped)}")
    lib_ffs = _liberty_flops(liberty)
    ffs = sum(n for t, n in by_type.items() if t in lib_ffs)
    return float(m.group(1)), int(st["design"]["num_cells"]), ffs, dt


_FLOP_CACHE = {}


def _liberty_flops(liberty):
    """Names of the sequential cells (ff or latch groups) of a liberty file."""
    if liberty not in _FLOP_CACHE:
        names, cell = set(), None
        with open(liberty, errors="replace") as f:
            for line in f:
                m = re.match(r"\s*cell\s*\(\s*\"?([\w.]+)\"?\s*\)", line)
                if m:
                    cell = m.group(1)
                elif cell and re.match(r"\s*(ff|latch|ff_bank|latch_bank)\s*\(", line):
                    names.add(cell)
        _FLOP_CACHE[liberty] = names
    return _FLOP_CACHE[liberty]


def sta(module, liberty, cwd, tag, clock, reset, timeout):
    """OpenSTA on <tag>.v: one clock (STA_PERIOD_NS) on the clock port (a virtual clock when the
    block has none), inputs arriving at the clock edge and outputs required at the next one,
    inputs driven by an INVX1 and outputs loaded with four INVX1 inputs when the liberty has that
    cell, the asynchronous reset not timed. No wire load."""
    lines = [
        f"read_liberty {liberty}",
        f"read_verilog {tag}.v",
        f"link_design {module}",
        "set_cmd_units -time ns -capacitance pF",
        (f"create_clock -name clk -period {STA_PERIOD_NS} [get_ports {{{clock}}}]" if clock
         else f"create_clock -name clk -period {STA_PERIOD_NS}"),
    ]
    excl = [p for p in (clock, reset) if p]
    if excl:
        lines.append("set ins [delete_from_list [all_inputs] [get_ports {%s}]]" % " ".join(excl))
    else:
        lines.append("set ins [all_inputs]")
    lines += [
        "set_input_delay 0 -clock clk $ins",
        "set_output_delay 0 -clock clk [all_outputs]",
    ]
    if reset:
        lines.append("set_false_path -from [get_ports {%s}]" % reset)
    lines += [
        "set inv [get_lib_cells -quiet */INVX1]",
        "if {[llength $inv] > 0} {",
        "  set_driving_cell -lib_cell INVX1 -pin Y $ins",
        "  set inv_a [get_lib_pins [get_full_name [lindex $inv 0]]/A]",
        "  set_load [expr 4 * [get_property $inv_a capacitance]] [all_outputs]",
        "}",
        "report_checks -path_delay max -format full -digits 4",
    ]
    path = os.path.join(cwd, f"{tag}_sta.tcl")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    tool = f"opensta-{tag}"
    out, dt = run_tool(tool, ["sta", "-no_init", "-no_splash", "-exit", path], cwd, f"{tag}_sta.log", timeout)
    errs = [l for l in out.splitlines() if l.startswith("Error")]
    if errs:
        raise FlowError(tool, errs[0][:300])
    m = re.search(r"^\s*(-?[0-9.]+)\s+slack \((MET|VIOLATED)\)", out, re.M)
    if not m:
        raise FlowError(tool, "no constrained path reported")
    slack = float(m.group(1))
    start = re.search(r"^Startpoint: (\S+) \((.*)\)", out, re.M)
    end = re.search(r"^Endpoint: (\S+) \((.*)\)", out, re.M)
    crit = STA_PERIOD_NS - slack
    if crit <= 0:
        raise FlowError(tool, f"non-positive critical path {crit:.4f} ns")
    names = netlist.instance_outputs(os.path.join(cwd, f"{tag}.v"))

    def point(m, kind):
        if not m:
            return "?", "?"
        name, desc = m.group(1), m.group(2)
        if desc.startswith("input port"):
            return name, "in"
        if desc.startswith("output port"):
            return name, "out"
        return names.get(name, name), "reg"

    s_name, s_kind = point(start, "start")
    e_name, e_kind = point(end, "end")
    return {
        "crit_ns": crit,
        "fmax_mhz": 1000.0 / crit,
        "path": f"{s_kind}->{e_kind}: {s_name} -> {e_name}",
        "t_s": dt,
    }


# ---------------------------------------------------------------------------------------------
# iCE40
def resolve_port(names, configured, default, what):
    """The clock or reset port: the configured name (must exist), else the default if present."""
    if configured:
        if configured not in names:
            raise FlowError("config", f"{what} port {configured} is not a port of the module")
        return configured
    return default if default in names else None


def ice40(block, pset, cwd, wrapper_choice, timeout, r):
    """synth_ice40 of the block alone, nextpnr pack: its logic cells. Then the block inside the
    timing wrapper, placed and routed on an HX8K (fixed seed), icepack: post-route Fmax.
    Fills r as it goes (a later failure keeps the earlier figures)."""
    script = (_read_sources(block) + _chparams(block, pset)
              + f"synth_ice40 -top {block.module}\n"
              + "rename -top ccn_hw_dut\n"
              + "write_json ice40_block.json\n")
    _, t1 = _yosys("yosys-ice40", script, cwd, "ice40_block", timeout)
    _, tp = run_tool("nextpnr-ice40 (pack)",
                     ["nextpnr-ice40", ICE40_DEVICE, "--package", ICE40_PACKAGE, "--json", "ice40_block.json",
                      "--pack-only", "--report", "ice40_pack.json", "-q"], cwd, "ice40_pack.log", timeout)
    with open(os.path.join(cwd, "ice40_pack.json")) as f:
        util = json.load(f)["utilization"]
    lc, avail = int(util["ICESTORM_LC"]["used"]), int(util["ICESTORM_LC"]["available"])
    r["ice40_lc"] = lc
    if lc > avail:
        raise FlowError("nextpnr-ice40", f"not placed: {lc} logic cells do not fit the HX8K ({avail})")

    mod = netlist.load_module(os.path.join(cwd, "ice40_block.json"), "ccn_hw_dut")
    ports = netlist.ports(mod)
    names = {n for n, _, _ in ports}
    clock = resolve_port(names, block.clock, "clk_i", "clock")
    reset = resolve_port(names, block.reset, "rst_ni", "reset")
    data_bits = sum(w for n, _, w in ports if n not in (clock, reset))
    pins = data_bits + 1 + (1 if reset else 0)
    mode = wrapper_choice
    if mode == "auto":
        mode = "registered" if pins <= ICE40_PACKAGE_PINS else "serial"
    r["ice40_block_pins"] = pins
    try:
        text, ni, no = netlist.wrapper_verilog(ports, clock, reset, mode,
                                               f"iCE40 timing wrapper for {block.module} {pset.name} ({mode})")
    except ValueError as e:
        raise FlowError("ice40-wrapper", str(e))
    r["ice40_wrapper"] = f"{mode} ({ni} in + {no} out FFs)"
    with open(os.path.join(cwd, "ice40_wrap.v"), "w") as f:
        f.write(text)
    script = ("read_json ice40_block.json\n"
              "read_verilog ice40_wrap.v\n"
              "synth_ice40 -top ccn_hw_wrap -json ice40_wrap.json\n")
    _, t2 = _yosys("yosys-ice40 (wrapper)", script, cwd, "ice40_wrap", timeout)
    _, t3 = run_tool("nextpnr-ice40",
                     ["nextpnr-ice40", ICE40_DEVICE, "--package", ICE40_PACKAGE, "--json", "ice40_wrap.json",
                      "--asc", "ice40_wrap.asc", "--report", "ice40_route.json", "--timing-allow-fail",
                      "--seed", str(ICE40_SEED), "-q"], cwd, "ice40_route.log", timeout)
    _, t4 = run_tool("icepack", ["icepack", "ice40_wrap.asc", "ice40_wrap.bin"], cwd, "icepack.log", timeout)
    with open(os.path.join(cwd, "ice40_route.json")) as f:
        rep = json.load(f)
    r["ice40_lc_placed"] = int(rep["utilization"]["ICESTORM_LC"]["used"])
    fmax = rep.get("fmax", {})
    if not fmax:
        raise FlowError("nextpnr-ice40", "no clock Fmax in the report (no register-to-register path?)")
    achieved = min(v["achieved"] for v in fmax.values())
    if not (achieved > 0 and math.isfinite(achieved)):
        raise FlowError("nextpnr-ice40", f"implausible Fmax {achieved}")
    r["ice40_fmax_mhz"] = achieved
    return t1 + tp + t2 + t3 + t4


def tool_versions(liberty=None):
    def cmd(args):
        try:
            p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
            return p.stdout.strip().splitlines()[0] if p.stdout.strip() else "?"
        except (OSError, subprocess.TimeoutExpired):
            return "not found"

    def deb(pkg):
        try:
            p = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", pkg], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True, timeout=60)
            return p.stdout.strip() or "not installed"
        except (OSError, subprocess.TimeoutExpired):
            return "?"

    nextpnr = cmd(["nextpnr-ice40", "--version"])
    m = re.search(r"\(Version ([^)]+)\)", nextpnr)
    return {
        "yosys": cmd(["yosys", "-V"]),
        "opensta": "OpenSTA " + cmd(["sta", "-version"]),
        "nextpnr-ice40": "nextpnr-ice40 " + (m.group(1) if m else nextpnr),
        "icestorm": "fpga-icestorm " + deb("fpga-icestorm"),
        "osu018": "qflow-tech-osu018 " + deb("qflow-tech-osu018"),
    }


def have_tools():
    return {t: shutil.which(t) is not None for t in ("yosys", "sta", "nextpnr-ice40", "icepack")}
