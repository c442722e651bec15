"""What only a real server sees, sent over a raw socket to `python app.py`: a 100 KB URL, a body
announced far over the bound, bytes that are no HTTP. Each is a 4xx status line, and the server
answers normally afterwards."""

from __future__ import annotations

import socket

import httpx

from tests.live_server import AppProcess


def exchange(app: AppProcess, request: bytes) -> bytes:
    """Send raw bytes, return the status line of the answer."""
    with socket.create_connection(("127.0.0.1", app.port), timeout=30) as connection:
        connection.sendall(request)
        answer = b""
        while b"\r\n" not in answer:
            chunk = connection.recv(4096)
            if not chunk:
                break
            answer += chunk
    return answer.split(b"\r\n", 1)[0]


def test_a_100_kb_url_is_a_4xx(app: AppProcess) -> None:
    status = exchange(app, b"GET /api/v1/search?q=" + b"x" * 100_000 + b" HTTP/1.1\r\nHost: localhost\r\n\r\n")
    assert status.startswith(b"HTTP/1.1 4"), status


def test_a_huge_announced_body_is_413_before_it_is_sent(app: AppProcess) -> None:
    head = (b"POST /search HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            b"Content-Length: 10000000\r\n\r\n{\"query\": [")
    assert exchange(app, head) == b"HTTP/1.1 413 Request Entity Too Large"


def test_bytes_that_are_no_http_are_a_400(app: AppProcess) -> None:
    assert exchange(app, b"\x00\xff\xfe GARBAGE \x07\r\n\r\n").startswith(b"HTTP/1.1 400")


def test_the_server_answers_normally_afterwards(app: AppProcess) -> None:
    response = httpx.post(f"{app.url}/search", json={"query": ["commutative"], "num_results": 2}, timeout=30)
    assert response.status_code == 200 and len(response.json()[0]) == 2
