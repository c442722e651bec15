"""`GET /api/search` as LeanSearchClient's `#statesearch` uses it, and how a goal is read."""

from __future__ import annotations

import math

import pytest
from fastapi.testclient import TestClient

from search.api.service import SearchService
from search.api.statesearch import THEOREM_KINDS, StateSearch, goal_query, parse_goal
from search.engine import goals
from search.engine.engine import Engine
from tests.api.conftest import expected_names
from tests.api.lean_client import USER_AGENT, LeanClientError, parse_statesearch, statesearch_path

STATE = "x : ℝ\n⊢ Real.sin x ≤ 1"


def test_statesearchclient_request_and_parse(client: TestClient, engine: Engine) -> None:
    response = client.get(f"/api/search{statesearch_path(STATE, 3)}", headers={"user-agent": USER_AGENT})
    assert response.status_code == 200
    results = parse_statesearch(response.text)
    # Theorem-like declarations only: Real.sin itself (a def) cannot close a goal.
    assert [r.name for r in results] == expected_names(engine, "Real.sin x ≤ 1; ℝ", 3, THEOREM_KINDS)
    assert {r.kind for r in results} <= {"theorem", "lemma"}
    hit = next(r for r in results if r.name == "Real.sin_le_one")
    assert hit.type == "∀ (x : ℝ), sin x ≤ 1"
    hit = response.json()[0]
    assert set(hit) >= {"name", "formal_type", "module", "rev"}


def test_query_without_turnstile_is_400_with_schema(client: TestClient) -> None:
    response = client.get(f"/api/search{statesearch_path('Real.sin x ≤ 1')}")
    assert response.status_code == 400
    with pytest.raises(LeanClientError, match="error: .*⊢.*\ndescription: A goal state"):
        parse_statesearch(response.text)
    response = client.get(f"/api/search{statesearch_path(STATE, 0)}")
    assert response.status_code == 422
    with pytest.raises(LeanClientError, match="results"):
        parse_statesearch(response.text)


def test_goal_state_parsing() -> None:
    state = parse_goal(
        "case h\nx y z : ℝ\nh : x ≤\n  y\nhz : z = 0\ninst✝ : Fact (0 < 1)\n⊢ Real.sin x ≤\n    Real.sin y\nother : ℕ"
    )
    assert state is not None
    assert state.hypotheses == [
        (["x", "y", "z"], "ℝ"), (["h"], "x ≤ y"), (["hz"], "z = 0"), (["inst✝"], "Fact (0 < 1)"),
    ]
    assert state.goal == "Real.sin x ≤ Real.sin y"
    assert parse_goal("no goal here") is None
    assert parse_goal("⊢ 1 ≤ 0") is not None


def test_query_is_the_goal_then_the_hypotheses_but_instances_and_types() -> None:
    state = parse_goal("α : Type*\nx y z : ℝ\ninst✝ : Fact (0 < 1)\nh : x ≤ y\nhz : z = 0\n⊢ Real.sin x ≤ Real.sin y")
    assert state is not None
    assert goal_query(state) == "Real.sin x ≤ Real.sin y; ℝ; x ≤ y; z = 0"
    # The earlier rule, kept for `python -m eval goals`: those sharing a variable with the goal.
    assert goal_query(state, "sharing") == "Real.sin x ≤ Real.sin y; ℝ; x ≤ y"


def test_the_goals_constants_reorder_the_engines_hits(pattern_engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    # In 25 declarations every constant is common: keep them all.
    monkeypatch.setattr(goals, "MAX_SHARE", 1.0)
    service = SearchService.from_engine(pattern_engine)
    states = StateSearch(service)
    assert states.goals is not None
    state = parse_goal("f g : ℕ → ℝ\nh : ∀ i, f i < g i\n⊢ ∑' i, f i < ∑' i, g i")
    assert state is not None
    # `∑'` is `tsum` and the strict order `LT.lt`; `HMul.hMul`, in no hypothesis, is left out.
    weights = states.goals.constants([t for _, t in state.hypotheses], state.goal).weights
    assert {"tsum", "LT.lt"} <= set(weights) and "HMul.hMul" not in weights
    # The goal's constants weigh double: the rarer, the more.
    size = len(pattern_engine.index.pagerank)
    df = len(pattern_engine.index.patterns.mentioning("c:tsum"))
    assert weights["tsum"] == pytest.approx(goals.GOAL_WEIGHT * math.log(size / df))
    plain = states.search(state, 5, constants=False)
    reordered = states.search(state, 5)
    assert {h.statement.name for h in reordered} <= {h.statement.name for h in states.search(state, 100, constants=False)}
    # The theorems mentioning `tsum` come first, in the engine's order among themselves.
    tsum = set(pattern_engine.index.patterns.mentioning("c:tsum").tolist())
    mentions = [pattern_engine.index.position[h.statement.id] in tsum for h in reordered]
    assert mentions == sorted(mentions, reverse=True) and mentions[0]
    assert [h.rank for h in reordered] == list(range(1, len(reordered) + 1))
    assert len(plain) == len(reordered)
