#!/usr/bin/python3
"""Every Verilator waiver in the RTL carries a reason.

A `verilator lint_off` must have a `//` comment on the line just above it (or after it on the
same line) saying why, and must be closed by a matching `lint_on` in the same file.
Usage: check_waivers.py RTL_DIR
"""
import pathlib
import re
import sys

OFF = re.compile(r"verilator\s+lint_off\s+(\w+)")
ON = re.compile(r"verilator\s+lint_on\s+(\w+)")


def main() -> int:
    rtl = pathlib.Path(sys.argv[1])
    problems = []
    waivers = 0
    for path in sorted(rtl.glob("*.sv")):
        lines = path.read_text().splitlines()
        open_waivers = {}
        for n, line in enumerate(lines, 1):
            for m in OFF.finditer(line):
                waivers += 1
                after = line[m.end():]
                before = lines[n - 2].strip() if n >= 2 else ""
                if not (before.startswith("//") or "//" in after):
                    problems.append(f"{path.name}:{n}: lint_off {m.group(1)} without a reason comment")
                open_waivers[m.group(1)] = n
            for m in ON.finditer(line):
                open_waivers.pop(m.group(1), None)
        for rule, n in open_waivers.items():
            problems.append(f"{path.name}:{n}: lint_off {rule} never closed by lint_on")
    for p in problems:
        print(p)
    print(f"check_waivers: {waivers} waiver(s) in {rtl}, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
