"""Throughput of the HTTP API under 1, 4, 16 and 64 concurrent clients on loopback, and the
cold start and memory of the server that answers them.

A server is started in its own process: `api` is `make_api` alone under uvicorn
(`eval.bench.serve`), `app` is `python app.py`, the API with the Gradio UI mounted. Its cold
start is the time from launching the process to the first answered `GET /api/v1/search`
(polled every 0.2 s), as `search.ui.cold_start` measures it, over `runs` fresh starts. Then, per number of clients, an
asyncio httpx client keeps that many requests in flight for a fixed time, each client cycling
through the MathlibQR and LeanExplore queries (`GET /api/v1/search?q=...&k=10`): requests per
second (answered with 200, over the wall time of the burst), latency percentiles, and errors
(any other status or a failed request; the target is zero). Each burst is repeated `runs` times
and the median reported. The client runs on the same machine as the server and takes part of
its CPU, as any loopback load test does. The server's RSS is read after the last burst, its
peak from the kernel when it stops (medians over the starts).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Mapping, Sequence

import httpx
import psutil

from search import config

from eval.bench.latency import query_texts
from eval.bench.measure import GB, median_of_runs, percentiles, read_peak, tree_rss, with_peak

log = logging.getLogger(__name__)

SERVERS = ("api", "app")
ENDPOINT = "/api/v1/search"
#: The per-client rate limit is off: every benchmark client comes from one loopback address, and
#: what is measured is the server's capacity, not the limit (search/api/guard.py).
SERVER_ENV = {"RATE_LIMIT_PER_MINUTE": "0"}
REQUEST_TIMEOUT_S = 120.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def server_argv(kind: str, index: Path, port: int, scratch: Path) -> list[str]:
    if kind == "api":
        return [sys.executable, "-m", "eval.bench.serve", "--index", str(index), "--port", str(port)]
    if kind == "app":
        return [sys.executable, str(config.REPO_DIR / "app.py"), "--index", str(index), "--port", str(port),
                "--feedback-db", str(scratch / "bench_feedback.sqlite")]
    raise ValueError(f"unknown server {kind!r}; choose one of {', '.join(SERVERS)}")


class Server:
    """A server process started here (through `eval.bench.peak`, which reports its peak RSS)."""

    def __init__(self, argv: Sequence[str], log_path: Path) -> None:
        self._log = log_path.open("w")
        self._peak = log_path.with_suffix(".peak")
        self.started = time.perf_counter()
        self.process = subprocess.Popen(with_peak(argv, self._peak), stdout=self._log, stderr=subprocess.STDOUT,
                                        start_new_session=True, cwd=config.REPO_DIR, env={**os.environ, **SERVER_ENV})

    def rss(self) -> int:
        """Resident bytes of the server (and any process it started), not of the launcher."""
        return sum(tree_rss(child) for child in psutil.Process(self.process.pid).children())

    def stop(self) -> int:
        """Stop the server (SIGINT to its process group, SIGKILL after 30 s); its peak RSS in bytes."""
        for sig in (signal.SIGINT, signal.SIGKILL):
            if self.process.poll() is None:
                try:
                    os.killpg(self.process.pid, sig)
                    self.process.wait(timeout=30)
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    continue
        self._log.close()
        return read_peak(self._peak)


def wait_for_answer(server: Server, port: int, query: str, timeout: float) -> float:
    """Seconds from the server's launch to its first answer with results."""
    url = f"http://127.0.0.1:{port}{ENDPOINT}"
    with httpx.Client(timeout=REQUEST_TIMEOUT_S) as client:
        while True:
            if server.process.poll() is not None:
                raise RuntimeError(f"the server exited with code {server.process.returncode} before answering")
            try:
                reply = client.get(url, params={"q": query, "k": 10})
                if reply.status_code == 200 and reply.json().get("results"):
                    return time.perf_counter() - server.started
            except httpx.HTTPError:
                pass
            if time.perf_counter() - server.started > timeout:
                raise RuntimeError(f"no answer within {timeout:.0f} s")
            time.sleep(0.2)


async def burst(port: int, texts: Sequence[str], clients: int, seconds: float) -> dict[str, Any]:
    """`clients` requests kept in flight for `seconds`: requests/s, latency percentiles, errors."""
    latencies: list[float] = []
    errors: list[str] = []
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=REQUEST_TIMEOUT_S,
                                 limits=limits) as client:
        started = time.perf_counter()
        deadline = started + seconds

        async def one_client(first: int) -> None:
            position = first
            while time.perf_counter() < deadline:
                text = texts[position % len(texts)]
                position += clients
                start = time.perf_counter()
                try:
                    reply = await client.get(ENDPOINT, params={"q": text, "k": 10})
                    if reply.status_code != 200:
                        errors.append(f"HTTP {reply.status_code} for {text!r}")
                        continue
                except httpx.HTTPError as error:
                    errors.append(f"{type(error).__name__} for {text!r}")
                    continue
                latencies.append(time.perf_counter() - start)

        await asyncio.gather(*(one_client(i) for i in range(clients)))
        elapsed = time.perf_counter() - started
    return {"requests_per_s": len(latencies) / elapsed, "answered": len(latencies), "errors": len(errors),
            "first_error": errors[0] if errors else "", **percentiles(latencies)}


def measure(kind: str, index: Path, queries: Mapping[str, Any], concurrency: Sequence[int], seconds: float,
            runs: int, scratch: Path, start_timeout: float = 300.0) -> dict[str, Any]:
    """`runs` cold starts of one server kind; on the last server, `runs` bursts per number of clients."""
    texts = query_texts(**queries)
    starts = []
    for start in range(runs):
        port = free_port()
        server = Server(server_argv(kind, index, port, scratch), scratch / f"bench_{kind}_server.log")
        try:
            cold_start = wait_for_answer(server, port, texts[0], start_timeout)
            log.info("bench throughput %s: cold start %d of %d: %.1f s", kind, start + 1, runs, cold_start)
            levels = _levels(kind, port, texts, concurrency, seconds, runs) if start == runs - 1 else []
            rss = server.rss()
        finally:
            peak = server.stop()
        starts.append({"cold_start_s": cold_start, "rss_gb": rss / GB, "peak_rss_gb": peak / GB})
    return {"server": kind, "index": str(index), "queries": len(texts), "runs": runs,
            **median_of_runs(starts), "levels": levels}


def _levels(kind: str, port: int, texts: Sequence[str], concurrency: Sequence[int], seconds: float,
            runs: int) -> list[dict[str, Any]]:
    asyncio.run(burst(port, texts, 1, min(seconds, 2.0)))  # warm-up, not reported
    levels = []
    for clients in concurrency:
        results = []
        for run in range(runs):
            results.append(asyncio.run(burst(port, texts, clients, seconds)))
            log.info("bench throughput %s: %d clients, run %d of %d: %.1f req/s, p95 %.0f ms, %d errors",
                     kind, clients, run + 1, runs, results[-1]["requests_per_s"], results[-1]["p95"],
                     results[-1]["errors"])
        levels.append({
            "clients": clients, "runs": runs, "seconds": seconds, **median_of_runs(results),
            "errors": sum(r["errors"] for r in results),
            "first_error": next((r["first_error"] for r in results if r["first_error"]), ""),
        })
    return levels
