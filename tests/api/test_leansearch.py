"""`POST /search` as LeanSearchClient's `#leansearch` uses it."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from search import config
from search.engine.engine import Engine
from tests.api.conftest import expected_names
from tests.api.lean_client import leansearch_request, parse_leansearch


def test_leansearchclient_request_and_parse(client: TestClient, engine: Engine) -> None:
    # `#leansearch` insists on a final "." or "?", and sends it on.
    query = "The sine of a real number is at most one."
    response = client.post("/search", **leansearch_request(query))
    assert response.status_code == 200
    results = parse_leansearch(response.text)
    # The engine's ranking over the Lean sources only: `#check stackslike:...` is no Lean.
    assert [r.name for r in results] == expected_names(engine, query, 6)
    hit = next(r for r in results if r.name == "Real.sin_le_one")
    assert hit.type == "∀ (x : ℝ), sin x ≤ 1"
    assert hit.doc == "The sine of a real number is at most one."
    assert hit.kind == "theorem"


def test_names_types_and_doc_urls_of_mathlib_hits(client: TestClient) -> None:
    results = parse_leansearch(client.post("/search", **leansearch_request("Nat.succ_le_succ", 3)).text)
    assert results[0].name == "Nat.succ_le_succ"
    assert results[0].type == "∀ {n m : ℕ} (h : n ≤ m), succ n ≤ succ m"
    assert results[0].doc_url == f"{config.MATHLIB_DOCS_URL}/Mathlib/Order/Nat.html#Nat.succ_le_succ"
    assert results[0].doc is None  # no docstring: null, as LeanSearch sends it


def test_distances_spread_with_the_scores(client: TestClient, engine) -> None:  # type: ignore[no-untyped-def]
    hits = client.post("/search", json={"query": ["multiplication is commutative"], "num_results": 5}).json()[0]
    scores = [r.score for r in engine.search("multiplication is commutative", k=5,
                                              filters={"source": ["extra", "mathlib"]})]
    assert [h["distance"] for h in hits] == [round(1 - s / scores[0], 6) for s in scores]
    assert hits[-1]["distance"] - hits[0]["distance"] > 0.1


def test_one_inner_list_per_query_with_leansearch_fields(client: TestClient) -> None:
    body = {"query": ["Nat.succ_le_succ", "multiplication is commutative", "sine of pi"], "num_results": 2}
    answer = client.post("/search", json=body).json()
    assert len(answer) == 3
    assert [hits[0]["result"]["name"] for hits in answer[:2]] == [["Nat", "succ_le_succ"], ["mul_comm"]]
    for hits in answer:
        assert 1 <= len(hits) <= 2
        distances = [hit["distance"] for hit in hits]
        # The best hit is at 0, the others as far behind it as their scores say.
        assert distances == sorted(distances) and distances[0] == 0 and all(0 <= d <= 1 for d in distances)
        for hit in hits:
            assert set(hit["result"]) >= {
                "name", "module_name", "kind", "signature", "type", "value", "docstring", "doc_url",
                "informal_name", "informal_description",
            }
    first = answer[0][0]["result"]
    assert first["module_name"] == ["Mathlib", "Order", "Nat"]
    assert first["signature"].startswith("theorem succ_le_succ")


def test_lean_pretty_printed_body_is_accepted(client: TestClient, engine: Engine) -> None:
    """`Json.pretty` breaks long bodies over lines; JSON is JSON."""
    long = "If a natural number n is less than m, then the successor of n is less than the successor of m."
    body = '{"num_results": 4,\n "query":\n [' + json.dumps(long) + "]}"
    response = client.post("/search", content=body.encode(), headers={"content-type": "application/json"})
    assert response.status_code == 200
    assert [r.name for r in parse_leansearch(response.text)] == expected_names(engine, long, 4)


def test_num_results_as_a_number_or_a_numeric_string_up_to_150(client: TestClient, engine: Engine) -> None:
    """lean-lsp-mcp sends `{"num_results": "5", "query": [q]}`; LeanSearch's server reads the
    string as its number, and so does this one."""
    as_string = client.post("/search", json={"num_results": "3", "query": ["sine"]})
    as_number = client.post("/search", json={"num_results": 3, "query": ["sine"]})
    assert as_string.status_code == 200 and as_string.json() == as_number.json()
    assert len(as_string.json()[0]) == 3
    most = client.post("/search", json={"num_results": "150", "query": ["sine"]})
    assert most.status_code == 200 and len(most.json()[0]) == len(expected_names(engine, "sine", 150))


def test_every_query_gets_its_inner_list_empty_when_nothing_is_found(tmp_path, fixtures_dir) -> None:  # type: ignore[no-untyped-def]
    """An index without Lean declarations finds nothing for LeanSearch; the answer still has
    one (empty) inner list per query string, which `#leansearch` reads as no results."""
    from search.api.http import make_api
    from search.index.build import BuildOptions, build_index
    from search.index.store import Index

    build_index(tmp_path / "index", BuildOptions(sources=[f"stackslike={fixtures_dir / 'latex' / 'stackslike'}"],
                                                 backend="torch", progress=False))
    latex_only = TestClient(make_api(Engine(Index.load(tmp_path / "index")), rate_limit=0))
    answer = latex_only.post("/search", json={"num_results": 4, "query": ["a ring", "a module"]})
    assert answer.status_code == 200 and answer.json() == [[], []]
    assert parse_leansearch(latex_only.post("/search", **leansearch_request("a ring.")).text) == []
