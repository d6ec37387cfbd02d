"""What to run: points (config + overrides + seed -> an output directory), grids of them, plan files."""
import itertools
import os
import re
from dataclasses import dataclass, field


@dataclass
class Point:
    """One ccnet run. `name` is unique within a run of the runner (progress lines, CSV `point`
    column); `out` is the directory that receives stats.json and the run record."""
    name: str
    config: str
    out: str
    sets: list = field(default_factory=list)   # `--set key=value` overrides, in order
    seed: int = None                           # passed as `--set seed=N`; None: the config's seed
    values: dict = field(default_factory=dict)  # varied key -> this point's value (CSV columns)
    args: list = field(default_factory=list)   # extra `ccnet run` options (--trace ...), not config

    def overrides(self):
        return list(self.sets) + ([f"seed={self.seed}"] if self.seed is not None else [])

    def to_json(self):
        return {"name": self.name, "config": self.config, "out": self.out, "sets": list(self.sets),
                "seed": self.seed, "values": dict(self.values), "args": list(self.args)}

    @staticmethod
    def from_json(d):
        return Point(d["name"], d["config"], d["out"], d["sets"], d["seed"], d["values"], d["args"])


def parse_vary(spec):
    """`key=v1,v2,...` -> (key, [v1, v2, ...]). Values that contain commas (YAML maps such as
    `cc={mechanism: ecn, timer: 300}`) are separated by ';' instead."""
    if "=" not in spec:
        raise ValueError(f"--vary {spec}: expected key=v1,v2,...")
    key, vals = spec.split("=", 1)
    values = [v.strip() for v in (vals.split(";") if ";" in vals else vals.split(","))]
    if not key or not all(values):
        raise ValueError(f"--vary {spec}: empty key or value")
    return key.strip(), values


def parse_seeds(spec):
    """`1,2,5-8` -> [1, 2, 5, 6, 7, 8]."""
    seeds = []
    for part in str(spec).split(","):
        part = part.strip()
        m = re.fullmatch(r"(\d+)-(\d+)", part)
        if m and int(m.group(1)) <= int(m.group(2)):
            seeds += range(int(m.group(1)), int(m.group(2)) + 1)
        elif part.isdigit():
            seeds.append(int(part))
        else:
            raise ValueError(f"seeds {spec!r}: expected numbers and ranges such as 1,2,5-8")
    if len(set(seeds)) != len(seeds):
        raise ValueError(f"seeds {spec!r}: a seed is listed twice")
    return seeds


def _labels(keys):
    """Short labels for the varied keys: the last dotted component (`rate` for
    traffic.classes[0].rate), longer suffixes where two keys would share one."""
    parts = [k.split(".") for k in keys]
    labels = []
    for p in parts:
        n = 1
        while n < len(p) and sum(1 for q in parts if q[-n:] == p[-n:]) > 1:
            n += 1
        labels.append(".".join(p[-n:]))
    return labels


def _clean(text):
    """A value as a directory-name fragment: `{mechanism: ecn, timer: 300}` -> `mechanism:ecn,timer:300`."""
    return re.sub(r"[{}\s'\"]", "", text).replace("/", "-")


def grid(config, axes, out, sets=(), seeds=(1,), prefix=""):
    """The grid product of `axes` ([(key, [values])], first axis outermost) times `seeds`, as
    points named by their values (`rate-0.3_seed1`, `mechanism:ecn_rate-0.3_seed2`) under `out`.
    `prefix` goes before every name (plan files: `ur/...`)."""
    keys = [k for k, _ in axes]
    if len(set(keys)) != len(keys):
        raise ValueError(f"--vary: a key is varied twice ({', '.join(keys)})")
    labels = _labels(keys)
    points, names = [], {}
    config = os.path.abspath(config)
    for combo in itertools.product(*[vals for _, vals in axes]):
        for seed in seeds:
            stem = "_".join(f"{label}-{_clean(v)}" for label, v in zip(labels, combo)) or "run"
            name = f"{prefix}{stem}_seed{seed}"
            if name in names:
                raise ValueError(f"points {names[name]} and {list(combo)} seed {seed} get the same name {name}")
            names[name] = list(combo) + [f"seed {seed}"]
            points.append(Point(name=name, config=config, out=os.path.join(os.path.abspath(out), name[len(prefix):]),
                                sets=list(sets) + [f"{k}={v}" for k, v in zip(keys, combo)], seed=seed,
                                values=dict(zip(keys, combo))))
    return points


