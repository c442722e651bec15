"""Slow clients against a running app, over real sockets: connections that send nothing, half a
request head, a head dripped one byte at a time, or 3 bytes of a 100-byte body; how long the
server keeps each, and what normal searches take meanwhile.

`python -m tests.reliability.slow_clients --index DIR [--workers N] [--slow 200] [--rounds 3]`
starts `python app.py` over DIR with its default bounds on connections (search/api/connections.py;
the rate limit off, as the searches are many from one address), then
alternates, `--rounds` times, a run of sequential searches alone and the same run while
`--slow` slow connections are held open (each reopened as soon as the server closes it), and
prints the latency figures of both and how long the server kept the slow connections, as
JSON. The slow connections come from other loopback addresses (127.0.0.2, ...) than the
searches (127.0.0.1), as an attacker's would, so the per-address bound applies to them alone.
"""

from __future__ import annotations

import argparse
import json
import selectors
import socket
import statistics
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from tests.live_server import app_process

#: What each kind of slow connection sends when it opens (the drip kind sends one byte more
#: of its head at every `drip` call).
OPENING = {
    "silent": b"",
    "headers": b"GET /api/v1/index HTTP/1.1\r\nHost: localhost\r\n",
    "drip": b"G",
    "body": b"POST /search HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n{\"q",
}
DRIP = b"ET /api/v1/index HTTP/1.1\r\nHost: localhost\r\nX-Padding: " + b"x" * 10_000
KINDS = tuple(OPENING)
SEARCHES = ["Nakayama lemma", "multiplication is commutative", "mul_comm", "prime ideal", "ring"]


@dataclass
class SlowConnection:
    """One slow connection: its socket, when it opened, what the server sent, when it closed."""

    kind: str
    sock: socket.socket
    opened: float
    received: bytes = b""
    closed: float | None = None
    dripped: int = 0

    @property
    def held(self) -> float | None:
        """Seconds the server kept it open (None while it is open)."""
        return None if self.closed is None else self.closed - self.opened

    @property
    def status(self) -> int | None:
        """The status of the answer the server sent before closing, if any."""
        line = self.received.split(b"\r\n", 1)[0].split()
        return int(line[1]) if len(line) > 1 and line[1].isdigit() else None


def open_slow(port: int, kind: str, source: str) -> SlowConnection:
    """A slow connection of `kind` to the app, from the loopback address `source`."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    sock.sendall(OPENING[kind])
    sock.setblocking(False)
    return SlowConnection(kind, sock, time.monotonic())


def drip(connections: list[SlowConnection]) -> None:
    """One more byte on every open drip connection."""
    for c in connections:
        if c.kind == "drip" and c.closed is None and c.dripped < len(DRIP):
            try:
                c.sock.send(DRIP[c.dripped:c.dripped + 1])
                c.dripped += 1
            except OSError:
                pass


def watch(connections: list[SlowConnection], until: float, drip_every: float = 0.5) -> None:
    """Read what the server sends until each connection is closed or `until` (monotonic) passes,
    noting when each closes; drip connections get a byte every `drip_every` s meanwhile."""
    selector = selectors.DefaultSelector()
    for c in connections:
        if c.closed is None:
            selector.register(c.sock, selectors.EVENT_READ, c)
    next_drip = time.monotonic()
    while selector.get_map() and time.monotonic() < until:
        if time.monotonic() >= next_drip:
            drip(connections)
            next_drip += drip_every
        for key, _ in selector.select(timeout=0.05):
            c: SlowConnection = key.data
            try:
                chunk = c.sock.recv(65536)
            except BlockingIOError:
                continue
            except OSError:
                chunk = b""
            if chunk:
                c.received += chunk
                continue
            c.closed = time.monotonic()
            selector.unregister(c.sock)
    selector.close()


def close_all(connections: list[SlowConnection]) -> None:
    for c in connections:
        c.sock.close()


@dataclass
class Latency:
    """Sequential searches: their latencies in ms, and the failures."""

    ms: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def figures(self) -> dict[str, float]:
        ordered = sorted(self.ms)
        return {"searches": len(ordered), "p50_ms": round(statistics.median(ordered), 1),
                "p95_ms": round(ordered[max(0, round(0.95 * len(ordered)) - 1)], 1), "failed": len(self.failures)}


def searches(url: str, count: int, latency: Latency) -> None:
    """`count` native searches one after another from 127.0.0.1, each timed."""
    transport = httpx.HTTPTransport(local_address="127.0.0.1")
    with httpx.Client(base_url=url, timeout=60, transport=transport) as client:
        for n in range(count):
            started = time.perf_counter()
            try:
                answer = client.get("/api/v1/search", params={"q": f"{SEARCHES[n % len(SEARCHES)]} {n}", "k": 10})
                if answer.status_code != 200:
                    latency.failures.append(f"HTTP {answer.status_code} {answer.text[:200]}")
            except httpx.HTTPError as error:
                latency.failures.append(f"{type(error).__name__} {error}")
            latency.ms.append((time.perf_counter() - started) * 1000)


def under_slow_clients(port: int, url: str, slow: int, count: int, latency: Latency) -> list[SlowConnection]:
    """`count` searches while `slow` slow connections (kinds in turn, from 127.0.0.2, .3, ...,
    at most 20 per address) are held open, each reopened once the server closes it; every slow
    connection made, as the server treated it."""
    made: list[SlowConnection] = []
    live: list[SlowConnection] = []
    done = threading.Event()
    worker = threading.Thread(target=lambda: (searches(url, count, latency), done.set()))

    def fill() -> None:
        while len(live) < slow:
            n = len(made)
            connection = open_slow(port, KINDS[n % len(KINDS)], f"127.0.0.{2 + (n % slow) // 20}")
            made.append(connection)
            live.append(connection)

    fill()
    worker.start()
    while not done.is_set():
        watch(live, time.monotonic() + 0.5)
        live[:] = [c for c in live if c.closed is None]
        fill()
    worker.join()
    close_all(made)
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--index", type=Path, required=True)
    parser.add_argument("--workers", type=int, default=1, help="app.py --workers")
    parser.add_argument("--slow", type=int, default=200, help="slow connections held open at once")
    parser.add_argument("--searches", type=int, default=300, help="searches per run")
    parser.add_argument("--rounds", type=int, default=3, help="alternations of the two runs")
    args = parser.parse_args()
    alone, loaded = Latency(), Latency()
    made: list[SlowConnection] = []
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        with app_process(args.index, work / "votes.sqlite", work / "app.log", {"RATE_LIMIT_PER_MINUTE": "0"},
                         args.workers) as app:
            searches(app.url, 10, Latency())  # warm-up
            for _ in range(args.rounds):
                searches(app.url, args.searches, alone)
                made += under_slow_clients(app.port, app.url, args.slow, args.searches, loaded)
    held = {kind: sorted(c.held for c in made if c.kind == kind and c.held is not None) for kind in KINDS}
    report = {
        "workers": args.workers, "slow_connections_at_once": args.slow, "rounds": args.rounds,
        "alone": alone.figures(), "with_slow_clients": loaded.figures(),
        "slow_connections_made": len(made),
        "held_s": {kind: {"closed": len(values), "median": round(statistics.median(values), 2),
                          "max": round(values[-1], 2)} for kind, values in held.items() if values},
        "answers": {str(s or "none"): sum(1 for c in made if c.status == s)
                    for s in sorted({c.status for c in made}, key=lambda s: s or 0)},
        "failures": (alone.failures + loaded.failures)[:5],
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
