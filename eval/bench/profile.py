"""Where the time goes: py-spy samples of the query path, of the HTTP server under load and of
an index build, summed into the functions that hold the most samples.

- query: `latency.warm` (one pass over the queries) in a child process run under py-spy; only
  the samples taken inside `Engine.search` count, so loading the index does not dilute them.
- server: the HTTP API alone (`eval.bench.serve`), py-spy attached to it while `clients`
  concurrent clients keep requests in flight for `seconds` (every thread: the event loop
  parses HTTP, worker threads run the searches).
- build: `python -m search build` of the first declarations of Mathlib (the build part's subset).

py-spy samples every thread `RATE` times a second (Python frames: time inside onnxruntime,
FAISS or numpy shows as the Python call into it); threads waiting for work are left out. For each
scope two rankings: *inclusive*, the share of samples whose stack passes through a function of
this project (`search/`), i.e. the cost of a call and everything under it; *self*, the share
of samples whose innermost frame is the function, i.e. where the processor actually was.
"""

from __future__ import annotations

import asyncio
import json
import logging
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Mapping

import psutil

from search import config

from eval.bench import build, throughput
from eval.bench.latency import query_texts
from eval.bench.measure import run_child

log = logging.getLogger(__name__)

RATE = 200
TOP = 12
#: The frame of `Engine.search` as py-spy names it (function, then the file from its package).
SEARCH_FRAME = "Engine.search (search/engine/engine.py)"
OUR_CODE = "(search/"
#: Innermost frames of a thread waiting rather than working (a worker thread waiting for a
#: request, the event loop waiting for a socket): py-spy samples them as running.
WAITING = frozenset({"Condition.wait (threading.py)", "EpollSelector.select (selectors.py)"})


def py_spy() -> str:
    """The py-spy executable (a pinned requirement), or a clear error."""
    found = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(found).is_file():
        raise RuntimeError("py-spy is not installed: pip install -r requirements.txt")
    return found


def record_argv(output: Path) -> list[str]:
    return [py_spy(), "record", "--nolineno", "--format", "raw", "--rate", str(RATE), "--output", str(output)]


def read_stacks(path: Path, within: str | None = None) -> Counter[tuple[str, ...]]:
    """py-spy's raw output (`frame;frame;... count`, outermost first) as stack -> samples,
    without waiting threads, keeping only stacks that pass through the frame `within` if given."""
    stacks: Counter[tuple[str, ...]] = Counter()
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        frames = tuple(stack.split(";"))
        if frames[-1] not in WAITING and (within is None or within in frames):
            stacks[frames] += int(count)
    return stacks


def summarise(stacks: Counter[tuple[str, ...]], top: int = TOP) -> dict[str, Any]:
    """Samples, and the `top` functions by inclusive share (this project's code) and by self share."""
    total = sum(stacks.values())
    inclusive: Counter[str] = Counter()
    innermost: Counter[str] = Counter()
    for frames, count in stacks.items():
        # each frame once, outermost first: of two functions with equal shares (every sample in
        # one passes through the other) the caller ranks first, whatever the hash seed
        for frame in dict.fromkeys(frames):
            if OUR_CODE in frame:
                inclusive[frame] += count
        innermost[frames[-1]] += count
    def ranked(counts: Counter[str]) -> list[list[Any]]:
        return [[frame, n / total] for frame, n in counts.most_common(top)]

    return {"samples": total, "inclusive": ranked(inclusive), "self": ranked(innermost)}


def query(index: Path, queries: Mapping[str, Any], scratch: Path) -> dict[str, Any]:
    """One pass of the latency part's queries under py-spy; samples inside `Engine.search`."""
    output = scratch / "profile_query.txt"
    kwargs = {"index": str(index), "queries": dict(queries), "runs": 1}
    argv = [*record_argv(output), "--", sys.executable, "-m", "eval.bench.worker", "eval.bench.latency:warm",
            json.dumps(kwargs)]
    _run(argv)
    return {"scope": "query", "what": f"`Engine.search` over {len(query_texts(**queries))} queries, one pass, "
            f"index `{index}`", **summarise(read_stacks(output, SEARCH_FRAME))}


def server(index: Path, queries: Mapping[str, Any], clients: int, seconds: float, scratch: Path) -> dict[str, Any]:
    """The API alone under `clients` concurrent clients, py-spy attached for the burst."""
    texts = query_texts(**queries)
    output = scratch / "profile_server.txt"
    port = throughput.free_port()
    running = throughput.Server(throughput.server_argv("api", index, port, scratch), scratch / "profile_server.log")
    try:
        throughput.wait_for_answer(running, port, texts[0], timeout=300.0)
        pid = psutil.Process(running.process.pid).children()[0].pid  # the server, not its launcher
        spy = subprocess.Popen([*record_argv(output), "--pid", str(pid), "--duration", str(max(int(seconds), 1))],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        burst = asyncio.run(throughput.burst(port, texts, clients, seconds))
        _, err = spy.communicate(timeout=seconds + 120)
        if spy.returncode != 0:
            raise RuntimeError(f"py-spy could not attach to the server: {err.strip().splitlines()[-1:]}")
    finally:
        running.stop()
    return {"scope": "server", "what": f"the API alone (`eval.bench.serve`, index `{index}`) under {clients} "
            f"clients for {seconds:.0f} s ({burst['requests_per_s']:.1f} requests/s while sampled), every thread",
            **summarise(read_stacks(output))}


def index_build(declarations: int, scratch: Path, corpus: Path = build.MATHLIB) -> dict[str, Any]:
    """`python -m search build` of the first `declarations` of Mathlib under py-spy."""
    output = scratch / "profile_build.txt"
    source = build.subset_source(declarations, scratch, corpus)
    argv = [*record_argv(output), "--", sys.executable, "-m", "search", "build", "--out",
            str(scratch / "profile_index"), "--quiet", "--sources", source]
    _run(argv)
    shutil.rmtree(scratch / "profile_index", ignore_errors=True)
    return {"scope": "build", "what": f"`python -m search build` of the first {declarations:,} declarations of "
            f"{corpus.name}, every thread", **summarise(read_stacks(output))}


def measure(index: Path, queries: Mapping[str, Any], clients: int, seconds: float, declarations: int,
            scratch: Path, corpus: Path = build.MATHLIB) -> dict[str, Any]:
    """The three scopes, one after the other."""
    scopes = []
    for name, run in (("query", lambda: query(index, queries, scratch)),
                      ("server", lambda: server(index, queries, clients, seconds, scratch)),
                      ("build", lambda: index_build(declarations, scratch, corpus))):
        log.info("bench profile: %s", name)
        scopes.append(run())
    return {"rate": RATE, "scopes": scopes}


def _run(argv: list[str]) -> None:
    run = run_child(argv, cwd=config.REPO_DIR)
    if not run.ok:
        raise RuntimeError(f"profiling `{' '.join(argv[argv.index('--') + 1:][:4])} ...` failed, {run.failure()}")
