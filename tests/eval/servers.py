"""Local servers for testing the real HTTP clients: one that answers like a remote service,
and raw TCP servers that hang, trickle or answer garbage."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
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


#: What a misbehaving server does with one accepted connection.
Behaviour = Callable[[socket.socket], None]


def hang(connection: socket.socket) -> None:
    """Accept, read the request, never answer."""
    connection.recv(65536)
    time.sleep(30)


def trickle(connection: socket.socket) -> None:
    """Answer 200 at once, then send the body a byte every 50 ms: each read is quick, the whole
    answer would take minutes."""
    connection.recv(65536)
    body = b'{"choices": [{"message": {"content": "' + b"x" * 5000 + b'"}}]}'
    connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body))
    for byte in body:
        connection.sendall(bytes([byte]))
        time.sleep(0.05)


def not_http(connection: socket.socket) -> None:
    """Answer bytes that are no HTTP response at all, then hang up."""
    connection.recv(65536)
    connection.sendall(b"\x00\xff\xfe garbage \r\n\r\n")


@contextmanager
def misbehave(behaviour: Behaviour) -> Iterator[str]:
    """A TCP server on 127.0.0.1 doing `behaviour` with each connection; yields its URL."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.settimeout(0.05)
    stop = threading.Event()

    def handle(connection: socket.socket) -> None:
        with contextlib.suppress(OSError), connection:
            behaviour(connection)

    def accept() -> None:
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except (TimeoutError, OSError):
                continue
            threading.Thread(target=handle, args=(connection,), daemon=True).start()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(timeout=5)
        listener.close()
