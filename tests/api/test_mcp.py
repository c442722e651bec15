"""The MCP tools, called by the `mcp` package's client over streamable HTTP, on the API served
as `app.py` serves it: uvicorn, with a Gradio UI mounted at `/` (whose lifespan wraps ours)."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any, Iterator

import gradio as gr
import httpx
import pytest
from mcp import Client

from search.api.http import make_api
from search.engine.engine import Engine
from tests.live_server import live_server


@pytest.fixture(scope="module")
def base_url(engine: Engine) -> Iterator[str]:
    """No rate limit: each MCP session is several requests (test_guard.py tests the limit)."""
    api = make_api(engine, rate_limit=0)
    with gr.Blocks() as blocks:
        gr.Markdown("UI")
    gr.mount_gradio_app(api, blocks, path="/")
    with live_server(api, start_timeout=30) as url:
        yield url


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
    properties = tools["search"].input_schema["properties"]
    assert {"k", "limit"} <= set(properties) and properties["k"]["anyOf"][0]["maximum"] == 100
    assert all(tool.input_schema["additionalProperties"] is False for tool in tools.values())


def test_the_server_reports_the_index_version(base_url: str, engine: Engine) -> None:
    async def run() -> Any:
        async with Client(f"{base_url}/mcp") as client:
            return client.server_info

    info = asyncio.run(run())
    assert info.name == "theorem-search" and info.version == engine.index.version != ""


def test_k_as_the_native_api_names_it_or_limit_and_one_string_for_a_list(base_url: str, engine: Engine) -> None:
    expected = [r.statement.id for r in engine.search("sine", k=2, filters={"source": ["extra"]})]
    for arguments in ({"k": 2}, {"limit": 2}, {"k": 2, "limit": 2}):
        result = call(base_url, "search", {"query": "sine", "source": "extra", **arguments})
        assert [h["id"] for h in result.structured_content["result"]] == expected, arguments
    both = call(base_url, "search", {"query": "sine", "k": 2, "limit": 3})
    assert both.is_error and "`k` (2) and `limit` (3) disagree" in both.content[0].text


def test_no_log_line_per_request_at_info(base_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """An agent calls tools by the hundred: the server's log says nothing of each at INFO."""
    with caplog.at_level(logging.INFO):
        for _ in range(3):
            assert not call(base_url, "search", {"query": "sine", "k": 1}).is_error
    # The client's own HTTP library logs each request it sends; the server logs none.
    server_lines = [r for r in caplog.records if r.levelno >= logging.INFO and not r.name.startswith("httpx")]
    assert server_lines == [], [(r.name, r.getMessage()) for r in server_lines]


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


#: (tool, arguments, part of the error message) for input no tool can answer.
BAD_CALLS = [
    ("search", {"query": ""}, "the query is empty"),
    ("search", {"query": " \t\n "}, "the query is empty"),
    ("search", {"query": "x" * 100_000}, "at most 2000 characters"),
    ("search", {"query": "nul\x00byte"}, "control character U+0000"),
    ("search", {"query": "bell\x07"}, "control character U+0007"),
    ("search", {"query": 5}, "valid string"),
    ("search", {"query": ["ring"]}, "valid string"),
    ("search", {}, "query"),
    ("search", {"query": "ring", "limit": 0}, "greater than or equal to 1"),
    ("search", {"query": "ring", "limit": -3}, "greater than or equal to 1"),
    ("search", {"query": "ring", "limit": 10**12}, "less than or equal to 100"),
    ("search", {"query": "ring", "limit": "ten"}, "valid integer"),
    ("search", {"query": "ring", "limit": 2.5}, "valid integer"),
    ("search", {"query": "ring", "variant": "best"}, "variant"),
    ("search", {"query": "ring", "filters": {"colour": "red"}}, "unknown filter 'colour'"),
    ("search", {"query": "ring", "filters": {"kind": "theorm"}}, "no record has kind = 'theorm'"),
    ("search", {"query": "ring", "filters": ["kind"]}, "valid dictionary"),
    ("search", {"query": "ring", "source": 3}, "valid string"),
    ("search", {"query": "ring", "limt": 3}, "limt"),
    ("search", {"query": "ring", "limt": 3}, "Extra inputs are not permitted"),
    ("get_by_id", {"id": "extra:Real.sin", "index": None, "format": "json"}, "format"),
    ("get_by_id", {"id": ""}, "no statement has the id ''"),
    ("get_by_id", {"id": 3}, "valid string"),
    ("get_dependencies", {"id": "extra:Real.sin", "direction": "up"}, "direction"),
    ("get_dependencies", {"id": "extra:Real.sin", "limit": 0}, "greater than or equal to 1"),
    ("nosuch", {}, "Unknown tool"),
]


def test_bad_input_to_every_tool_is_a_tool_error_with_a_message(base_url: str) -> None:
    async def run() -> list[Any]:
        async with Client(f"{base_url}/mcp") as client:
            return [await client.call_tool(tool, arguments) for tool, arguments, _ in BAD_CALLS]

    for (tool, arguments, message), result in zip(BAD_CALLS, asyncio.run(run())):
        assert result.is_error, (tool, arguments)
        text = result.content[0].text
        assert message in text and "Traceback" not in text, (tool, text[:300])


def test_odd_but_valid_queries_are_answered(base_url: str) -> None:
    """Unbalanced LaTeX and Lean fragments are queries like any other."""
    queries = ["$\\frac{1}{", "\\begin{theorem} a < b", "theorem foo : ∀ x : ℕ, (x + ⟨", "⊢", "«»", "%%%"]

    async def run() -> list[Any]:
        async with Client(f"{base_url}/mcp") as client:
            return [await client.call_tool("search", {"query": q, "limit": 3}) for q in queries]

    for query, result in zip(queries, asyncio.run(run())):
        assert not result.is_error and isinstance(result.structured_content["result"], list), query


@pytest.mark.parametrize(
    "body, code",
    [
        (b"{not json", -32700),
        (b"[]", -32602),
        (b"5", -32602),
        (json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": "x"}).encode(), -32602),
    ],
)
def test_malformed_json_rpc_is_a_4xx_with_a_json_rpc_error(base_url: str, body: bytes, code: int) -> None:
    headers = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
    response = httpx.post(f"{base_url}/mcp", content=body, headers=headers)
    assert response.status_code == 400 and response.json()["error"]["code"] == code


def test_get_opens_no_event_stream_that_would_never_carry_anything(base_url: str) -> None:
    response = httpx.get(f"{base_url}/mcp", headers={"accept": "text/event-stream"}, timeout=10)
    assert response.status_code == 405 and "POST" in response.headers["allow"]
