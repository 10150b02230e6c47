"""Each soak process's resident memory sampled over the run, and whether it grows.

A web process is its gunicorn master with its worker (a worker replaced by gunicorn shows as a
new child pid, counted); a Celery worker is one process (solo pool).

No growth trend: the least-squares slope of the second half of the run (after the first
requests have filled the caches and the allocator's arenas) is under `FLAT_MB_PER_MINUTE`.
At ~15 requests/s per web process, a leak of 1 KB per request would be ~0.9 MB/min.
"""

from __future__ import annotations

import csv
import statistics
import threading
import time
from pathlib import Path

FLAT_MB_PER_MINUTE = 1.0


def _children(pid: int) -> list[int]:
    pids = []
    for child in Path(f"/proc/{pid}/task").glob("*/children"):
        pids += [int(p) for p in child.read_text().split()]
    return pids


def rss_mb(pid: int) -> float:
    """Resident memory of a process and its children (a gunicorn master and its worker)."""
    total = 0
    for p in [pid, *_children(pid)]:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except FileNotFoundError:  # a worker replaced between the listing and the read
            pass
    return total / 1024


class MemorySampler:
    """Samples every process's RSS every `every` seconds on a thread of its own, from
    `start()` to `stop()` (which takes one last sample)."""

    def __init__(self, processes: dict[str, int], every: float) -> None:
        self.processes, self.every = processes, every
        self.samples: list[tuple[float, dict[str, float]]] = []
        self.children: dict[str, set[int]] = {name: set() for name in processes}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _sample(self) -> None:
        for name, pid in self.processes.items():
            self.children[name].update(_children(pid))
        self.samples.append((time.monotonic() - self._started, {n: rss_mb(p) for n, p in self.processes.items()}))

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            self._sample()

    def start(self) -> None:
        self._started = time.monotonic()
        self._sample()
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
        if time.monotonic() - self._started - self.samples[-1][0] > 1:
            self._sample()

    def csv_write(self, path: Path) -> None:
        with path.open("w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(["seconds", *(f"{name}_rss_mb" for name in self.processes)])
            for t, values in self.samples:
                writer.writerow([f"{t:.1f}", *(f"{values[name]:.1f}" for name in self.processes)])

    def trend(self, name: str) -> dict:
        """Start, peak, end (MB) and the slope (MB/min) of the second half of the run."""
        series = [(t, values[name]) for t, values in self.samples]
        half = series[-1][0] / 2
        second = [(t, v) for t, v in series if t >= half]
        slope = 0.0
        if len(second) >= 3:
            slope = statistics.linear_regression([t for t, _ in second], [v for _, v in second]).slope * 60
        return {"start": series[0][1], "peak": max(v for _, v in series), "end": series[-1][1], "slope": slope,
                "replaced": max(0, len(self.children[name]) - 1)}

    def report(self) -> bool:
        """Prints the timeline (a row a minute; every sample in a run under five minutes) and
        each process's trend; True when no process grows."""
        names = list(self.processes)
        step = 60 if self.samples[-1][0] >= 300 else self.every
        print(f"\nmemory (RSS MB) over time, sampled every {self.every:.0f} s")
        print(f"{'min:s':>6} " + " ".join(f"{n:>8}" for n in names))
        mark = 0.0
        for i, (t, values) in enumerate(self.samples):
            if t + self.every / 2 >= mark or i == len(self.samples) - 1:
                print(f"{int(t) // 60:>3}:{int(t) % 60:02d} " + " ".join(f"{values[n]:>8.0f}" for n in names))
                mark = (round(t / step) + 1) * step
        print(f"\n{'process':<10} {'start':>7} {'peak':>7} {'end':>7} {'end/start':>9} {'slope 2nd half':>15}  verdict")
        flat = True
        for name in names:
            trend = self.trend(name)
            grows = trend["slope"] >= FLAT_MB_PER_MINUTE
            flat &= not grows
            replaced = f" ({trend['replaced']} worker(s) replaced)" if trend["replaced"] else ""
            print(f"{name:<10} {trend['start']:>7.0f} {trend['peak']:>7.0f} {trend['end']:>7.0f} "
                  f"{(trend['end'] / trend['start'] - 1) * 100:>+8.1f}% {trend['slope']:>+9.2f} MB/min  "
                  f"{'GROWS' if grows else 'flat'}{replaced}")
        print(f"no growth trend = second-half least-squares slope under {FLAT_MB_PER_MINUTE:.0f} MB/min "
              f"(a leak of ~1 KB a request at this load); verdict: {'no growth trend' if flat else 'GROWTH'}")
        return flat
