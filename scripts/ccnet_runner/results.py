"""Reading results: stats.json helpers and the sweep CSV (columns in docs/sweeps.md)."""
import csv
import os

# (column, stats.json path) of the whole-run figures, in CSV order.
SUMMARY = [
    ("offered", "throughput.offered.mean"),
    ("accepted", "throughput.accepted.mean"),
    ("accepted_min", "throughput.accepted.min"),
    ("packet_latency_mean", "latency.packet.mean"),
    ("packet_latency_p99", "latency.packet.p99"),
    ("packet_latency_max", "latency.packet.max"),
    ("network_latency_mean", "latency.network.mean"),
    ("network_latency_p99", "latency.network.p99"),
    ("drained", "drained"),
    ("mechanism", "mechanism"),
]
# Per traffic class C: C.<column>.
PER_CLASS = [
    ("offered", "throughput.offered.mean"),
    ("accepted", "throughput.accepted.mean"),
    ("packet_latency_mean", "latency.packet.mean"),
    ("network_latency_mean", "latency.network.mean"),
]
# Simulator speed: the only columns that differ between two runs of the same sweep.
PERF = [("wall_seconds", "perf.wall_seconds"), ("cycles_per_second", "perf.cycles_per_second")]
PERF_COLUMNS = [c for c, _ in PERF]


def get(d, path):
    """d['a']['b'] for path 'a.b'."""
    for k in path.split("."):
        d = d[k]
    return d


def without_perf(stats):
    """stats.json without its `perf` section: what two runs of the same config and seed share."""
    return {k: v for k, v in stats.items() if k != "perf"}


def write_csv(path, keys, points, results):
    """One row per point, in the points' order: the varied `keys`, seed, status, the summary and
    per-class figures (empty for a failed point), perf, the point's name and its error."""
    classes = sorted({c for p in points if results[p.name].ok for c in results[p.name].stats["classes"]})
    head = list(keys) + ["seed", "status"] + [c for c, _ in SUMMARY]
    for c in classes:
        head += [f"{c}.{col}" for col, _ in PER_CLASS]
    head += PERF_COLUMNS + ["point", "error"]
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = f"{path}.tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(head)
        for p in points:
            r = results[p.name]
            s = r.stats
            row = [p.values.get(k, "") for k in keys]
            row += [p.seed if p.seed is not None else (s["seed"] if s else ""), r.status]
            if s:
                row += [get(s, q) for _, q in SUMMARY]
                for c in classes:
                    cs = s["classes"].get(c)
                    row += [get(cs, q) for _, q in PER_CLASS] if cs else [""] * len(PER_CLASS)
                row += [get(s, q) for _, q in PERF]
            else:
                row += [""] * (len(SUMMARY) + len(PER_CLASS) * len(classes) + len(PERF))
            w.writerow(row + [p.name, r.error])
    os.replace(tmp, path)
    return path
