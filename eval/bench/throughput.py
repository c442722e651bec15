"""Throughput of the HTTP API under 1, 4, 16 and 64 concurrent clients on loopback, and the
cold start and memory of the server that answers them, for several kinds of server side by side.

A server is started in its own process: `api` is `make_api` alone under uvicorn
(`eval.bench.serve`), `app` is `python app.py`, the API with the Gradio UI mounted, in one
process, and `workers` is `python app.py --workers N` (N = cores, at least 2: workers forked
after the index is loaded, search/api/workers.py). The kinds are measured in rounds, each kind
once per round and started afresh, so that the machine's load changes hit them alike. In a
round: the cold start (launch to the first answered `GET /api/v1/search`, polled every 0.2 s,
as `search.ui.cold_start` measures it); per number of clients, a burst in which an asyncio
aiohttp client keeps that many requests in flight for a fixed time, each client cycling through
the MathlibQR and LeanExplore queries (`GET /api/v1/search?q=...&k=10`): requests per second
(answered with 200, over the wall time of the burst), latency percentiles, errors (any other
status or a failed request; the target is zero), and the CPU time per answered request of the
server's processes and of the client; then a spike of 300 requests sent at once. Figures are
medians over rounds.

The client runs on the same machine as the server and takes part of its CPU, as any loopback
load test does, so it is kept light: against the same server, httpx's asyncio client spent
2.2 ms of CPU per request on a trivial endpoint and 1.9 ms per search, aiohttp's 0.2 and
0.5 ms (`/api/v1/indexes` answered at 455 vs 1,699 requests/s). What a server costs per
request is its CPU time per request, reported beside the rate: with c cores it cannot answer
more than c / (server + client CPU per request) requests a second.

Memory is summed over the server's processes (the master and its workers, not the launcher):
RSS, which counts a page shared by several processes once per process, and PSS (proportional
set size, psutil's `memory_full_info`), which splits each shared page between the processes
sharing it, so that the sum counts it once: the memory the server as a whole holds. Sampled
every 2 s during the bursts and every 0.25 s during the spike (peak), and read after them; the
kernel's peak RSS of the largest single process is kept too.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Protocol, Sequence

import aiohttp
import httpx
import psutil

from search import config

from eval.bench.latency import query_texts
from eval.bench.measure import GB, median_of_runs, percentiles, processes_memory, read_peak, with_peak

log = logging.getLogger(__name__)

SERVERS = ("api", "app", "workers")
#: Requests sent at once after the bursts, the server's memory sampled meanwhile.
SPIKE_REQUESTS = 300
ENDPOINT = "/api/v1/search"
#: The per-client bounds are off (rate, connections and requests in progress): every benchmark
#: client comes from one loopback address, and what is measured is the server's capacity, not
#: the bounds (search/api/guard.py, search/api/connections.py).
SERVER_ENV = {"RATE_LIMIT_PER_MINUTE": "0", "CONNECTIONS_PER_ADDRESS": "0"}
REQUEST_TIMEOUT_S = 120.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def server_argv(kind: str, index: str | Path, port: int, scratch: Path) -> list[str]:
    if kind == "api":
        return [sys.executable, "-m", "eval.bench.serve", "--index", str(index), "--port", str(port)]
    if kind in ("app", "workers"):
        return [sys.executable, str(config.REPO_DIR / "app.py"), "--index", str(index), "--port", str(port),
                "--feedback-db", str(scratch / f"bench_feedback_{kind}.sqlite"), "--workers", str(_workers(kind))]
    raise ValueError(f"unknown server {kind!r}; choose one of {', '.join(SERVERS)}")


def _workers(kind: str) -> int:
    """Worker processes of a server kind: `workers` has one per core (app.py --workers N)."""
    return max(2, os.cpu_count() or 1) if kind == "workers" else 1


class Server:
    """A server process started here (through `eval.bench.peak`, which reports its peak RSS)."""

    def __init__(self, argv: Sequence[str], log_path: Path) -> None:
        self._log = log_path.open("w")
        self._peak = log_path.with_suffix(".peak")
        self.started = time.perf_counter()
        self.process = subprocess.Popen(with_peak(argv, self._peak), stdout=self._log, stderr=subprocess.STDOUT,
                                        start_new_session=True, cwd=config.REPO_DIR, env={**os.environ, **SERVER_ENV})

    def processes(self) -> list[psutil.Process]:
        """The server's processes (its workers too), not the launcher."""
        return [m for child in psutil.Process(self.process.pid).children() for m in (child, *child.children(True))]

    def memory(self) -> dict[str, int]:
        """Bytes of the server's processes (`measure.processes_memory`)."""
        return processes_memory(self.processes())

    def cpu_seconds(self) -> float:
        """User and system CPU seconds of the server's processes so far."""
        return sum(_cpu_seconds(member) for member in self.processes())

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


