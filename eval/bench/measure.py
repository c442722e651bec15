"""What every benchmark part shares: child processes and their peak memory, percentiles and
medians over runs, the description of the machine a figure was measured on.

Peak RSS comes from the kernel (the rusage of that one child, its high-water mark, not a
sample, taken by the small launcher `eval.bench.peak`), so a short allocation spike is not
missed. It counts the resident pages of memory-mapped files too. A memory budget, when given,
is watched by sampling the anonymous memory (mapped file pages are page cache the kernel can
drop), and a child over it is stopped: a measurement that does not fit is reported as such
rather than pushing the machine into swap or the OOM killer.
"""

from __future__ import annotations

import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import numpy as np
import psutil

from eval.bench.worker import RESULT_PREFIX

GB = 1024**3
PERCENTILES = (50, 95, 99)


@dataclass
class ChildRun:
    """How a child process ended, how long it ran, and the most memory it held."""

    returncode: int
    seconds: float
    peak_rss: int  # bytes
    stdout: str
    stderr: str
    over_budget: bool = False  # stopped because its memory passed the budget

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.over_budget

    def failure(self) -> str:
        """One line saying why the child did not succeed."""
        if self.over_budget:
            return f"stopped: memory passed the budget ({self.peak_rss / GB:.1f} GB peak)"
        tail = [line for line in self.stderr.strip().splitlines() if line.strip()][-1:]
        return f"exit code {self.returncode}: {tail[0] if tail else 'no message'}"


def with_peak(argv: Sequence[str], peak_file: Path) -> list[str]:
    """`argv` started through `eval.bench.peak`, which writes its peak RSS to `peak_file`."""
    return [sys.executable, "-m", "eval.bench.peak", str(peak_file), *argv]


def read_peak(peak_file: Path) -> int:
    """The peak RSS in bytes that `eval.bench.peak` wrote (0 if it wrote none)."""
    try:
        return int(peak_file.read_text().strip()) * 1024
    except (OSError, ValueError):
        return 0


def run_child(argv: Sequence[str], memory_budget: int | None = None, env: Mapping[str, str] | None = None,
              cwd: Path | None = None) -> ChildRun:
    """Run `argv` to its end; its wall time and kernel-reported peak RSS (its own and its
    waited-for descendants'). Over `memory_budget` bytes (sampled every 0.2 s) it is stopped."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err, \
            tempfile.TemporaryDirectory() as scratch:
        peak_file = Path(scratch) / "peak"
        started = time.perf_counter()
        process = subprocess.Popen(with_peak(argv, peak_file), stdout=out, stderr=err, start_new_session=True,
                                   env=None if env is None else {**os.environ, **env}, cwd=cwd)
        over, seen = threading.Event(), [0]
        if memory_budget is not None:
            threading.Thread(target=_watch, args=(process.pid, memory_budget, over, seen), daemon=True).start()
        process.wait()
        seconds = time.perf_counter() - started
        out.seek(0)
        err.seek(0)
        peak = read_peak(peak_file) or seen[0]  # a child stopped over budget wrote no peak
        return ChildRun(process.returncode, seconds, peak, out.read(), err.read(), over.is_set())


def _watch(pid: int, budget: int, over: threading.Event, seen: list[int]) -> None:
    """Stop the child's process group when the anonymous memory of the child and its
    descendants passes `budget` (pages of memory-mapped files are page cache the kernel can
    drop, so they do not count); `seen[0]` keeps the most it saw."""
    try:
        process = psutil.Process(pid)
        while process.is_running() and process.status() != psutil.STATUS_ZOMBIE:
            seen[0] = max(seen[0], tree_rss(process, anonymous=True))
            if seen[0] > budget:
                over.set()
                os.killpg(pid, signal.SIGKILL)
                return
            time.sleep(0.2)
    except (psutil.NoSuchProcess, ProcessLookupError):
        return


def tree_rss(process: psutil.Process, anonymous: bool = False) -> int:
    """Resident bytes of a process and all its descendants now (`anonymous`: less the
    resident pages of mapped files)."""
    total = 0
    for member in [process, *process.children(recursive=True)]:
        try:
            memory = member.memory_info()
        except psutil.NoSuchProcess:
            continue
        total += memory.rss - (memory.shared if anonymous else 0)
    return total


def processes_memory(members: Iterable[psutil.Process]) -> dict[str, int]:
    """Bytes of a server's processes: `rss` summed (a page shared by several processes counts
    once per process), `pss` summed (each shared page split between the processes sharing it,
    so the sum counts it once: what they hold as a whole), and how many processes there are
    (those that exited meanwhile are left out)."""
    rss = pss = processes = 0
    for member in members:
        try:
            full = member.memory_full_info()
        except psutil.NoSuchProcess:
            continue
        rss, pss, processes = rss + full.rss, pss + full.pss, processes + 1
    return {"rss": rss, "pss": pss, "processes": processes}


def call_in_child(function: str, kwargs: Mapping[str, Any], memory_budget: int | None = None
                  ) -> tuple[dict[str, Any] | None, ChildRun]:
    """Call `module:function(**kwargs)` in a fresh Python (`eval.bench.worker`): its JSON
    result (None if it failed) and the child's run, with its peak memory."""
    run = run_child([sys.executable, "-m", "eval.bench.worker", function, json.dumps(kwargs)],
                    memory_budget=memory_budget, cwd=Path(__file__).resolve().parents[2])
    lines = [line for line in run.stdout.splitlines() if line.startswith(RESULT_PREFIX)]
    if not run.ok or not lines:
        return None, run
    return json.loads(lines[-1][len(RESULT_PREFIX):]), run


def percentiles(seconds: Iterable[float]) -> dict[str, float]:
    """p50, p95 and p99 of durations, in milliseconds (linear interpolation, numpy's default)."""
    values = np.asarray(list(seconds), dtype=np.float64) * 1000
    if values.size == 0:
        return {f"p{p}": float("nan") for p in PERCENTILES}
    return {f"p{p}": float(np.percentile(values, p)) for p in PERCENTILES}


def median_of_runs(runs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Per key, the median over runs of a number, or of a nested mapping of numbers."""
    keys = dict.fromkeys(key for run in runs for key in run)
    out: dict[str, Any] = {}
    for key in keys:
        values = [run[key] for run in runs if key in run]
        if all(isinstance(v, Mapping) for v in values):
            out[key] = median_of_runs(values)
        elif all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
            out[key] = float(statistics.median(values))
    return out


def directory_size(path: Path) -> int:
    """Bytes of every file under `path` (an index's size on disk)."""
    return sum(f.stat().st_size for f in Path(path).rglob("*") if f.is_file())


def rss_now() -> int:
    """Resident bytes of this process now."""
    return psutil.Process().memory_info().rss


def machine() -> dict[str, Any]:
    """The machine and the moment a figure was measured on: CPU, cores, memory, load, versions."""
    cpu = platform.processor()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import faiss

    return {
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "cpu": cpu or "unknown",
        "cores": os.cpu_count(),
        "memory_gb": round(psutil.virtual_memory().total / GB, 1),
        "available_gb": round(psutil.virtual_memory().available / GB, 1),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(),
        "numpy": np.__version__,
        "faiss": faiss.__version__,
    }
