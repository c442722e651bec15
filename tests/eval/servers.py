"""A local HTTP server that answers like a remote service, for testing the real HTTP clients."""

from __future__ import annotations

import json
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Iterator
from urllib.parse import parse_qs, urlsplit


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: Any


#: (request) -> (status, body); a `str` body is sent as is, anything else as JSON.
Answerer = Callable[[Request], "tuple[int, Any]"]


@dataclass
class Server:
    url: str
    requests: list[Request] = field(default_factory=list)


@contextmanager
def serve(answer: Answerer) -> Iterator[Server]:
    """Serve on 127.0.0.1 (a free port) until the block ends; every request is recorded."""
    server_info = Server("")

    class Handler(BaseHTTPRequestHandler):
        def _handle(self) -> None:
            parts = urlsplit(self.path)
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            body = json.loads(raw) if raw else None
            request = Request(self.command, parts.path, parse_qs(parts.query), dict(self.headers), body)
            server_info.requests.append(request)
            status, payload = answer(request)
            data = (payload if isinstance(payload, str) else json.dumps(payload)).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = _handle

        def log_message(self, *args: Any) -> None:  # keep test output quiet
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    httpd.block_on_close = False  # a handler still sleeping must not hold up the test
    server_info.url = f"http://127.0.0.1:{httpd.server_address[1]}"
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    try:
        yield server_info
    finally:
        httpd.shutdown()
        httpd.server_close()
