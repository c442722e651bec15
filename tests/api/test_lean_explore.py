"""lean-explore 1.3.0, LeanExplore's own client, unmodified and in its own virtual environment:
its `ApiClient` with `base_url` set to this server's `/leanexplore/api/v2`, against a live
server over the patterns fixture (`search`, with and without `packages`, and `get_by_id`, a
missing id included)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest

from search.api.leanexplore import PREFIX
from search.engine.engine import Engine

REQUIREMENT = "lean-explore==1.3.0"

#: Run in lean-explore's environment: the client's calls, their answers printed as JSON.
SCRIPT = """
import asyncio, json, sys
from lean_explore.api import ApiClient

async def main():
    client = ApiClient()
    client.base_url = sys.argv[1]
    found = await client.search(sys.argv[2], limit=3)
    mathlib = await client.search(sys.argv[2], limit=2, packages=["Mathlib"])
    first = await client.get_by_id(found.results[0].id)
    missing = await client.get_by_id(10**6)
    print(json.dumps({"found": found.model_dump(), "mathlib": mathlib.model_dump(),
                      "first": first.model_dump(), "missing": missing}))

asyncio.run(main())
"""


def run_client(client_env: Path, pattern_server: str, query: str) -> dict[str, Any]:
    done = subprocess.run([str(client_env / "bin" / "python"), "-c", SCRIPT, f"{pattern_server}{PREFIX}", query],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_api_client_search_and_get_by_id(client_env: Path, pattern_server: str) -> None:
    answer = run_client(client_env, pattern_server, "sine of twice an angle")
    ours = httpx.get(f"{pattern_server}{PREFIX}/search", params={"q": "sine of twice an angle", "limit": 3}).json()
    found = answer["found"]
    assert [r["name"] for r in found["results"]] == [r["name"] for r in ours["results"]] and found["count"] == 3
    assert found["processing_time_ms"] is not None
    first = found["results"][0]
    assert answer["first"] == first  # `get_by_id` gives back the same declaration
    assert first["source_link"].startswith("https://") and first["source_text"]
    assert answer["missing"] is None  # a 404 is "no such declaration" to the client
    assert [r["name"] for r in answer["mathlib"]["results"]] == [r["name"] for r in found["results"][:2]]


def test_ids_are_positions_stable_for_the_index(pattern_server: str, pattern_engine: Engine) -> None:
    hits = httpx.get(f"{pattern_server}{PREFIX}/search", params={"q": "sqrt", "limit": 5}).json()["results"]
    for hit in hits:
        assert pattern_engine.index.records[hit["id"]].name == hit["name"]
        again = httpx.get(f"{pattern_server}{PREFIX}/declarations/{hit['id']}").json()
        assert again == hit
    with_deps = next(h for h in hits if h["name"] == "Real.mul_self_sqrt")
    assert "Real.sqrt" in json.loads(with_deps["dependencies"])


def test_unknown_packages_and_ids_are_errors_with_messages(pattern_server: str) -> None:
    bad = httpx.get(f"{pattern_server}{PREFIX}/search", params={"q": "sine", "packages": "Mathlib,Std"})
    assert bad.status_code == 400 and "no package 'Std'" in bad.json()["error"] and bad.json()["suggestions"] == ["Mathlib"]
    for missing in ("-1", "999999"):
        response = httpx.get(f"{pattern_server}{PREFIX}/declarations/{missing}")
        assert response.status_code == 404 and response.json()["error"]
    assert httpx.get(f"{pattern_server}{PREFIX}/declarations/abc").status_code == 422
