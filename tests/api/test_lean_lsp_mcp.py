"""lean-lsp-mcp 0.32.0, the MCP server Lean agents run in their editors, unmodified and in its own
virtual environment, against a live server over the patterns fixture.

It is started as an MCP stdio server with `LOOGLE_URL`, `LEAN_FINDER_URL` and `LEAN_HAMMER_URL`
pointed at the live server and no Lean toolchain, and driven by the `mcp` package's client:
its `lean_loogle` and `lean_leanfinder` tools need no Lean project. Its premise tool
(`lean_hammer_premise`) first asks Lean's language server for the goal at a position of a file,
which needs a toolchain; here the tool's own code runs in the client's environment with that one
call answered by a stub giving the goal (`PREMISE_SCRIPT`), so that the request it sends and
the way it reads the answer are lean-lsp-mcp's own.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters

from search.engine.engine import Engine

REQUIREMENT = "lean-lsp-mcp==0.32.0"


def environment(url: str) -> dict[str, str]:
    """The three URLs as lean-lsp-mcp's README says to set them, and its log quiet."""
    return {
        "PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", "/tmp"),
        "LOOGLE_URL": url, "LEAN_FINDER_URL": f"{url}/leanfinder", "LEAN_HAMMER_URL": f"{url}/hammer",
        "LEAN_LOG_LEVEL": "WARNING",
    }


def call_tools(venv: Path, url: str, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    """Start `lean-lsp-mcp` (stdio) and call each tool in turn."""
    server = StdioServerParameters(command=str(venv / "bin" / "lean-lsp-mcp"), args=["--transport", "stdio"],
                                   env=environment(url))

    async def run() -> list[Any]:
        async with Client(server, read_timeout_seconds=60) as client:
            return [await client.call_tool(tool, arguments) for tool, arguments in calls]

    return asyncio.run(run())


def test_lean_loogle_and_lean_leanfinder_answer_from_this_server(client_env: Path, pattern_server: str, pattern_engine: Engine) -> None:
    import httpx

    loogle, unknown, finder, state = call_tools(client_env, pattern_server, [
        ("lean_loogle", {"query": "?a * ?b = ?b * ?a", "num_results": 3}),
        ("lean_loogle", {"query": "sinn"}),
        ("lean_leanfinder", {"query": "the sine of a real number is at most one", "num_results": 3}),
        ("lean_leanfinder", {"query": "x : ℝ\n⊢ Real.sin x ≤ 1", "num_results": 2}),
    ])
    assert not loogle.is_error, loogle.content
    assert [item["name"] for item in loogle.structured_content["items"]] == ["mul_comm"]
    assert loogle.structured_content["items"][0]["module"] == "Mathlib.Algebra.Group.Defs"
    # Loogle's error and suggestions, as the tool shows them.
    assert unknown.is_error and "Unknown identifier 'sinn'" in unknown.content[0].text

    assert not finder.is_error, finder.content
    items = finder.structured_content["items"]
    ours = httpx.post(f"{pattern_server}/leanfinder", json={"inputs": "the sine of a real number is at most one",
                                                       "top_k": 3, "version": "v4.28.0"}).json()["results"]
    assert [item["formal_name"] for item in items] == [hit["formal_name"] for hit in ours] and len(items) == 3
    # The path comes as `Mathlib/...` and the tool turns it into the module's name.
    assert all(item["path"] == hit["path"].replace("/", ".") for item, hit in zip(items, ours))
    assert not state.is_error and state.structured_content["items"][0]["formal_name"] == "Real.sin_le_one"


#: Run in lean-lsp-mcp's environment: its `hammer_premise` tool function (the one the MCP
#: server registers), with the language server's answer for the goal replaced by a stub.
PREMISE_SCRIPT = """
import asyncio, json, sys
from types import SimpleNamespace
from lean_lsp_mcp.tools import search

goal = sys.argv[1]

class Client:
    async def goal(self, path, line, column):
        return SimpleNamespace(status="goals", goals=[goal])

async def file_in_project(ctx, file_path):
    return "Example.lean"

async def opened(ctx, path, wait=False):
    return None

search.require_client_for_file = file_in_project
search.get_client = lambda ctx: Client()
search.open_synced = opened
context = SimpleNamespace(request_context=SimpleNamespace(lifespan_context=SimpleNamespace(rate_limit={"hammer_premise": []})))
result = asyncio.run(search.hammer_premise(context, file_path="Example.lean", line=3, column=3, num_results=3))
print(json.dumps([item.name for item in result.items]))
"""


def test_the_premise_tool_s_request_is_answered_by_the_goal_state_search(client_env: Path, pattern_server: str) -> None:
    goal = "a b : M\n⊢ a * b = b * a"
    done = subprocess.run([str(client_env / "bin" / "python"), "-c", PREMISE_SCRIPT, goal], capture_output=True, text=True,
                          timeout=120, env=environment(pattern_server))
    assert done.returncode == 0, done.stderr[-2000:]
    import httpx

    ours = httpx.post(f"{pattern_server}/hammer/retrieve", json={"state": goal, "new_premises": [], "k": 3}).json()
    assert json.loads(done.stdout) == [premise["name"] for premise in ours]
    assert json.loads(done.stdout)[0] == "mul_comm"
