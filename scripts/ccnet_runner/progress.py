"""Progress of a sweep: a redrawn bar on a terminal, one plain line per finished point otherwise."""
import os
import shutil
import sys
import time


def duration(seconds):
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}h{m:02d}m" if h else f"{m}m{s:02d}s" if m else f"{s}s"


class Progress:
    """Counts points done / running / failed out of `total` (of which `reused` were done before
    this run started) and estimates the time left from this run's completion rate."""

    def __init__(self, total, reused, label="sweep", stream=None, interactive=None):
        self.total, self.reused, self.label = total, reused, label
        self.stream = stream or sys.stderr
        if interactive is None:
            interactive = self.stream.isatty() and os.environ.get("TERM") != "dumb"
        self.interactive = interactive
        self.done = reused        # finished ok, reused included
        self.failed = 0
        self.running = 0
        self.t0 = time.time()
        self.finished_here = 0    # points this run completed (ok or failed): the ETA's rate
        self._last_draw = 0.0
        self._bar_shown = False

    def eta(self):
        left = self.total - self.done - self.failed
        if left <= 0:
            return "0s"
        if not self.finished_here:
            return "--"
        return duration((time.time() - self.t0) / self.finished_here * left)

    def counts(self):
        return (f"{self.done}/{self.total} done, {self.failed} failed, {self.running} running, "
                f"{duration(time.time() - self.t0)} elapsed, ETA {self.eta()}")

    def _clear(self):
        if self._bar_shown:
            self.stream.write("\r\033[K")
            self._bar_shown = False

    def line(self, text):
        """A permanent line (above the bar on a terminal)."""
        self._clear()
        self.stream.write(f"{self.label}: {text}\n")
        self.stream.flush()
        self.draw(force=True)

    def draw(self, force=False):
        if not self.interactive or (not force and time.time() - self._last_draw < 0.25):
            return
        self._last_draw = time.time()
        width = shutil.get_terminal_size((100, 20)).columns
        text = self.counts()
        bar_w = max(10, min(40, width - len(text) - len(self.label) - 6))
        filled = int(bar_w * (self.done + self.failed) / max(1, self.total))
        bar = "#" * filled + "." * (bar_w - filled)
        self.stream.write(f"\r\033[K{self.label} [{bar}] {text}"[:width + 8])
        self.stream.flush()
        self._bar_shown = True

    def set_running(self, n):
        n = min(n, self.total - self.done - self.failed)
        if n != self.running:
            self.running = n
            self.draw(force=True)

    def finished(self, result):
        self.finished_here += 1
        if result.ok:
            self.done += 1
        else:
            self.failed += 1
        self.running = min(self.running, self.total - self.done - self.failed)
        if not result.ok:
            self.line(f"FAILED {result.name}: {result.error}" + ("" if self.interactive else f"; {self.counts()}"))
        elif not self.interactive:
            self.line(f"ok {result.name} ({result.seconds:.1f} s); {self.counts()}")
        else:
            self.draw(force=True)

    def close(self):
        self._clear()
        self.stream.flush()
