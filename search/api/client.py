"""The client's address, as the trusted proxy in front of the server saw it.

Every proxy that forwards a request appends the address it received the request from to
`X-Forwarded-For`; whatever stands to the left of those entries was written by the client (or
by proxies nobody vouches for) and can be anything. With `TRUSTED_PROXIES = N` (the proxies
between the visitor and this server: 1 for a Hugging Face Space, whose proxy is the only
thing that reaches the app), the client's address is the N-th entry from the right, the one
the outermost trusted proxy appended; with 0 (the default: no proxy), the socket's peer.

`ClientAddress` puts that address in the ASGI scope's `client`, so that every consumer (the
rate limit of search/api/guard.py, the vote cap and the hashed address of
search/feedback/ballot.py, through the API's and the page's `request.client`) sees the same
one. uvicorn's own `ProxyHeadersMiddleware` is switched off (`proxy_headers=False`, app.py
and search/api/workers.py): with `FORWARDED_ALLOW_IPS='*'`, as a Space needs since its
proxies' addresses are not known, it takes the leftmost entry, the one the client wrote.

A request with fewer entries than trusted proxies did not come through them all (or a proxy
is missing from the count), so none of its entries can be trusted: its address is the
socket's peer. An entry that is not an IP address (the proxy appended nothing usable) is
treated the same way.
"""

from __future__ import annotations

import ipaddress
from typing import Any, Awaitable, Callable, Iterable, MutableMapping

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Any, Any], Awaitable[None]]

FORWARDED_FOR = b"x-forwarded-for"
FORWARDED_PROTO = b"x-forwarded-proto"


def forwarded_chain(headers: Iterable[tuple[bytes, bytes]]) -> list[str]:
    """The entries of every `X-Forwarded-For` header, in order (several headers are one list)."""
    values = [value.decode("latin-1") for name, value in headers if name.lower() == FORWARDED_FOR]
    return [entry.strip() for entry in ",".join(values).split(",") if entry.strip()] if values else []


def _address(entry: str) -> str | None:
    """The IP address of one entry (`1.2.3.4`, `1.2.3.4:5678`, `[::1]:80`, `::1`), or None."""
    host = entry
    if entry.startswith("["):
        host = entry[1:].partition("]")[0]
    elif entry.count(":") == 1:
        host = entry.partition(":")[0]
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        return None


def client_address(headers: Iterable[tuple[bytes, bytes]], peer: str, trusted_proxies: int) -> str:
    """The address of the client that sent a request with these headers over a socket from
    `peer`, behind `trusted_proxies` proxies (see the module's doc)."""
    if trusted_proxies <= 0:
        return peer
    chain = forwarded_chain(headers)
    if len(chain) < trusted_proxies:
        return peer
    return _address(chain[-trusted_proxies]) or peer


class ClientAddress:
    """ASGI middleware: the scope's `client` becomes `(client_address(...), 0)`, and its
    `scheme` the one the outermost trusted proxy announced (`X-Forwarded-Proto`, for the
    page's own URLs behind a TLS-terminating proxy)."""

    def __init__(self, app: ASGIApp, trusted_proxies: int) -> None:
        self.app = app
        self.trusted_proxies = trusted_proxies

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if self.trusted_proxies > 0 and scope["type"] in ("http", "websocket"):
            headers = scope.get("headers") or []
            peer = (scope.get("client") or ("", 0))[0]
            scope = dict(scope)
            scope["client"] = (client_address(headers, peer, self.trusted_proxies), 0)
            proto = [v.decode("latin-1") for k, v in headers if k.lower() == FORWARDED_PROTO]
            scheme = proto[-1].split(",")[-1].strip().lower() if proto else ""
            if scheme in ("http", "https"):
                scope["scheme"] = scheme if scope["type"] == "http" else scheme.replace("http", "ws")
        await self.app(scope, receive, send)
