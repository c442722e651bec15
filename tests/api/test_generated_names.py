"""Names Lean makes beside what is written (aliases, the declarations attributes generate), as
the APIs answer them: found by name first, a deprecated one saying what replaces it."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from search.api.http import make_api
from search.engine.engine import Engine
from search.index.build import BuildOptions, build_index
from search.index.store import Index
from tests.api.lean_client import USER_AGENT, loogle_path, parse_loogle


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory, fixtures_dir: Path) -> TestClient:
    out = tmp_path_factory.mktemp("generated") / "index"
    build_index(out, BuildOptions(sources=[f"fake={fixtures_dir / 'lean'}"], backend="torch", progress=False))
    return TestClient(make_api(Engine(Index.load(out)), rate_limit=0), raise_server_exceptions=False)


def _loogle(client: TestClient, query: str) -> list:
    response = client.get(f"/json{loogle_path(query)}", headers={"user-agent": USER_AGENT})
    hits, error, _ = parse_loogle(response.text, 6)
    assert response.status_code == 200 and error is None, response.text
    return hits


@pytest.mark.parametrize("name", ["FakeLib.lt_imp_le", "FakeLib.Continuous.add'", "FakeLib.Continuous.fun_mul'",
                                  "FakeLib.comp_eq_assoc", "FakeLib.Pt.ext_iff", "FakeLib.old_le_of_lt"])
def test_an_exact_name_comes_first(client: TestClient, name: str) -> None:
    assert _loogle(client, name)[0].name == name


def test_an_alias_is_its_targets_statement_and_says_so(client: TestClient) -> None:
    hit = _loogle(client, "FakeLib.lt_imp_le")[0]
    assert hit.type == "∀ {a b : Nat} (h : a < b), a ≤ b"
    assert hit.doc == "**Alias** of `FakeLib.le_of_lt'`."
    found = client.get("/api/v1/search", params={"q": "FakeLib.lt_imp_le", "k": 3}).json()["results"][0]
    assert found["id"] == "fake:FakeLib.lt_imp_le" and "fake:FakeLib.le_of_lt'" in found["members"]


def test_a_deprecated_alias_says_what_replaces_it(client: TestClient) -> None:
    hit = _loogle(client, "FakeLib.old_le_of_lt")[0]
    assert hit.doc.startswith("Deprecated since 2025-01-01: use FakeLib.le_of_lt' instead.")
    record = client.get("/api/v1/statement/fake:FakeLib.old_le_of_lt").json()
    assert record["meta"]["deprecated"] == {"since": "2025-01-01", "use": "FakeLib.le_of_lt'"}
    found = client.get("/api/v1/search", params={"q": "FakeLib.old_le_of_lt", "k": 1}).json()["results"][0]
    assert found["deprecated"] == {"since": "2025-01-01", "use": "FakeLib.le_of_lt'"}