def _cpu_seconds(process: psutil.Process) -> float:
    try:
        times = process.cpu_times()
    except psutil.NoSuchProcess:
        return 0.0
    return times.user + times.system


def _client(port: int, connections: int) -> aiohttp.ClientSession:
    """A client of the server on `port` keeping up to `connections` connections open."""
    return aiohttp.ClientSession(base_url=f"http://127.0.0.1:{port}",
                                 connector=aiohttp.TCPConnector(limit=connections),
                                 timeout=aiohttp.ClientTimeout(total=REQUEST_TIMEOUT_S))


async def _search(client: aiohttp.ClientSession, text: str, latencies: list[float], errors: list[str]) -> None:
    """One search: its latency when answered with 200 (the body read), else what went wrong."""
    start = time.perf_counter()
    try:
        async with client.get(ENDPOINT, params={"q": text, "k": "10"}) as reply:
            await reply.read()
    except (aiohttp.ClientError, asyncio.TimeoutError) as error:
        errors.append(f"{type(error).__name__} for {text!r}")
        return
    if reply.status != 200:
        errors.append(f"HTTP {reply.status} for {text!r}")
        return
    latencies.append(time.perf_counter() - start)


async def burst(port: int, texts: Sequence[str], clients: int, seconds: float) -> dict[str, Any]:
    """`clients` requests kept in flight for `seconds`: requests/s, latency percentiles, errors,
    and this process's (the client's) CPU milliseconds per answered request."""
    client_cpu = _cpu_seconds(psutil.Process())
    latencies: list[float] = []
    errors: list[str] = []
    async with _client(port, clients) as client:
        started = time.perf_counter()
        deadline = started + seconds

        async def one_client(first: int) -> None:
            position = first
            while time.perf_counter() < deadline:
                text = texts[position % len(texts)]
                position += clients
                await _search(client, text, latencies, errors)

        await asyncio.gather(*(one_client(i) for i in range(clients)))
        elapsed = time.perf_counter() - started
    client_cpu = _cpu_seconds(psutil.Process()) - client_cpu
    return {"requests_per_s": len(latencies) / elapsed, "answered": len(latencies), "errors": len(errors),
            "first_error": errors[0] if errors else "", **percentiles(latencies),
            "client_cpu_ms": 1000 * client_cpu / max(len(latencies), 1)}


def spike(port: int, texts: Sequence[str], requests: int, server: Server) -> dict[str, Any]:
    """`requests` searches sent at once (each on its own connection), with the server's memory
    sampled while they are answered and read again 2 s after the last answer."""
    with Sampler(server) as sampler:
        result = asyncio.run(burst_once(port, texts, requests))
    time.sleep(2.0)
    after = server.memory()
    return {**result, "pss_peak_gb": sampler.peak["pss"] / GB, "rss_peak_gb": sampler.peak["rss"] / GB,
            "pss_after_gb": after["pss"] / GB, "rss_after_gb": after["rss"] / GB}


async def burst_once(port: int, texts: Sequence[str], requests: int) -> dict[str, Any]:
    """One request per query text (cycled), all in flight at once: answered, errors, seconds, latencies."""
    latencies: list[float] = []
    errors: list[str] = []
    async with _client(port, requests) as client:
        started = time.perf_counter()

        async def one(n: int) -> None:
            await _search(client, f"{texts[n % len(texts)]} {n}", latencies, errors)

        await asyncio.gather(*(one(n) for n in range(requests)))
        elapsed = time.perf_counter() - started
    return {"requests": requests, "answered": len(latencies), "errors": len(errors),
            "first_error": errors[0] if errors else "", "seconds": elapsed, **percentiles(latencies)}


class Processes(Protocol):
    """Something whose processes' memory can be read: a `Server`, or the processes of a
    database (eval/bench/postgres.py `DatabaseProcesses`)."""

    def memory(self) -> dict[str, int]: ...


#: Seconds between memory samples during the bursts. Reading a process's PSS walks its page
#: tables: ~15 ms of CPU per worker of the full index, so sampling 3 processes every 0.25 s took
#: 9% of the 2 cores from the server it measured (and showed as 1.3 ms of client CPU per request).
#: The bursts' memory is flat; the spike of requests at once is sampled every `SPIKE_SAMPLE_S`.
BURST_SAMPLE_S = 2.0
SPIKE_SAMPLE_S = 0.25


class Sampler:
    """The most memory (RSS and PSS summed over the server's processes) seen while it runs,
    sampled every `interval` seconds in a thread."""

    def __init__(self, server: Processes, interval: float = SPIKE_SAMPLE_S) -> None:
        self.server = server
        self.interval = interval
        self.peak = {"rss": 0, "pss": 0}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            now = self.server.memory()
            self.peak = {key: max(self.peak[key], now[key]) for key in self.peak}
            self._stop.wait(self.interval)

    def __enter__(self) -> "Sampler":
        self._thread.start()
        return self

    def __exit__(self, *_: Any) -> None:
        self._stop.set()
        self._thread.join()


