"""`GET /json?q=` as LeanSearchClient's `#loogle` uses it, and the query forms it answers."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.api.lean_client import USER_AGENT, loogle_path, parse_loogle


def loogle(client: TestClient, query: str, num_results: int = 6):  # type: ignore[no-untyped-def]
    path = loogle_path(query)
    assert path is not None
    response = client.get(f"/json{path}", headers={"user-agent": USER_AGENT})
    return response, parse_loogle(response.text, num_results)


def test_constant_itself_then_statement_uses_then_proof_uses(client: TestClient) -> None:
    response, (hits, error, _) = loogle(client, "Real.sin", 10)
    assert response.status_code == 200 and error is None
    names = [h.name for h in hits]
    assert names[0] == "Real.sin"
    # cos_le_one refers to Real.sin only in its proof: it matches, after every statement use.
    assert set(names[1:4]) == {"Real.sin_sq_add_cos_sq", "Real.sin_le_one", "Real.sin_pi"}
    assert names[4:] == ["Real.cos_le_one"]
    assert hits[0].type == "∀ (x : ℝ), ℝ" and hits[0].doc == "The real sine function."
    body = response.json()
    assert body["count"] == 5 and body["header"] == "Found 5 declarations mentioning Real.sin."
    assert {"name", "type", "module", "doc"} <= set(body["hits"][0])


def test_comma_separated_filters_all_hold(client: TestClient) -> None:
    _, (hits, _, _) = loogle(client, 'Real.sin, "SQ"')
    assert [h.name for h in hits] == ["Real.sin_sq_add_cos_sq"]
    _, (hits, _, _) = loogle(client, "Real.sin, Real.cos")
    assert [h.name for h in hits] == ["Real.sin_sq_add_cos_sq", "Real.cos_le_one"]


def test_substring_and_a_name_outside_the_index(client: TestClient) -> None:
    _, (hits, _, _) = loogle(client, '"comm"', 20)
    assert {h.name for h in hits} == {"mul_comm", "mul_left_comm", "add_comm", "add_left_comm"}
    # Lean core's Nat.succ is no record: the statements mentioning it match, `succ` written
    # inside `namespace Nat` included.
    _, (hits, _, _) = loogle(client, "Nat.succ")
    assert [h.name for h in hits] == ["Nat.lt_succ_self", "Nat.succ_le_succ"]


def test_unknown_names_and_patterns_answer_error_with_suggestions(client: TestClient) -> None:
    response, (hits, error, suggestions) = loogle(client, "sin")
    assert response.status_code == 200  # as Loogle answers it
    assert error == "Unknown identifier 'sin'" and suggestions is not None
    assert suggestions[0] == "Real.sin"
    _, (_, error, suggestions) = loogle(client, "Real.sinn")
    assert error == "Unknown identifier 'Real.sinn'" and suggestions and "Real.sin" in suggestions
    # In a pattern too, each suggestion is the query with the unknown name replaced.
    _, (_, error, suggestions) = loogle(client, "cos ?a * Real.sqrt ?a")
    assert error == "Unknown identifier 'cos'" and suggestions == ["Real.cos ?a * Real.sqrt ?a"]
    _, (hits, error, _) = loogle(client, "⊢ Real.sin _ ≤ 1")
    assert error is None and [h.name for h in hits] == ["Real.sin_le_one"]


def test_malformed_requests_are_400_with_loogle_fields(client: TestClient) -> None:
    for response in (client.get("/json"), client.get("/json", params={"q": "x" * 5000})):
        assert 400 <= response.status_code < 500
        body = response.json()
        assert body["error"] and body["suggestions"] == []


def test_an_empty_query_is_answered_with_an_empty_object_as_loogle_does(client: TestClient) -> None:
    for q in ("", "  "):
        response = client.get("/json", params={"q": q})
        assert response.status_code == 200 and response.json() == {}
