"""Several indexes in one server (search/api/indexes.py): the native API's `index=`,
LeanStateSearch's `rev`, the MCP tools' `index`, and `app.py`'s `--index NAME=DIR`."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from search.api.http import make_api
from search.api.indexes import Indexes
from search.api.service import SearchService
from search.engine.engine import Engine
from search.index.build import BuildOptions, build_index
from search.index.manifest import IndexLoadError
from search.index.store import Index

NEWER_COMMIT = "feedbeef12345678"


@pytest.fixture(scope="module")
def newer_index(tmp_path_factory: pytest.TempPathFactory, fixtures_dir: Path) -> Path:
    """The Mathlib fixture at another commit, without `mul_comm` (a later version dropped it)."""
    folder = tmp_path_factory.mktemp("newer")
    lines = (fixtures_dir / "jsonl" / "mathlib_small.jsonl").read_text().splitlines()
    kept = [line.replace('"abc123"', f'"{NEWER_COMMIT}"') for line in lines if '"name": "mul_comm"' not in line]
    (folder / "mathlib.jsonl").write_text("\n".join(kept) + "\n")
    build_index(folder / "index", BuildOptions(sources=[f"mathlib={folder / 'mathlib.jsonl'}"], progress=False))
    return folder / "index"


@pytest.fixture(scope="module")
def indexes(small_index: Path, newer_index: Path) -> Indexes:
    services = {name: SearchService.from_engine(Engine(Index.load(path)))
                for name, path in (("v1", small_index), ("latest", newer_index))}
    return Indexes(services, tags={"latest": ("mathlib-feedbeef",)})


@pytest.fixture(scope="module")
def client(indexes: Indexes) -> TestClient:
    return TestClient(make_api(indexes, rate_limit=0), raise_server_exceptions=False)


def ids(answer: dict[str, Any]) -> list[str]:
    return [r["id"] for r in answer["results"]]


def test_native_api_searches_the_named_index(client: TestClient, indexes: Indexes) -> None:
    default = client.get("/api/v1/search", params={"q": "mul_comm", "k": 3}).json()
    latest = client.post("/api/v1/search", json={"query": "mul_comm", "k": 3, "index": "latest"}).json()
    assert default["index"] == "v1" and ids(default)[0] == "mathlib:mul_comm"
    assert latest["index"] == "latest" and "mathlib:mul_comm" not in ids(latest)
    assert latest["index_version"] == indexes.get("latest").index.version != default["index_version"]
    assert client.get("/api/v1/statement/mathlib:mul_comm", params={"index": "latest"}).status_code == 404
    assert client.get("/api/v1/statement/mathlib:mul_comm", params={"index": "v1"}).status_code == 200
    assert client.get("/api/v1/index", params={"index": "latest"}).json()["name"] == "latest"
    listed = client.get("/api/v1/indexes").json()
    assert [(i["name"], i["default"]) for i in listed] == [("v1", True), ("latest", False)]
    assert listed[1]["lean_commits"] == {"mathlib": NEWER_COMMIT}


def test_a_vote_on_a_result_of_another_index(indexes: Indexes, tmp_path: Path) -> None:
    from search.feedback.store import FeedbackStore

    store = FeedbackStore(tmp_path / "votes.sqlite")
    voting = TestClient(make_api(indexes, feedback_store=store, rate_limit=0), raise_server_exceptions=False)
    answer = voting.get("/api/v1/search", params={"q": "succ le succ", "k": 3, "index": "latest"}).json()
    body = {"session": answer["session"], "query": answer["query"], "result_id": answer["results"][0]["id"],
            "vote": 1, "rank": 1, "filters": answer["filters"], "index": "latest"}
    saved = voting.post("/api/v1/feedback", json=body)
    assert saved.status_code == 200, saved.text
    assert saved.json()["vote"]["index_version"] == indexes.get("latest").index.version
    assert voting.post("/api/v1/feedback", json={**body, "index": "nope"}).status_code == 404


def test_unknown_index_is_a_404_naming_the_indexes(client: TestClient) -> None:
    answer = client.get("/api/v1/search", params={"q": "x", "index": "v9"})
    assert answer.status_code == 404 and answer.json()["error"] == "no index named 'v9'; this server has v1, latest"


@pytest.mark.parametrize(("rev", "name", "how"), [
    (NEWER_COMMIT[:7], "latest", "matched"),  # a commit prefix of its Lean source
    ("mathlib-feedbeef", "latest", "matched"),  # its tag
    ("v1", "v1", "matched"),  # its name
    ("v4.99.0", "v1", "default"),  # unknown: the default, saying so
    ("", "v1", "default"),
    ("feedbe", "v1", "default"),  # too short a prefix to mean a commit
])
def test_statesearch_rev_selects_the_index(client: TestClient, rev: str, name: str, how: str) -> None:
    answer = client.get("/api/search", params={"query": "a b : G\n⊢ a * b = b * a", "results": 5, "rev": rev})
    assert answer.status_code == 200
    assert (answer.headers["X-Index"], answer.headers["X-Index-Rev"]) == (name, how)
    found = {hit["name"] for hit in answer.json()}
    assert ("mul_comm" in found) == (name == "v1")
    assert all(hit["rev"] == (NEWER_COMMIT if name == "latest" else "abc123") for hit in answer.json())


def test_mcp_tools_take_an_index(indexes: Indexes) -> None:
    from mcp.server.mcpserver.exceptions import ToolError

    from search.api.mcp import make_server

    server = make_server(indexes)

    async def call(tool: str, arguments: dict[str, Any]) -> Any:
        return await server.call_tool(tool, arguments)

    def names(result: Any) -> list[str]:
        assert not result.is_error, result.content
        return [hit["id"] for hit in result.structured_content["result"]]

    assert "mathlib:mul_comm" in names(asyncio.run(call("search", {"query": "mul_comm", "limit": 3})))
    latest = asyncio.run(call("search", {"query": "mul_comm", "limit": 3, "index": "latest"}))
    assert "mathlib:mul_comm" not in names(latest)
    with pytest.raises(ToolError, match="no index named 'old'"):  # a tool error, as the transport sends it
        asyncio.run(call("get_by_id", {"id": "mathlib:mul_comm", "index": "old"}))


def test_app_index_arguments(tmp_path: Path) -> None:
    import app

    assert app.named_indexes(["idx"]) == {"default": "idx"}
    assert app.named_indexes(["v4.28=/a", "latest=hf://datasets/o/n@v2"]) == {"v4.28": "/a", "latest": "hf://datasets/o/n@v2"}
    odd = tmp_path / "a=b"
    odd.mkdir()
    assert app.named_indexes([str(odd)]) == {"default": str(odd)}  # an existing path with "=" is a path
    with pytest.raises(IndexLoadError, match="given twice"):
        app.named_indexes(["x=/a", "x=/b"])


def test_workers_serve_one_index_and_say_so_for_several(capsys: pytest.CaptureFixture[str]) -> None:
    import app

    assert app.main(["--index", "a=/nowhere/a", "--index", "b=/nowhere/b", "--workers", "2"]) == 2
    assert "--workers 2 serves one index, 2 given (a, b)" in capsys.readouterr().err