@dataclass(frozen=True)
class Target:
    """A server to measure: its name in the results, its kind (`SERVERS`), the index it serves
    (a directory, or `postgresql://...` for an index in PostgreSQL), and the database serving
    that index, if any, whose processes' memory is sampled beside the server's."""

    name: str
    kind: str
    index: str
    database: Processes | None = None


def measure(targets: Sequence[Target], queries: Mapping[str, Any], concurrency: Sequence[int],
            seconds: float, runs: int, scratch: Path, start_timeout: float = 300.0,
            spike_requests: int = SPIKE_REQUESTS) -> list[dict[str, Any]]:
    """`runs` rounds; in each, every target in turn (so that a change in the machine's load
    hits them alike) is started afresh: its cold start, one burst per number of clients, a spike
    of `spike_requests` requests at once and the memory during and after it. Medians over rounds."""
    texts = query_texts(**queries)
    rounds: dict[str, list[dict[str, Any]]] = {target.name: [] for target in targets}
    for round_number in range(runs):
        for target in targets:
            rounds[target.name].append(_round(target, texts, concurrency, seconds, scratch, start_timeout,
                                              spike_requests))
            measured = rounds[target.name][-1]
            log.info("bench throughput %s: round %d of %d: %s; requests/s and p95 ms per level: %s", target.name,
                     round_number + 1, runs, {k: v for k, v in measured.items() if k != "levels"},
                     [(lv["clients"], round(lv["requests_per_s"], 1), round(lv["p95"])) for lv in measured["levels"]])
    return [_summary(target, len(texts), runs, rounds[target.name]) for target in targets]


def _round(target: Target, texts: Sequence[str], concurrency: Sequence[int], seconds: float,
           scratch: Path, start_timeout: float, spike_requests: int) -> dict[str, Any]:
    port = free_port()
    server = Server(server_argv(target.kind, target.index, port, scratch), scratch / f"bench_{target.name}_server.log")
    database: dict[str, float] = {}
    try:
        cold_start = wait_for_answer(server, port, texts[0], start_timeout)
        asyncio.run(burst(port, texts, 1, min(seconds, 2.0)))  # warm-up, not reported
        levels = []
        database_sampler = Sampler(target.database, BURST_SAMPLE_S) if target.database is not None else None
        with Sampler(server, BURST_SAMPLE_S) as sampler, database_sampler or nullcontext():
            for clients in concurrency:
                server_cpu = server.cpu_seconds()
                level = asyncio.run(burst(port, texts, clients, seconds))
                server_cpu = server.cpu_seconds() - server_cpu
                levels.append({"clients": clients, "seconds": seconds, **level,
                               "server_cpu_ms": 1000 * server_cpu / max(level["answered"], 1)})
        memory = server.memory()
        if database_sampler is not None:
            after = target.database.memory()
            database = {"database_pss_gb": after["pss"] / GB, "database_rss_gb": after["rss"] / GB,
                        "database_processes": after["processes"],
                        "database_pss_peak_gb": database_sampler.peak["pss"] / GB}
        spiked = spike(port, texts, spike_requests, server) if spike_requests else {}
    finally:
        peak = server.stop()
    return {"cold_start_s": cold_start, "rss_gb": memory["rss"] / GB, "pss_gb": memory["pss"] / GB,
            "pss_peak_gb": sampler.peak["pss"] / GB, "peak_rss_gb": peak / GB, "spike": spiked,
            "processes": memory["processes"], **database, "levels": levels}


def _summary(target: Target, queries: int, runs: int, rounds: list[dict[str, Any]]) -> dict[str, Any]:
    levels = []
    for position, first in enumerate(rounds[0]["levels"]):
        results = [r["levels"][position] for r in rounds]
        levels.append({
            **median_of_runs(results), "clients": first["clients"], "runs": runs, "seconds": first["seconds"],
            "errors": sum(r["errors"] for r in results),
            "first_error": next((r["first_error"] for r in results if r["first_error"]), ""),
        })
    spikes = [r["spike"] for r in rounds if r["spike"]]
    spike_summary = {**median_of_runs(spikes), "errors": sum(s["errors"] for s in spikes),
                     "first_error": next((s["first_error"] for s in spikes if s["first_error"]), "")} if spikes else {}
    return {"server": target.name, "kind": target.kind, "workers": _workers(target.kind), "index": target.index,
            "queries": queries, "runs": runs,
            **median_of_runs([{k: v for k, v in r.items() if k not in ("levels", "spike")} for r in rounds]),
            "spike": spike_summary, "levels": levels}
