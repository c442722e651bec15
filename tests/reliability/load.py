"""Concurrent clients against a running app: every request a normal user or tool sends (the
page, the three imitated APIs, native searches, votes on what a native search returned), for
a fixed time, with each failure, the latency percentiles and the server's memory recorded.

`python -m tests.reliability.load --index DIR [--clients 50] [--seconds 60] [--workers N]`
starts `python app.py` over DIR (the bounds per address off: the clients are one address),
warms it up with the same load, then loads it and prints the figures as JSON (docs/limits.md).
Memory is PSS summed over the app's processes (tests/live_server.py),
sampled every 5 s at most.

With `--as-space`, the app runs as on a Hugging Face Space, behind one trusted proxy
(`TRUSTED_PROXIES=1`, every bound at its default), and the load generator is that proxy: each
client has an address of its own, which the "proxy" appends to `X-Forwarded-For`. A share of
the clients (`--forging`, a fifth by default) are attackers: each writes a new address of its
own into `X-Forwarded-For` on every request, and sends `FORGING_STREAMS` requests at once, far
more than the rate limit allows one address, pausing `FORGING_PAUSE` after each 429. Their
429s are deliberate and counted apart (`forging_rate_limited`); anything else that is not a 200 is a failure. The other clients
send at most one request every `HONEST_INTERVAL` seconds, as a visitor within the rate limit.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx
import numpy as np

from tests.live_server import ONE_ADDRESS, AppProcess, app_process

#: Query texts the clients cycle through (words, Lean notation, LaTeX, names).
QUERIES = [
    "multiplication is commutative", "a + b = b + a", "successor of n is at most successor of m",
    "$a^2 + b^2 = c^2$", "Nat.succ_le_succ", "card of a nonempty finset is positive", "ring", "lemma",
    "associativity of addition", "semigroup", "\\sum_{i<n} i", "mul_comm",
]
NAMES = ["mul_comm", "add_comm", "Nat.succ_le_succ", "Semigroup", "nosuch_name", '"comm"']
GOALS = ["n m : ℕ\nh : n ≤ m\n⊢ n + 1 ≤ m + 1", "a b : ℕ\n⊢ a + b = b + a", "⊢ 0 < 1"]
#: Seconds a single request may take before it counts as failed.
REQUEST_TIMEOUT = 60.0
#: A Hugging Face Space's setting (README, "Deploy"): one proxy in front, whose entry of
#: `X-Forwarded-For` is the client's address; every other bound as it is by default; and
#: uvicorn's `FORWARDED_ALLOW_IPS='*'` that the README once told a Space to set, which made
#: uvicorn take the entry the client wrote (the app no longer lets uvicorn read the header).
SPACE_ENV = {"TRUSTED_PROXIES": "1", "FORWARDED_ALLOW_IPS": "*"}
#: Requests a forging client keeps in flight at once, and the seconds each of its streams
#: waits after a 429 (it ignores `Retry-After`; the pause only keeps the refusals from using
#: up the machine that measures).
FORGING_STREAMS = 12
FORGING_PAUSE = 1.0
#: As a Space, an honest client sends at most one request every this many seconds (100 a
#: minute, within the rate limit of 120), so that a 429 to it is a failure, not its due.
HONEST_INTERVAL = 0.6


@dataclass
class LoadReport:
    """What one run measured. `failures` holds the first few failures' descriptions."""

    clients: int
    seconds: float
    requests: int = 0
    failed: int = 0
    failures: list[str] = field(default_factory=list)
    by_kind: dict[str, int] = field(default_factory=dict)
    throughput: float = 0.0
    p50_ms: float = 0.0
    p95_ms: float = 0.0
    p99_ms: float = 0.0
    max_ms: float = 0.0
    rss_before_mb: float = 0.0
    rss_after_mb: float = 0.0
    rss_samples_mb: list[float] = field(default_factory=list)
    #: As a Space (`--as-space`): the forging clients, their requests and their 429s.
    forging_clients: int = 0
    forging_requests: int = 0
    forging_rate_limited: int = 0

    @property
    def last_half_spread_mb(self) -> float:
        """How far the memory moved over the last half of the samples (flat: near 0)."""
        last_half = self.rss_samples_mb[len(self.rss_samples_mb) // 2:]
        return round(max(last_half) - min(last_half), 1) if last_half else 0.0


def request_for(client: int, step: int) -> tuple[str, str, dict[str, Any]]:
    """The step-th request of a client: (kind, method, httpx keyword arguments), cycling through
    the page and every API shape. Search texts are never the same twice (a number is added), as
    a public server's are not, so that a cache growing with each new query would show."""
    query = f"{QUERIES[step % len(QUERIES)]} {client}x{step}"
    kinds = [
        ("native", "GET", {"url": "/api/v1/search", "params": {"q": query, "k": 10}}),
        ("leansearch", "POST", {"url": "/search", "json": {"query": [query], "num_results": 6}}),
        ("loogle", "GET", {"url": "/json", "params": {"q": NAMES[step % len(NAMES)]}}),
        ("statesearch", "GET", {"url": "/api/search", "params": {"query": GOALS[step % len(GOALS)], "results": 6}}),
        ("native-post", "POST", {"url": "/api/v1/search", "json": {"query": query, "k": 5, "variant": "rrf"}}),
        ("page", "GET", {"url": "/"}),
        ("vote", "POST", {"url": "/api/v1/feedback"}),  # its body comes from the client's last native search
    ]
    return kinds[step % len(kinds)]


def vote_on(answer: dict[str, Any], step: int) -> dict[str, Any]:
    """A vote on one result of a native search answer, under the session that answer carried."""
    result = answer["results"][step % len(answer["results"])]
    return {"session": answer["session"], "query": answer["query"], "result_id": result["id"],
            "rank": result["rank"], "vote": 1 if step % 2 else -1, "filters": answer.get("filters") or {},
            "variant": answer["variant"]}


def client_address(number: int) -> str:
    """The address the proxy saw client `number` come from (documentation ranges, 2^16 of them)."""
    return f"198.18.{number // 250}.{number % 250 + 1}"


@dataclass(frozen=True)
class Proxy:
    """The load generator as a Space's proxy: which clients forge `X-Forwarded-For`."""

    forging: frozenset[int]
    #: Seconds between two requests of an honest client.
    interval: float = HONEST_INTERVAL

    def headers(self, number: int, step: int) -> dict[str, str]:
        seen = client_address(number)
        if number in self.forging:
            return {"X-Forwarded-For": f"203.0.113.{step % 250 + 1}, {seen}"}
        return {"X-Forwarded-For": seen}


async def _client(base: str, number: int, deadline: float, report: LoadReport, latencies: list[float],
                  proxy: Proxy | None = None, stream: int = 0) -> None:
    interval = proxy.interval if proxy is not None else 0.0
    async with httpx.AsyncClient(base_url=base, timeout=REQUEST_TIMEOUT) as client:
        step = number + 1000 * stream  # clients start at different places in the cycle
        last: dict[str, Any] | None = None  # the last native answer with results, for votes
        forging = proxy is not None and number in proxy.forging
        paced = proxy is not None and not forging
        sent = 0.0  # when this client's last request went
        answered = False  # every client is answered once, however late the loaded machine starts it
        while not answered or time.monotonic() < deadline:
            kind, method, arguments = request_for(number, step)
            step += 1
            if kind == "vote":
                if last is None:
                    continue
                arguments = {**arguments, "json": vote_on(last, step)}
            if proxy is not None:
                arguments = {**arguments, "headers": proxy.headers(number, step)}
            if paced:
                await asyncio.sleep(max(0.0, sent + interval - time.perf_counter()))
            started = sent = time.perf_counter()
            try:
                response = await client.request(method, **arguments)
                ok = response.status_code == 200
                if forging:
                    report.forging_requests += 1
                    if response.status_code == 429:
                        report.forging_rate_limited += 1
                        ok = True  # deliberate: the rate limit holds against a forged header
                        await asyncio.sleep(FORGING_PAUSE)
                if ok and kind == "native" and response.json().get("results"):
                    last = response.json()
                problem = f"{kind}: HTTP {response.status_code} {response.text[:200]}"
            except httpx.HTTPError as error:
                ok, problem = False, f"{kind}: {type(error).__name__} {error}"
            latencies.append(time.perf_counter() - started)
            answered = True
            report.requests += 1
            report.by_kind[kind] = report.by_kind.get(kind, 0) + 1
            if not ok:
                report.failed += 1
                if len(report.failures) < 10:
                    report.failures.append(problem)


async def _run(base: str, clients: int, seconds: float, report: LoadReport, latencies: list[float],
               app: AppProcess | None, proxy: Proxy | None = None) -> None:
    deadline = time.monotonic() + seconds
    tasks = [asyncio.create_task(_client(base, n, deadline, report, latencies, proxy, stream))
             for n in range(clients)
             for stream in range(FORGING_STREAMS if proxy is not None and n in proxy.forging else 1)]
    while app is not None and not all(t.done() for t in tasks):  # sample memory as the load runs
        report.rss_samples_mb.append(round(app.rss_bytes() / 2**20, 1))
        await asyncio.sleep(min(5.0, max(seconds / 6, 0.5)))
    await asyncio.gather(*tasks)


def load(app: AppProcess, clients: int, seconds: float, warmup: float, forging: float | None = None,
         honest_interval: float = HONEST_INTERVAL) -> LoadReport:
    """Warm the server up with the same load (threads, caches and allocator arenas fill), take
    its RSS, load it for `seconds`, take its RSS again. With `forging` (a share of the clients),
    the load comes as through a Space's proxy (see the module's doc); the app must trust one
    proxy (`SPACE_ENV`)."""
    chosen = frozenset(range(0, clients, max(1, round(1 / forging)))) if forging else frozenset()
    proxy = None if forging is None else Proxy(chosen, honest_interval)
    asyncio.run(_run(app.url, clients, warmup, LoadReport(clients, warmup), [], None, proxy))
    report = LoadReport(clients, seconds, forging_clients=len(proxy.forging) if proxy else 0)
    report.rss_before_mb = round(app.rss_bytes() / 2**20, 1)
    latencies: list[float] = []
    started = time.monotonic()
    asyncio.run(_run(app.url, clients, seconds, report, latencies, app, proxy))
    elapsed = time.monotonic() - started
    report.rss_after_mb = round(app.rss_bytes() / 2**20, 1)
    milliseconds = np.asarray(latencies) * 1000
    report.throughput = round(report.requests / elapsed, 1)
    for name, q in (("p50_ms", 50), ("p95_ms", 95), ("p99_ms", 99), ("max_ms", 100)):
        setattr(report, name, round(float(np.percentile(milliseconds, q)), 1))
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--index", type=Path, required=True)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--warmup", type=float, default=10)
    parser.add_argument("--workers", type=int, default=1, help="app.py --workers")
    parser.add_argument("--as-space", action="store_true",
                        help="behind one trusted proxy, every bound at its default, the load as through the proxy")
    parser.add_argument("--forging", type=float, default=0.2,
                        help="with --as-space, the share of clients that forge X-Forwarded-For (default 0.2)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        with app_process(args.index, work / "votes.sqlite", work / "app.log",
                         SPACE_ENV if args.as_space else ONE_ADDRESS, args.workers) as app:
            report = load(app, args.clients, args.seconds, args.warmup, args.forging if args.as_space else None)
    print(json.dumps({**asdict(report), "last_half_spread_mb": report.last_half_spread_mb}, indent=2))


if __name__ == "__main__":
    main()