def _plan_value(v):
    """A plan-file value as `--set` text: YAML maps and lists in flow style, scalars as written."""
    import yaml
    if isinstance(v, (dict, list)):
        return yaml.safe_dump(v, default_flow_style=True, width=1 << 20, sort_keys=False).strip()
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


@dataclass
class PlanSweep:
    """One sweep of a plan file: its points go to OUT/<name>/, its CSV to OUT/<name>/sweep.csv."""
    name: str
    keys: list
    points: list


def load_plan(path, out, extra_sets=(), seeds=None, only=()):
    """Reads a plan file (docs/sweeps.md, 'Plan files'): several sweeps run as one.

    sweeps:
      - name: ur
        config: ur.yaml                 # relative to the plan file
        vary: {traffic.classes[0].rate: [0.1, 0.2], cc: [{mechanism: baseline}, {mechanism: lhrp}]}
        set: [sim.measure=100000]      # optional
        seeds: 1-10                     # optional (default 1)
    `extra_sets` go after each sweep's own `set`; `seeds` replaces every sweep's seeds."""
    import yaml
    where = f"plan {path}"
    try:
        with open(path) as f:
            doc = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        raise ValueError(f"{where}: {e}")
    if not isinstance(doc, dict) or not isinstance(doc.get("sweeps"), list) or set(doc) != {"sweeps"}:
        raise ValueError(f"{where}: expected a mapping with one key, `sweeps`, holding a list")
    base = os.path.dirname(os.path.abspath(path))
    sweeps, seen = [], set()
    for i, s in enumerate(doc["sweeps"]):
        if not isinstance(s, dict):
            raise ValueError(f"{where}: sweeps[{i}] is not a mapping")
        unknown = set(s) - {"name", "config", "vary", "set", "seeds"}
        if unknown or "name" not in s or "config" not in s:
            raise ValueError(f"{where}: sweeps[{i}]: needs `name` and `config`"
                             + (f"; unknown key(s) {', '.join(sorted(unknown))}" if unknown else ""))
        name = str(s["name"])
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", name) or name in seen:
            raise ValueError(f"{where}: sweeps[{i}]: name {name!r} is not a unique plain directory name")
        seen.add(name)
        if only and name not in only:
            continue
        vary = s.get("vary") or {}
        if not isinstance(vary, dict) or not all(isinstance(v, list) and v for v in vary.values()):
            raise ValueError(f"{where}: sweep {name}: `vary` must map keys to non-empty lists of values")
        axes = [(str(k), [_plan_value(v) for v in vals]) for k, vals in vary.items()]
        own_sets = s.get("set") or []
        if not isinstance(own_sets, list) or not all(isinstance(x, str) and "=" in x for x in own_sets):
            raise ValueError(f"{where}: sweep {name}: `set` must be a list of key=value strings")
        sweep_seeds = seeds if seeds is not None else parse_seeds(s.get("seeds", 1))
        config = os.path.join(base, s["config"])
        if not os.path.isfile(config):
            raise ValueError(f"{where}: sweep {name}: config {config} not found")
        points = grid(config, axes, os.path.join(out, name), list(own_sets) + list(extra_sets), sweep_seeds,
                      prefix=f"{name}/")
        sweeps.append(PlanSweep(name, [k for k, _ in axes], points))
    missing = set(only) - seen
    if missing:
        raise ValueError(f"{where}: no sweep named {', '.join(sorted(missing))} (has {', '.join(sorted(seen))})")
    return sweeps
