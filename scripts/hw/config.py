"""Block descriptions for the hardware cost report: configs/hw/<block>.yaml.

One file per RTL block; adding a block to the report is adding its file. Schema (unknown keys are
errors naming the file and the key):

    module: ccn_rr_arbiter              # top module (required)
    sources: [ccn_pkg.sv, ccn_rr_arbiter.sv]   # files under rtl/, dependencies first (required);
                                        # a path starting with ./ or ../ is relative to this file
    description: one line shown under the block's heading
    x:                                  # the swept size parameter (plots, the test's growth check)
      params: [NumReq]                  # first = x value; others move with it (NumOut = NumIn)
      label: requesters (NumReq)
      log: false                        # log2 x axis in the plot
    sets:                               # parameter sets (required, >= 1 entry)
      - name: "n{NumReq}_p{NumPrio}"    # str.format over the set's parameters
        params: {NumReq: [4, 8, 16], NumPrio: 2, NumOut: "=NumIn"}
                                        # lists: cartesian product; "=Other": same value as Other
    smallest: [n4, n8]                  # two sets, increasing x, other parameters equal: the ctest
    clock: clk_i                        # clock port (default clk_i when the module has it)
    reset: rst_ni                       # asynchronous reset port, not timed (default rst_ni)
    ice40_wrapper: auto                 # auto | registered | serial (see docs/hw-cost.md)
    sta_max_cells: 2000                 # above: the pre-layout timing is flagged as optimistic
    reference: n16                      # the set shown in the summary table (default: first)
    notes: free text (markdown) shown under the block's table

Parameter values are integers or booleans (written 1/0 to yosys). Parameter names are checked
against the module (yosys `chparam -list`) by the report before any synthesis.
"""
import itertools
import pathlib

import yaml

TOP_KEYS = {
    "module", "sources", "description", "x", "sets", "smallest", "clock", "reset",
    "ice40_wrapper", "sta_max_cells", "notes", "reference",
}
X_KEYS = {"params", "label", "log"}
SET_KEYS = {"name", "params"}
WRAPPERS = ("auto", "registered", "serial")
DEFAULT_STA_MAX_CELLS = 2000


class ConfigError(Exception):
    """A mistake in a block description; the message names the file and the key."""


class ParamSet:
    def __init__(self, name, params):
        self.name = name
        self.params = params  # dict name -> int, in declaration order

    def param_text(self):
        return " ".join(f"{k}={v}" for k, v in self.params.items())


class Block:
    def __init__(self, path, data, rtl_dir):
        self.path = pathlib.Path(path)
        self.name = self.path.stem
        self.module = data["module"]
        self.sources = [source_path(path, rtl_dir, s) for s in data["sources"]]
        self.description = data.get("description", "")
        self.x_params = list(data["x"]["params"])
        self.x_label = data["x"].get("label", self.x_params[0])
        self.x_log = bool(data["x"].get("log", False))
        self.sets = []  # ParamSet
        self.smallest = list(data["smallest"])
        self.clock = data.get("clock")
        self.reset = data.get("reset")
        self.ice40_wrapper = data.get("ice40_wrapper", "auto")
        self.sta_max_cells = int(data.get("sta_max_cells", DEFAULT_STA_MAX_CELLS))
        self.notes = data.get("notes", "")
        self.reference = data.get("reference")

    def x_value(self, pset):
        return pset.params[self.x_params[0]]

    def series_key(self, pset):
        """The parameters other than x: sets sharing them form one curve of the plot."""
        return tuple(sorted((k, v) for k, v in pset.params.items() if k not in self.x_params))

    def set_by_name(self, name):
        for s in self.sets:
            if s.name == name:
                return s
        return None


def source_path(cfg_path, rtl_dir, s):
    s = str(s)
    if s.startswith("./") or s.startswith("../"):
        return (pathlib.Path(cfg_path).parent / s).resolve()
    return pathlib.Path(rtl_dir).resolve() / s


def _err(path, key, msg):
    return ConfigError(f"{path}: {key}: {msg}")


def _check_keys(path, where, obj, allowed):
    if not isinstance(obj, dict):
        raise _err(path, where, "expected a mapping")
    for k in obj:
        if k not in allowed:
            raise _err(path, f"{where}.{k}" if where else k, f"unknown key (allowed: {', '.join(sorted(allowed))})")


