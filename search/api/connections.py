"""Slow clients and too many connections, refused where the HTTP is read, below the application.

uvicorn bounds the time a connection idles between two requests (`timeout_keep_alive`) but
not the time a request takes to arrive: a connection that sends nothing, or three bytes of a
hundred announced, is held open forever, and a few hundred of them use up the process's file
descriptors. An ASGI middleware cannot help with the headers (the application is called once
they are complete), and uvicorn has no setting for it (its "timeout-request-start" was
proposed and never merged). So the server reads HTTP with `GuardedH11Protocol`, uvicorn's own
h11 protocol with four additions, each from `ConnectionLimits`:

- **headers**: a request's headers must be complete within `header_seconds` of the connection
  opening, or of the previous response on it ending;
- **body**: its body within `body_seconds` of its headers; past either, the client gets a
  408 (a JSON `{"error"}` like the API's other refusals) and the connection is closed (if the
  application had begun its answer, the connection is only closed);
- **per process**: a connection past `max_connections` open ones is answered 503 and closed
  at once;
- **per address**: a connection from a peer that holds `per_address` open ones already is
  answered 429 and closed. Behind a trusted proxy every connection comes from the proxy, so
  this bound is off there (`server_options`) and the request guard bounds the requests in
  progress per client address instead (search/api/guard.py).

The counts are uvicorn's own set of open connections (`server_state.connections`), per
process; both servers use this protocol: `python app.py` (uvicorn.run) and `--workers N`
(each worker's uvicorn config, search/api/workers.py). The protocol is uvicorn's h11 one
whichever parser is installed (httptools would be uvicorn's "auto" choice), so that these
bounds hold everywhere.
"""

from __future__ import annotations

import asyncio
import functools
import json
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from search import config


@dataclass(frozen=True)
class ConnectionLimits:
    """The bounds of one server process (0 turns one off)."""

    header_seconds: float = config.HEADER_TIMEOUT_SECONDS
    body_seconds: float = config.BODY_TIMEOUT_SECONDS
    max_connections: int = config.MAX_CONNECTIONS
    per_address: int = config.CONNECTIONS_PER_ADDRESS


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with the deadlines and bounds of `ConnectionLimits` (see the
    module's doc). uvicorn makes one per connection: `http=` a `protocol(limits)`."""

    def __init__(self, *args: Any, limits: ConnectionLimits, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.limits = limits
        self._deadline: asyncio.TimerHandle | None = None
        #: What the deadline waits for: "headers" or "body" (None: no deadline armed).
        self._awaiting: str | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        refusal = self._refusal()
        if refusal is not None:
            self._answer(*refusal)
            return
        self._arm("headers")

    def _refusal(self) -> tuple[int, str] | None:
        """Why this new connection is refused, if it is: (status, message)."""
        limits = self.limits
        if limits.max_connections and len(self.connections) > limits.max_connections:
            return 503, (f"the server holds {limits.max_connections} connections, as many as it takes; "
                         "try again in a moment")
        if limits.per_address and self.client is not None:
            peer = self.client[0]
            held = sum(1 for other in self.connections if (getattr(other, "client", None) or ("",))[0] == peer)
            if held > limits.per_address:
                return 429, f"too many connections: at most {limits.per_address} open at once from one client"
        return None

    def data_received(self, data: bytes) -> None:
        if self.transport.is_closing():  # refused or timed out: what follows is not read
            return
        before = self.cycle
        super().data_received(data)
        self._follow(before)

    def on_response_complete(self) -> None:
        before = self.cycle
        super().on_response_complete()
        if self.cycle is before:  # the next request's headers are awaited from now on
            self._arm("headers")
        else:  # a pipelined request, read already
            self._follow(before)

    def handle_websocket_upgrade(self, event: Any) -> None:
        self._disarm()  # the connection is the WebSocket protocol's from now on
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _follow(self, before: Any) -> None:
        """After h11 has read more: a new request's headers end the wait for headers and
        start the one for its body, unless that is complete too; a body read to its end ends
        the wait for it."""
        if self.transport.is_closing():
            self._disarm()
        elif self.cycle is not before:
            self._arm("body") if self.cycle.more_body else self._disarm()
        elif self._awaiting == "body" and not self.cycle.more_body:
            self._disarm()

    def _arm(self, awaiting: str) -> None:
        self._disarm()
        seconds = self.limits.header_seconds if awaiting == "headers" else self.limits.body_seconds
        if seconds > 0 and not self.transport.is_closing():
            self._awaiting = awaiting
            self._deadline = self.loop.call_later(seconds, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline, self._awaiting = None, None

    def _expired(self) -> None:
        """The awaited part did not arrive in time: a 408 (unless the application began its
        answer) and the connection closed; the application, if running, sees a disconnect."""
        awaiting, self._deadline, self._awaiting = self._awaiting, None, None
        if self.transport.is_closing():
            return
        seconds = self.limits.header_seconds if awaiting == "headers" else self.limits.body_seconds
        cycle = self.cycle if awaiting == "body" else None
        if cycle is not None:
            cycle.disconnected = True  # the application's answer, should it come, is not written
            cycle.message_event.set()
            if cycle.response_started:
                self.transport.close()
                return
        self._answer(408, f"the request's {awaiting} did not arrive within {seconds:g} s")

    def _answer(self, status: int, message: str) -> None:
        """Write a whole JSON error response and close, whatever state h11 is in (the request
        may not even have begun)."""
        body = json.dumps({"error": message}).encode()
        head = (f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\ncontent-type: application/json\r\n"
                f"content-length: {len(body)}\r\nconnection: close\r\n\r\n")
        self.transport.write(head.encode("latin-1") + body)
        self.transport.close()


def protocol(limits: ConnectionLimits) -> Any:
    """What uvicorn's `http=` takes: a factory of `GuardedH11Protocol` with these limits."""
    return functools.partial(GuardedH11Protocol, limits=limits)


def server_options(limits: ConnectionLimits | None = None) -> dict[str, Any]:
    """uvicorn settings every server of the app uses (`uvicorn.run(app, **server_options())`,
    the workers' `CONFIG_KWARGS`): the guarded protocol, and no reading of `X-Forwarded-For` by
    uvicorn (search/api/client.py reads it). Behind trusted proxies the per-address bound on
    connections is off: their peer is the proxy."""
    limits = limits or ConnectionLimits()
    if config.TRUSTED_PROXIES > 0:
        limits = ConnectionLimits(limits.header_seconds, limits.body_seconds, limits.max_connections, 0)
    return {"http": protocol(limits), "proxy_headers": False}
