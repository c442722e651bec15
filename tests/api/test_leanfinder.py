"""`POST /leanfinder` as lean-lsp-mcp's `lean_leanfinder` posts it (the tool itself is run in
test_lean_lsp_mcp.py): statements in words, proof states, versions, errors."""

from __future__ import annotations

from fastapi.testclient import TestClient

from search.api.formal import informal_text
from search.engine.engine import Engine
from tests.api.conftest import expected_names

FIELDS = {"formal_name", "informal_name", "kind", "type", "informal_description", "path"}


def test_words_are_searched_over_every_lean_declaration(client: TestClient, engine: Engine) -> None:
    query = "The sine of a real number is at most one."
    response = client.post("/leanfinder", json={"inputs": query, "top_k": 4, "version": "v4.28.0"})
    assert response.status_code == 200
    results = response.json()["results"]
    assert [r["formal_name"] for r in results] == expected_names(engine, query, 4)
    hit = next(r for r in results if r["formal_name"] == "Real.sin_le_one")
    assert FIELDS <= set(hit) and all(isinstance(hit[f], str) for f in FIELDS)  # the tool wants strings
    assert hit["path"] == "Mathlib/Analysis/Trig" and hit["type"] == "∀ (x : ℝ), sin x ≤ 1"
    # the docstring, then the statement said in words (search/corpus/lean/informaliser.py)
    assert hit["informal_description"] == ("The sine of a real number is at most one.\n\n"
                                           "For a real number x, the sine of x is at most 1.")
    assert hit["informal_name"] == "" and hit["kind"] == "theorem"


def test_informal_fields_come_from_the_one_informal_text_function(client: TestClient, engine: Engine) -> None:
    results = client.post("/leanfinder", json={"inputs": "Semigroup", "top_k": 5}).json()["results"]
    for hit in results:
        record = engine.index.records[engine.index.position[hit["id"]]]
        words = informal_text(record)
        assert (hit["informal_name"], hit["informal_description"]) == (words.name, words.description)
    leansearch = client.post("/search", json={"query": ["Semigroup"], "num_results": 5}).json()[0]
    for hit in leansearch:
        record = engine.index.records[engine.index.position[hit["result"]["id"]]]
        assert hit["result"]["informal_description"] == (informal_text(record).description or None)


def test_a_proof_state_is_answered_as_a_goal(pattern_client: TestClient) -> None:
    answer = pattern_client.post("/leanfinder", json={"inputs": "a b : M\n⊢ a * b = b * a", "top_k": 3}).json()
    assert answer["results"][0]["formal_name"] == "mul_comm"
    assert {r["kind"] for r in answer["results"]} <= {"theorem", "lemma"}


def test_version_picks_an_index_or_says_the_default_answered(client: TestClient) -> None:
    known = client.post("/leanfinder", json={"inputs": "sine", "top_k": 1, "version": "default"})
    assert known.headers["x-index-rev"] == "matched" and known.json()["notice"] is None
    unknown = client.post("/leanfinder", json={"inputs": "sine", "top_k": 1, "version": "v4.28.0"})
    assert unknown.status_code == 200 and unknown.headers["x-index-rev"] == "default"
    assert "'v4.28.0'" in unknown.json()["notice"] and unknown.json()["index"] == "default"
    assert client.post("/leanfinder", json={"inputs": "sine", "top_k": "2"}).status_code == 200


def test_bad_requests_are_errors_with_a_message(client: TestClient) -> None:
    for body in ({"inputs": "", "top_k": 2}, {"top_k": 2}, {"inputs": "ring", "top_k": 0},
                 {"inputs": "ring", "top_k": 1000}, {"inputs": "ring", "top_k": 2.5}, {"inputs": ["ring"]},
                 {"inputs": "nul\x00"}):
        response = client.post("/leanfinder", json=body)
        assert 400 <= response.status_code < 500 and response.json()["error"], body
