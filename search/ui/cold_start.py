"""Measure the app's cold start and peak memory: `python -m search.ui.cold_start --index DIR --runs 3`
(`--index a=DIR --index b=DIR2`: serving two indexes, for the memory of an extra one).

Each run starts `python app.py` under `/usr/bin/time -v` on a free port, asks
`GET /api/v1/search` (served by the same process and engine as the page) every 0.2 s until
an answer with results comes back, and records the time from process start to that answer;
then the page (`/`) and its configuration (`/config`) are fetched and their sizes kept (what
every visitor downloads); the server is then stopped and `time` reports its peak resident
memory. Prints one line per run and the medians (`--json FILE` also writes them).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from search import config

APP = config.REPO_DIR / "app.py"
TIME = "/usr/bin/time"
QUERY = "fundamental theorem of calculus"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _answered(port: int) -> bool:
    url = f"http://127.0.0.1:{port}/api/v1/search?q={QUERY.replace(' ', '+')}&k=10"
    try:
        with urllib.request.urlopen(url, timeout=30) as reply:
            body = json.loads(reply.read())
    except (urllib.error.URLError, ConnectionError, TimeoutError, json.JSONDecodeError):
        return False
    return bool(body.get("results"))


def _page_bytes(port: int) -> dict[str, int]:
    """Bytes of the page and of its configuration as a browser downloads them (uncompressed)."""
    sizes = {}
    for name, path in (("page_bytes", "/"), ("config_bytes", "/config")):
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=60) as reply:
            sizes[name] = len(reply.read())
    return sizes


def run_once(indexes: list[str], timeout: float) -> dict[str, float]:
    """Seconds from process start to the first answered query, peak RSS in GB and the page's
    bytes, of the app serving `indexes` (each an `--index` value: DIR, or NAME=DIR for several)."""
    port = _free_port()
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "time.txt"
        command = [sys.executable, str(APP), *(arg for index in indexes for arg in ("--index", index)), "--port", str(port),
                   "--feedback-db", str(Path(scratch) / "feedback.sqlite")]
        started = time.perf_counter()
        process = subprocess.Popen([TIME, "-v", "-o", str(report), *command], start_new_session=True,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            while not _answered(port):
                if process.poll() is not None:
                    raise RuntimeError(f"the app exited with code {process.returncode} before answering")
                if time.perf_counter() - started > timeout:
                    raise RuntimeError(f"no answer within {timeout:.0f} s")
                time.sleep(0.2)
            seconds = time.perf_counter() - started
            sizes = _page_bytes(port)
        finally:
            _stop(process)
        match = re.search(r"Maximum resident set size \(kbytes\): (\d+)", report.read_text())
        if not match:
            raise RuntimeError(f"{TIME} reported no peak memory")
        return {"first_answer_s": seconds, "peak_rss_gb": int(match.group(1)) / 1024**2, **sizes}


def _stop(process: subprocess.Popen) -> None:
    """Interrupt the app (`time` ignores SIGINT itself, so the signal goes to the process group
    this run started) and wait for `time` to write its report."""
    os.killpg(process.pid, signal.SIGINT)
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--index", action="append",
                        help="as app.py's: DIR, or NAME=DIR repeated to serve several (memory per extra index)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=600, help="seconds to wait for an answer")
    parser.add_argument("--json", type=Path, help="also write the runs and their medians to this file")
    args = parser.parse_args(argv)
    if not shutil.which(TIME):
        print(f"error: {TIME} is needed for peak memory (apt-get install time)", file=sys.stderr)
        return 2
    runs = []
    for run in range(1, args.runs + 1):
        runs.append(run_once(args.index or [config.DEFAULT_INDEX], args.timeout))
        print(f"run {run}: first query answered after {runs[-1]['first_answer_s']:.1f} s, "
              f"peak RSS {runs[-1]['peak_rss_gb']:.2f} GB, page {runs[-1]['page_bytes']:,} bytes, "
              f"/config {runs[-1]['config_bytes']:,} bytes", flush=True)
    median = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
    print(f"median of {args.runs}: {median['first_answer_s']:.1f} s, {median['peak_rss_gb']:.2f} GB")
    if args.json:
        args.json.write_text(json.dumps({"indexes": args.index or [config.DEFAULT_INDEX], "runs": runs,
                                         "median": median}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
