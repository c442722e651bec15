"""The multi-worker server evens out its workers' connections (search/api/workers.py
`ConnectionBalance`): a worker holding more connections than another, plus one, closes
connections after their responses; a draining worker, or one that is gone, is not compared with."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from types import SimpleNamespace
from typing import Any

from search.api.workers import CloseWhenDraining, ConnectionBalance


def test_a_worker_with_more_connections_than_another_plus_one_is_crowded() -> None:
    balance = ConnectionBalance(workers=2)
    first, second = balance.slot(age=1), balance.slot(age=2)
    assert not balance.crowded(second, 0)
    assert balance.crowded(first, 2) and balance.crowded(first, 16)
    assert not balance.crowded(first, 1)  # one more than the other is even enough
    balance.crowded(second, 7)
    assert not balance.crowded(first, 8) and balance.crowded(second, 7) is False
    balance.release(second)  # draining or stopped: no longer compared with
    assert not balance.crowded(first, 16)


def test_a_worker_that_is_gone_is_not_compared_with() -> None:
    balance = ConnectionBalance(workers=2)
    first = balance.slot(age=1)
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    second = balance.slot(age=2)
    assert balance.crowded(first, 16)
    balance._pids[second] = int(gone.stdout)  # its process exited without releasing the slot
    assert not balance.crowded(first, 16)


def _response_headers(middleware: CloseWhenDraining) -> list[tuple[bytes, bytes]]:
    sent: list[dict[str, Any]] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
        await send({"type": "http.response.body", "body": b"ok"})

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    middleware.app = app
    asyncio.run(middleware({"type": "http"}, None, send))
    return sent[0]["headers"]


def test_responses_of_a_crowded_or_draining_worker_close_their_connection() -> None:
    balance = ConnectionBalance(workers=2)
    mine, other = balance.slot(age=3), balance.slot(age=4)
    balance.crowded(other, 1)
    server = SimpleNamespace(draining=False, server_state=SimpleNamespace(connections={object() for _ in range(5)}))
    crowded = CloseWhenDraining(None, server, balance, mine)  # type: ignore[arg-type]
    assert (b"connection", b"close") in _response_headers(crowded)
    server.server_state.connections = {object(), object()}
    assert (b"connection", b"close") not in _response_headers(crowded)
    server.draining = True
    assert (b"connection", b"close") in _response_headers(crowded)
