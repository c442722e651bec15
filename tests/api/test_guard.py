"""The request guard around the whole server: URLs that are not UTF-8 (400), bodies over the
bound (413, announced or chunked), too many requests from one client (429), and the page's
own traffic left uncounted."""

from __future__ import annotations

import asyncio
import json
from typing import Iterator

import gradio as gr
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from search import config
from search.api.guard import RequestGuard
from search.api.http import make_api
from search.engine.engine import Engine

NOT_UTF8 = [
    "/api/v1/search?q=%FF%FE",
    "/json?q=%C3%28",
    "/api/search?query=%E2%8A%A2%20%FF",
    "/api/v1/statement/extra%3A%FF",
    "/api/v1/dependents/%C0%AF",
    "/?q=%ED%A0%80",  # an encoded surrogate: not UTF-8 either
]


def guarded(engine: Engine, **bounds: int) -> FastAPI:
    """The API with the page mounted as app.py mounts it (a one-line page stands in for it)."""
    api = make_api(engine, **bounds)
    with gr.Blocks() as blocks:
        gr.Markdown("page")
    return gr.mount_gradio_app(api, blocks, path="/")


@pytest.mark.parametrize("url", NOT_UTF8)
def test_url_that_is_not_utf8_is_a_400_saying_so(client: TestClient, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 400
    assert "not valid UTF-8" in response.json()["error"]
    if url.startswith(("/api/search?", "/json?")):  # with the fields the imitated API's errors have
        assert set(response.json()) == {"error", "schema" if url.startswith("/api/") else "suggestions"}


def test_body_over_the_bound_is_413_whether_announced_or_chunked(engine: Engine) -> None:
    client = TestClient(make_api(engine, rate_limit=0, max_body_bytes=1000), raise_server_exceptions=False)
    announced = client.post("/search", content=b" " * 1001, headers={"content-type": "application/json"})
    assert announced.status_code == 413
    assert announced.json() == {"error": "the request body has 1001 bytes; at most 1000 are accepted"}

    def chunks(total: int) -> Iterator[bytes]:
        body = json.dumps({"query": ["sine"], "num_results": 1}).encode().ljust(total)
        yield from (body[i:i + 100] for i in range(0, total, 100))

    chunked = client.post("/search", content=chunks(5000), headers={"content-type": "application/json"})
    assert chunked.status_code == 413 and "longer than 1000 bytes" in chunked.json()["error"]
    small = client.post("/search", content=chunks(300), headers={"content-type": "application/json"})
    assert small.status_code == 200 and len(small.json()[0]) == 1  # the chunks read reach the route


def test_the_largest_valid_leansearch_request_fits_the_default_bound(client: TestClient) -> None:
    """10 queries of 2,000 characters outside the BMP, each written as two `\\uXXXX` escapes."""
    body = json.dumps({"query": ["𝔽" * 2000] * 10, "num_results": 1}).encode()
    assert 200_000 < len(body) <= config.API_MAX_BODY_BYTES
    response = client.post("/search", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 200 and len(response.json()) == 10


def test_too_many_requests_from_one_client_are_429_with_retry_after(engine: Engine) -> None:
    app = guarded(engine, rate_limit=3)
    one = TestClient(app, client=("203.0.113.7", 40000))
    assert [one.get("/json", params={"q": "Real.sin"}).status_code for _ in range(3)] == [200] * 3
    refused = one.post("/search", json={"query": ["sine"]})
    assert refused.status_code == 429
    assert refused.json()["error"].startswith("too many requests: at most 3 a minute from one client")
    assert 1 <= int(refused.headers["retry-after"]) <= 60
    assert one.post("/mcp", json={}).status_code == 429  # MCP and the page's events count too
    assert one.post("/gradio_api/queue/join", json={}).status_code == 429
    other = TestClient(app, client=("203.0.113.8", 40000))
    assert other.get("/json", params={"q": "Real.sin"}).status_code == 200


def test_loading_the_page_is_not_counted(engine: Engine) -> None:
    client = TestClient(guarded(engine, rate_limit=2), client=("198.51.100.1", 1))
    for _ in range(5):
        for path in ("/", "/config", "/theme.css", "/gradio_api/info"):
            assert client.get(path).status_code == 200, path
    assert [client.get("/api/v1/filters").status_code for _ in range(3)] == [200, 200, 429]


def test_a_limit_of_zero_counts_nothing(engine: Engine) -> None:
    client = TestClient(make_api(engine, rate_limit=0))
    assert {client.get("/api/v1/index").status_code for _ in range(300)} == {200}


def test_a_content_length_that_is_no_number_is_a_400() -> None:
    """uvicorn refuses such a request itself; the guard does not rely on it."""
    sent: list[dict] = []

    async def app(scope: dict, receive: object, send: object) -> None:
        raise AssertionError("the application must not be called")

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/search", "raw_path": b"/search", "query_string": b"",
             "headers": [(b"content-length", b"12, 12")], "client": ("127.0.0.1", 1)}
    asyncio.run(RequestGuard(app, max_body_bytes=100, per_minute=0)(scope, None, send))  # type: ignore[arg-type]
    assert sent[0]["status"] == 400 and json.loads(sent[1]["body"]) == {"error": "the Content-Length header is not a number"}


def test_requests_in_progress_per_client_are_bounded() -> None:
    """Two requests of one client held open (as a slow body holds one): a third is a 429 at
    once; another client's goes through; once one ends, the client may send again."""
    release = asyncio.Event()
    sent: list[tuple[str, dict]] = []

    async def app(scope: dict, receive: object, send: object) -> None:
        await release.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})  # type: ignore[operator]
        await send({"type": "http.response.body", "body": b"ok"})  # type: ignore[operator]

    def request(client: str) -> dict:
        return {"type": "http", "method": "GET", "path": "/", "raw_path": b"/", "query_string": b"",
                "headers": [], "client": (client, 1)}

    async def run() -> None:
        guard = RequestGuard(app, max_body_bytes=100, per_minute=0, per_address=2)

        async def one(client: str) -> None:
            async def send(message: dict) -> None:
                if message["type"] == "http.response.start":
                    sent.append((client, message))
            await guard(request(client), None, send)  # type: ignore[arg-type]

        held = [asyncio.create_task(one("198.51.100.1")) for _ in range(2)]
        await asyncio.sleep(0.05)
        await one("198.51.100.1")
        assert [(c, m["status"]) for c, m in sent] == [("198.51.100.1", 429)]
        other = asyncio.create_task(one("198.51.100.2"))
        release.set()
        await asyncio.gather(*held, other)
        assert guard.in_progress == {}
        await one("198.51.100.1")

    asyncio.run(run())
    assert [m["status"] for _, m in sent] == [429, 200, 200, 200, 200]