def _value(path, key, v):
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        if v < 0:
            raise _err(path, key, f"negative value {v}")
        return v
    raise _err(path, key, f"value {v!r} is not an integer or boolean")


def _expand(path, where, entry):
    """All parameter sets of one `sets` entry."""
    params = entry["params"]
    if not isinstance(params, dict) or not params:
        raise _err(path, f"{where}.params", "expected a non-empty mapping of parameter: value")
    fixed, lists, refs = {}, {}, {}
    for k, v in params.items():
        key = f"{where}.params.{k}"
        if isinstance(v, list):
            if not v:
                raise _err(path, key, "empty list")
            lists[k] = [_value(path, key, x) for x in v]
        elif isinstance(v, str) and v.startswith("="):
            refs[k] = v[1:]
        else:
            fixed[k] = _value(path, key, v)
    for k, other in refs.items():
        if other not in params or other in refs:
            raise _err(path, f"{where}.params.{k}", f"'={other}' must name another parameter of this entry")
    out = []
    names = list(lists)
    for combo in itertools.product(*(lists[n] for n in names)):
        values = dict(fixed)
        values.update(zip(names, combo))
        for k, other in refs.items():
            values[k] = values[other]
        ordered = {k: values[k] for k in params}
        try:
            name = entry["name"].format(**ordered)
        except (KeyError, IndexError, ValueError) as e:
            raise _err(path, f"{where}.name", f"bad template {entry['name']!r}: {e}")
        out.append(ParamSet(name, ordered))
    return out


def load_block(path, rtl_dir):
    path = pathlib.Path(path)
    try:
        with open(path) as f:
            data = yaml.safe_load(f)
    except yaml.YAMLError as e:
        raise ConfigError(f"{path}: YAML: {e}")
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping at the top level")
    _check_keys(path, "", data, TOP_KEYS)
    for k in ("module", "sources", "x", "sets", "smallest"):
        if k not in data:
            raise _err(path, k, "missing (required)")
    if not isinstance(data["module"], str):
        raise _err(path, "module", "expected a module name")
    if not isinstance(data["sources"], list) or not data["sources"]:
        raise _err(path, "sources", "expected a non-empty list of files under rtl/")
    for i, s in enumerate(data["sources"]):
        if not source_path(path, rtl_dir, s).is_file():
            raise _err(path, f"sources[{i}]", f"no such file {source_path(path, rtl_dir, s)}")
    _check_keys(path, "x", data["x"], X_KEYS)
    if not isinstance(data["x"].get("params"), list) or not data["x"]["params"]:
        raise _err(path, "x.params", "expected a non-empty list of parameter names")
    if data.get("ice40_wrapper", "auto") not in WRAPPERS:
        raise _err(path, "ice40_wrapper", f"expected one of {', '.join(WRAPPERS)}")
    blk = Block(path, data, rtl_dir)
    if not isinstance(data["sets"], list) or not data["sets"]:
        raise _err(path, "sets", "expected a non-empty list")
    seen = set()
    for i, entry in enumerate(data["sets"]):
        where = f"sets[{i}]"
        _check_keys(path, where, entry, SET_KEYS)
        if "name" not in entry or "params" not in entry:
            raise _err(path, where, "needs name and params")
        for ps in _expand(path, where, entry):
            if ps.name in seen:
                raise _err(path, f"{where}.name", f"duplicate set name {ps.name}")
            for xp in blk.x_params:
                if xp not in ps.params:
                    raise _err(path, where, f"x parameter {xp} not set")
            seen.add(ps.name)
            blk.sets.append(ps)
    sm = data["smallest"]
    if not isinstance(sm, list) or len(sm) != 2:
        raise _err(path, "smallest", "expected two set names (increasing x, other parameters equal)")
    a, b = (blk.set_by_name(n) for n in sm)
    if a is None or b is None:
        raise _err(path, "smallest", f"unknown set name in {sm}")
    if not blk.x_value(a) < blk.x_value(b) or blk.series_key(a) != blk.series_key(b):
        raise _err(path, "smallest", "the two sets must differ only in x, the first smaller")
    if blk.reference is None:
        blk.reference = blk.sets[0].name
    elif blk.set_by_name(blk.reference) is None:
        raise _err(path, "reference", f"unknown set name {blk.reference}")
    return blk


def discover(config_dir):
    return sorted(pathlib.Path(config_dir).glob("*.yaml"))
