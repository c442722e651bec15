"""The MCP tools, called by the `mcp` package's client over streamable HTTP, on the API served
as `app.py` serves it: uvicorn, with a Gradio UI mounted at `/` (whose lifespan wraps ours)."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from typing import Any, Iterator

import gradio as gr
import httpx
import pytest
import uvicorn
from mcp import Client

from search.api.http import make_api
from search.engine.engine import Engine


@pytest.fixture(scope="module")
def base_url(engine: Engine) -> Iterator[str]:
    api = make_api(engine)
    with gr.Blocks() as blocks:
        gr.Markdown("UI")
    gr.mount_gradio_app(api, blocks, path="/")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(api, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


def call(base_url: str, tool: str, arguments: dict[str, Any]) -> Any:
    async def run() -> Any:
        async with Client(f"{base_url}/mcp") as client:
            return await client.call_tool(tool, arguments)

    return asyncio.run(run())


def test_lists_the_three_tools(base_url: str) -> None:
    async def run() -> Any:
        async with Client(f"{base_url}/mcp") as client:
            return await client.list_tools()

    tools = {tool.name: tool for tool in asyncio.run(run()).tools}
    assert set(tools) == {"search", "get_by_id", "get_dependencies"}
    assert tools["search"].input_schema["properties"]["limit"]["maximum"] == 100


def test_search_tool_returns_compact_results(base_url: str, engine: Engine) -> None:
    arguments = {"query": "sine at most one", "limit": 2, "source": ["extra"], "kind": ["theorem"]}
    result = call(base_url, "search", arguments)
    assert not result.is_error
    hits = result.structured_content["result"]
    expected = engine.search("sine at most one", k=2, filters={"source": ["extra"], "kind": ["theorem"]})
    assert [h["id"] for h in hits] == [r.statement.id for r in expected]
    assert set(hits[0]) == {"id", "name", "kind", "source", "statement", "doc", "url", "score"}
    assert {h["kind"] for h in hits} == {"theorem"}


def test_get_by_id_and_get_dependencies(base_url: str) -> None:
    record = call(base_url, "get_by_id", {"id": "extra:Real.sin"}).structured_content
    assert record["name"] == "Real.sin" and record["dependents_count"] == 4
    both = call(base_url, "get_dependencies", {"id": "extra:Real.cos_le_one"}).structured_content
    assert both["dependencies_count"] == 3 and both["dependents_count"] == 0
    users = call(base_url, "get_dependencies", {"id": "extra:Real.sin", "direction": "dependents", "limit": 1})
    assert users.structured_content["dependents_count"] == 4
    assert len(users.structured_content["dependents"]) == 1 and "dependencies" not in users.structured_content


def test_bad_arguments_are_tool_errors_with_messages(base_url: str) -> None:
    unknown = call(base_url, "get_by_id", {"id": "extra:Real.sinn"})
    assert unknown.is_error and "did you mean: extra:Real.sin" in unknown.content[0].text
    too_many = call(base_url, "search", {"query": "ring", "limit": 1000})
    assert too_many.is_error and "less than or equal to 100" in too_many.content[0].text
    bad_filter = call(base_url, "search", {"query": "ring", "source": ["stacks"]})
    assert bad_filter.is_error and "stackslike" in bad_filter.content[0].text


def test_gradio_and_the_http_api_share_the_server(base_url: str) -> None:
    assert "<html" in httpx.get(f"{base_url}/").text.lower()
    assert httpx.get(f"{base_url}/config").status_code == 200
    hits = httpx.get(f"{base_url}/json", params={"q": "Real.sin"}).json()["hits"]
    assert hits[0]["name"] == "Real.sin"
    answer = httpx.post(f"{base_url}/search", json={"query": ["sine"], "num_results": 1}).json()
    assert json.dumps(answer) and len(answer[0]) == 1
