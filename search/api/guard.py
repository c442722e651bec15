"""Requests refused before any route runs: a URL that is not UTF-8, a body too large, a client
asking too often.

One ASGI middleware around the whole application (the APIs, MCP and the Gradio page), so that
each bound holds whichever door a request comes in by:

- **URL**: the path and query string must decode as UTF-8 after percent-decoding; otherwise a
  400 (Starlette would silently turn the bytes into U+FFFD and search for that);
- **body size**: a `Content-Length` above the bound is a 413 before the body is read; a body
  sent in chunks without a length is read up to the bound and refused past it;
- **rate**: requests that make the server work (the search APIs, `/mcp`, and the page's
  POSTs to `/gradio_api/...`, i.e. one per search or vote) count against a moving one-minute
  window per client address, with the `limits` library; past it, a 429 with `Retry-After`.
  Static files, the page itself and Gradio's event stream do not count, so loading the page
  never uses up the allowance. The client address is the scope's `client`: the socket's
  peer, or behind `TRUSTED_PROXIES` proxies the address the outermost one appended to
  `X-Forwarded-For` (search/api/client.py, which runs first). A limit of 0 turns counting
  off (the loopback load test does: its fifty clients are one address);
- **requests in progress** per client address, every path counted (a body that arrives
  slowly holds its request open until search/api/connections.py closes it): past
  `per_address`, a 429. Behind a proxy, whose connections all come from one peer, this is
  what bounds one visitor's share of the process's connections.

Every refusal is JSON `{"error": ...}` like the API's other errors, with the fields the API a
path imitates adds to its errors (`error_fields`, e.g. LeanStateSearch's `schema`).
"""

from __future__ import annotations

import json
import math
import time
from collections import Counter
from typing import Any, Awaitable, Callable, Mapping, MutableMapping
from urllib.parse import unquote_to_bytes

from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Paths whose every request counts against the rate limit (prefix match).
COUNTED_PREFIXES = ("/search", "/json", "/api/", "/mcp", "/leanfinder", "/hammer/", "/leanexplore/")
#: Gradio's event endpoints (queue/join, run, call, upload, ...) count when POSTed to.
GRADIO_PREFIX = "/gradio_api/"


class RequestGuard:
    """The middleware: `app.add_middleware(RequestGuard, max_body_bytes=..., per_minute=...)`."""

    def __init__(
        self, app: ASGIApp, max_body_bytes: int, per_minute: int,
        error_fields: Mapping[str, Mapping[str, Any]] | None = None, per_address: int = 0,
    ) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.per_minute = per_minute
        self.per_address = per_address
        #: Requests in progress per client address (addresses with none are dropped).
        self.in_progress: Counter[str] = Counter()
        self.error_fields = error_fields or {}
        self.window = RateLimitItemPerMinute(per_minute) if per_minute > 0 else None
        self.limiter = MovingWindowRateLimiter(MemoryStorage())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        bad_url = _undecodable(scope)
        if bad_url:
            await self._refuse(scope, send, 400, f"the URL's {bad_url} is not valid UTF-8 once percent-decoded")
            return
        client = _client(scope)
        if self.per_address and self.in_progress[client] >= self.per_address:
            await self._refuse(scope, send, 429, f"too many requests in progress: at most {self.per_address} "
                                                 "at once from one client")
            return
        self.in_progress[client] += 1
        try:
            await self._guarded(scope, receive, send, client)
        finally:
            self.in_progress[client] -= 1
            if not self.in_progress[client]:
                del self.in_progress[client]

    async def _guarded(self, scope: Scope, receive: Receive, send: Send, client: str) -> None:
        wait = self._rate_limited(scope, client)
        if wait is not None:
            await self._refuse(
                scope, send, 429,
                f"too many requests: at most {self.per_minute} a minute from one client; "
                f"try again in {wait} s",
                headers=[(b"retry-after", str(wait).encode())],
            )
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None:
            if not length.isdigit():
                await self._refuse(scope, send, 400, "the Content-Length header is not a number")
            elif int(length) > self.max_body_bytes:
                message = f"the request body has {int(length)} bytes; at most {self.max_body_bytes} are accepted"
                await self._refuse(scope, send, 413, message)
            else:  # the server reads no more than the length it announced
                await self.app(scope, receive, send)
            return
        if b"chunked" not in headers.get(b"transfer-encoding", b"").lower():
            await self.app(scope, receive, send)
            return
        body, complete = await self._read_chunked(receive)
        if not complete:
            message = f"the request body is longer than {self.max_body_bytes} bytes, the most accepted"
            await self._refuse(scope, send, 413, message)
            return
        await self.app(scope, _replay(body, receive), send)

    async def _refuse(
        self, scope: Scope, send: Send, status: int, message: str, headers: list[tuple[bytes, bytes]] | None = None
    ) -> None:
        """Answer a JSON error without calling the application."""
        fields = {"error": message, **self.error_fields.get(scope.get("path", ""), {})}
        body = json.dumps(fields).encode()
        await send({
            "type": "http.response.start", "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                        *(headers or [])],
        })
        await send({"type": "http.response.body", "body": body})

    def _rate_limited(self, scope: Scope, client: str) -> int | None:
        """Seconds until this client may ask again, or None when the request may go on."""
        if self.window is None or not _counted(scope):
            return None
        if self.limiter.hit(self.window, client):
            return None
        reset = self.limiter.get_window_stats(self.window, client).reset_time
        return max(1, math.ceil(reset - time.time()))

    async def _read_chunked(self, receive: Receive) -> tuple[bytes, bool]:
        """The whole body, or (what was read, False) once it passes the bound."""
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return b"".join(chunks), True  # the client went away; the app will see it
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body_bytes:
                return b"", False
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks), True


def _client(scope: Scope) -> str:
    return (scope.get("client") or ("unknown", 0))[0]


def _counted(scope: Scope) -> bool:
    path = scope.get("path", "")
    if path.startswith(COUNTED_PREFIXES):
        return True
    return scope.get("method") == "POST" and path.startswith(GRADIO_PREFIX)


def _undecodable(scope: Scope) -> str | None:
    """Which part of the URL ("path" or "query string") is not UTF-8, if one is not."""
    raw_path = scope.get("raw_path") or scope.get("path", "").encode("utf-8", "surrogatepass")
    for part, raw in (("path", raw_path), ("query string", scope.get("query_string", b""))):
        try:
            unquote_to_bytes(raw).decode("utf-8")
        except UnicodeDecodeError:
            return part
    return None


def _replay(body: bytes, receive: Receive) -> Receive:
    """A `receive` that gives the body read already, then waits on the real one (disconnects)."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay

