"""Concurrent clients against a running app: every request a normal user or tool sends (the
page, the three imitated APIs, native searches, votes on what a native search returned), for
a fixed time, with each failure, the latency percentiles and the server's memory recorded.

`python -m tests.reliability.load --index DIR [--clients 50] [--seconds 60] [--workers N]`
starts `python app.py` over DIR (rate limit off: the clients are one address), warms it up
with the same load, then loads it and prints the figures as JSON (docs/limits.md). Memory is PSS summed over the app's processes (tests/live_server.py), sampled
every 5 s at most.
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

from tests.live_server import AppProcess, app_process

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


async def _client(base: str, number: int, deadline: float, report: LoadReport, latencies: list[float]) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=REQUEST_TIMEOUT) as client:
        step = number  # clients start at different places in the cycle
        last: dict[str, Any] | None = None  # the last native answer with results, for votes
        while time.monotonic() < deadline:
            kind, method, arguments = request_for(number, step)
            step += 1
            if kind == "vote":
                if last is None:
                    continue
                arguments = {**arguments, "json": vote_on(last, step)}
            started = time.perf_counter()
            try:
                response = await client.request(method, **arguments)
                ok = response.status_code == 200
                if ok and kind == "native" and response.json().get("results"):
                    last = response.json()
                problem = f"{kind}: HTTP {response.status_code} {response.text[:200]}"
            except httpx.HTTPError as error:
                ok, problem = False, f"{kind}: {type(error).__name__} {error}"
            latencies.append(time.perf_counter() - started)
            report.requests += 1
            report.by_kind[kind] = report.by_kind.get(kind, 0) + 1
            if not ok:
                report.failed += 1
                if len(report.failures) < 10:
                    report.failures.append(problem)


async def _run(base: str, clients: int, seconds: float, report: LoadReport, latencies: list[float],
               app: AppProcess | None) -> None:
    deadline = time.monotonic() + seconds
    tasks = [asyncio.create_task(_client(base, n, deadline, report, latencies)) for n in range(clients)]
    while app is not None and not all(t.done() for t in tasks):  # sample memory as the load runs
        report.rss_samples_mb.append(round(app.rss_bytes() / 2**20, 1))
        await asyncio.sleep(min(5.0, max(seconds / 6, 0.5)))
    await asyncio.gather(*tasks)


def load(app: AppProcess, clients: int, seconds: float, warmup: float) -> LoadReport:
    """Warm the server up with the same load (threads, caches and allocator arenas fill), take
    its RSS, load it for `seconds`, take its RSS again."""
    asyncio.run(_run(app.url, clients, warmup, LoadReport(clients, warmup), [], None))
    report = LoadReport(clients, seconds)
    report.rss_before_mb = round(app.rss_bytes() / 2**20, 1)
    latencies: list[float] = []
    started = time.monotonic()
    asyncio.run(_run(app.url, clients, seconds, report, latencies, app))
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
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        with app_process(args.index, work / "votes.sqlite", work / "app.log", ONE_ADDRESS,
                         args.workers) as app:
            report = load(app, args.clients, args.seconds, args.warmup)
    print(json.dumps({**asdict(report), "last_half_spread_mb": report.last_half_spread_mb}, indent=2))


if __name__ == "__main__":
    main()
