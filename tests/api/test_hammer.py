"""`POST /hammer/retrieve` as the premise server answers it (lean-lsp-mcp's own request is run in
test_lean_lsp_mcp.py)."""

from __future__ import annotations

from fastapi.testclient import TestClient

GOAL = "a b : M\n⊢ a * b = b * a"


def test_premises_for_a_goal_closing_lemma_first(pattern_client: TestClient) -> None:
    response = pattern_client.post("/hammer/retrieve", json={"state": GOAL, "new_premises": [], "k": 4})
    assert response.status_code == 200
    premises = response.json()
    assert [p["name"] for p in premises][0] == "mul_comm" and len(premises) == 4
    assert premises[0]["decl"].startswith("theorem mul_comm") and premises[0]["score"] > premises[-1]["score"]


def test_k_as_the_premise_server_reads_it(pattern_client: TestClient) -> None:
    assert pattern_client.post("/hammer/retrieve", json={"state": GOAL, "k": 0}).json() == []
    assert pattern_client.post("/hammer/retrieve", json={"state": GOAL, "k": -5}).json() == []
    many = pattern_client.post("/hammer/retrieve", json={"state": GOAL, "k": 10_000})
    assert many.status_code == 200 and 1 <= len(many.json()) <= 100
    assert len(pattern_client.post("/hammer/retrieve", json={"state": GOAL}).json()) >= 1  # k defaults to 32


def test_a_user_premise_replaces_the_indexed_one_of_its_name(pattern_client: TestClient) -> None:
    body = {"state": GOAL, "k": 3, "new_premises": [{"name": "mul_comm", "decl": "theorem mul_comm : True"}],
            "imported_modules": ["Mathlib"], "local_premises": []}
    names = [p["name"] for p in pattern_client.post("/hammer/retrieve", json=body).json()]
    assert "mul_comm" not in names and len(names) == 3


def test_bad_states_are_errors_with_a_message(pattern_client: TestClient) -> None:
    for body in ({"state": "a * b = b * a", "k": 3}, {"state": "", "k": 3}, {"k": 3},
                 {"state": GOAL, "k": "many"}, {"state": GOAL, "new_premises": "mul_comm"}):
        response = pattern_client.post("/hammer/retrieve", json=body)
        assert 400 <= response.status_code < 500 and response.json()["error"], body
