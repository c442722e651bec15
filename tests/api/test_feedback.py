"""`POST /api/v1/feedback`: votes checked like searches, stored before the answer, and a 4xx
(or a 503 when the database fails) whenever a vote is not stored."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from search.api.http import make_api
from search.engine.engine import Engine
from search.feedback.store import FeedbackStore

VOTE = {"session": "s-1", "query": "sine is bounded", "result_id": "extra:Real.sin_le_one", "vote": 1, "rank": 2}


@pytest.fixture()
def store(tmp_path: Path) -> FeedbackStore:
    return FeedbackStore(tmp_path / "votes.sqlite")


@pytest.fixture()
def voting(engine: Engine, store: FeedbackStore) -> TestClient:
    return TestClient(make_api(engine, feedback_store=store, rate_limit=0), raise_server_exceptions=False)


def test_a_saved_vote_is_in_the_store_and_a_second_one_replaces_it(
    voting: TestClient, store: FeedbackStore, engine: Engine
) -> None:
    answer = voting.post("/api/v1/feedback", json={**VOTE, "filters": {"source": "extra"}, "variant": "bm25"})
    assert answer.status_code == 200 and answer.json()["saved"] is True
    (stored,) = store.votes()
    assert (stored.session, stored.query, stored.result_id, stored.vote, stored.rank) == (
        "s-1", "sine is bounded", "extra:Real.sin_le_one", 1, 2)
    assert stored.filters == {"source": ["extra"]} and stored.variant == "bm25"
    assert stored.index_version == engine.index.version and answer.json()["vote"]["timestamp"] == stored.timestamp
    assert voting.post("/api/v1/feedback", json={**VOTE, "vote": -1, "query": "  sine is bounded "}).status_code == 200
    assert [(v.vote, v.query) for v in store.votes()] == [(-1, "sine is bounded")]


@pytest.mark.parametrize(
    "change, status, message",
    [
        ({"vote": 0}, 422, "+1 or -1"),
        ({"vote": True}, 422, "vote"),
        ({"vote": "1"}, 422, "vote"),
        ({"vote": 1.0}, 422, "vote"),
        ({"rank": 0}, 422, "rank"),
        ({"rank": 10**12}, 422, "rank"),
        ({"rank": "2"}, 422, "rank"),
        ({"session": ""}, 422, "session"),
        ({"session": "a b"}, 422, "session"),
        ({"session": "s" * 129}, 422, "session"),
        ({"session": None}, 422, "session"),
        ({"query": ""}, 400, "empty"),
        ({"query": " \t "}, 400, "empty"),
        ({"query": "nul\x00"}, 400, "control character U+0000"),
        ({"query": "x" * 100_000}, 422, "at most 2000"),
        ({"query": ["a list"]}, 422, "query"),
        ({"result_id": "extra:Real.sin_le_onee"}, 404, "no statement has the id"),
        ({"filters": {"colour": "red"}}, 400, "unknown filter 'colour'"),
        ({"filters": {"source": "stacks"}}, 400, "no record has source = 'stacks'"),
        ({"filters": ["source"]}, 422, "filters"),
        ({"variant": "best"}, 422, "variant"),
        ({"index_version": "mine"}, 422, "index_version"),
    ],
)
def test_bad_votes_are_refused_and_not_stored(
    voting: TestClient, store: FeedbackStore, change: dict, status: int, message: str
) -> None:
    response = voting.post("/api/v1/feedback", json={**VOTE, **change})
    assert response.status_code == status, response.text
    assert message in response.json()["error"]
    assert list(store.votes()) == []


def test_missing_fields_and_non_objects_are_422(voting: TestClient) -> None:
    for body in ({}, {"session": "s"}, [VOTE], "vote", None):
        response = voting.post("/api/v1/feedback", json=body)
        assert response.status_code == 422 and response.json()["error"], body


def test_a_vote_the_database_cannot_take_is_a_503_not_a_success(voting: TestClient, store: FeedbackStore) -> None:
    store.close()
    response = voting.post("/api/v1/feedback", json=VOTE)
    assert response.status_code == 503 and "not stored" in response.json()["error"]


def test_without_a_store_there_is_no_feedback_endpoint(client: TestClient) -> None:
    assert client.post("/api/v1/feedback", json=VOTE).status_code == 404
