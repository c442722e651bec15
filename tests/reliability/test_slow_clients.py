"""Slow clients and too many connections against `python app.py`, one process and two workers,
over real sockets (tests/reliability/slow_clients.py): connections that send nothing, half a
head, a head dripped a byte every half second, or 3 of 100 body bytes are answered 408 and
closed once the configured deadline passes (not before, and within a margin after), while
searches from another address are all answered; past the bounds on connections per address
and per process, a connection is answered 429 or 503 at once. The bounds are set low here so
that the test is short; the latency searches keep meanwhile is measured by
`python -m tests.reliability.slow_clients` (README, "Limits and guarantees"), not asserted."""

from __future__ import annotations

import threading
import time
from typing import Iterator

import httpx
import pytest

from tests.live_server import AppProcess, app_process
from tests.reliability.slow_clients import KINDS, Latency, SlowConnection, close_all, open_slow, searches, watch
from tests.ui.fixture_index import ui_index

HEADERS_S = 2.0
BODY_S = 3.0
PER_ADDRESS = 10
PER_PROCESS = 60
ENV = {"HEADER_TIMEOUT_SECONDS": str(HEADERS_S), "BODY_TIMEOUT_SECONDS": str(BODY_S),
       "CONNECTIONS_PER_ADDRESS": str(PER_ADDRESS), "MAX_CONNECTIONS": str(PER_PROCESS), "RATE_LIMIT_PER_MINUTE": "0"}
#: How late past its deadline a slow connection may be closed (the event loop may be busy
#: with a search when the deadline passes), and how soon a refused one must be.
MARGIN_S = 2.0
AT_ONCE_S = 1.5


@pytest.fixture(scope="module", params=[1, 2], ids=["one-process", "two-workers"])
def app(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppProcess]:
    work = tmp_path_factory.mktemp("slow")
    with app_process(ui_index(tmp_path_factory), work / "votes.sqlite", work / "app.log", ENV,
                     workers=request.param) as running:
        yield running


def _deadline(c: SlowConnection) -> float:
    return BODY_S if c.kind == "body" else HEADERS_S


def _settle() -> None:
    """Let every connection of an earlier test reach its deadline."""
    time.sleep(BODY_S + MARGIN_S)


def test_slow_connections_are_closed_at_their_deadline_while_searches_are_answered(app: AppProcess) -> None:
    _settle()
    slow = [open_slow(app.port, KINDS[n % len(KINDS)], f"127.0.0.{2 + n // PER_ADDRESS}") for n in range(40)]
    latency = Latency()
    searching = threading.Thread(target=searches, args=(app.url, 10, latency))
    searching.start()
    watch(slow, time.monotonic() + BODY_S + MARGIN_S + 5)
    searching.join()
    close_all(slow)
    assert latency.failures == [] and len(latency.ms) == 10
    for c in slow:
        assert c.held is not None, f"a {c.kind} connection was still open after {BODY_S + MARGIN_S + 5} s"
        assert _deadline(c) - 0.2 <= c.held <= _deadline(c) + MARGIN_S, (c.kind, c.held)
        assert c.status == 408 and b"did not arrive within" in c.received, (c.kind, c.received[:300])


def test_connections_past_the_bound_per_address_are_refused_at_once(app: AppProcess) -> None:
    _settle()
    made = [open_slow(app.port, "silent", "127.0.0.2") for _ in range(3 * PER_ADDRESS)]
    watch(made, time.monotonic() + AT_ONCE_S)
    refused = [c for c in made if c.held is not None]
    assert len(refused) >= len(made) - app.workers * PER_ADDRESS  # each process counts its own
    assert all(c.status == 429 and b"at most 10 open at once from one client" in c.received for c in refused)
    assert httpx.get(f"{app.url}/api/v1/index", timeout=10).status_code == 200  # another address is served
    close_all(made)


def test_connections_past_the_bound_per_process_are_refused_at_once(app: AppProcess) -> None:
    _settle()
    total = app.workers * PER_PROCESS + 20
    made = [open_slow(app.port, "silent", f"127.0.1.{1 + n // PER_ADDRESS}") for n in range(total)]
    watch(made, time.monotonic() + AT_ONCE_S)
    refused = [c for c in made if c.held is not None]
    assert len(refused) >= total - app.workers * PER_PROCESS
    assert all(c.status == 503 and b"as many as it takes" in c.received for c in refused)
    watch(made, time.monotonic() + HEADERS_S + MARGIN_S)
    close_all(made)
    assert all(c.held is not None for c in made)  # the rest, at the deadline for headers
    answer = httpx.get(f"{app.url}/api/v1/search", params={"q": "ring", "k": 3}, timeout=30)
    assert answer.status_code == 200  # and the server is itself again


def test_a_request_that_arrives_in_time_is_answered_as_usual(app: AppProcess) -> None:
    """A head and body sent in pieces within the deadlines, on a connection kept alive for a
    second request: both answered."""
    c = open_slow(app.port, "body", "127.0.0.9")  # 3 of 100 body bytes, then the rest
    c.sock.setblocking(True)
    time.sleep(BODY_S / 3)
    body = b'uery": ["ring"], "num_results": 2}'.ljust(97)
    c.sock.sendall(body)
    first = _response(c)
    assert first.startswith(b"HTTP/1.1 200"), first[:200]
    time.sleep(HEADERS_S / 3)
    c.sock.sendall(b"GET /api/v1/index HTTP/1.1\r\nHost: localhost\r\n\r\n")
    assert _response(c).startswith(b"HTTP/1.1 200")
    c.sock.close()


def _response(c: SlowConnection) -> bytes:
    """One whole response with a Content-Length, read from a blocking socket."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += c.sock.recv(65536)
    head, _, rest = data.partition(b"\r\n\r\n")
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length"))
    while len(rest) < length:
        rest += c.sock.recv(65536)
    return head
