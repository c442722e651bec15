"""`POST /api/v1/feedback`: votes only under sessions the server issued, on results it served to
that session, a bounded number per address and query; checked like searches, stored before
the answer, and a 4xx (or a 503 when the database fails) whenever a vote is not stored."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from search.api.http import make_api
from search.engine.engine import Engine
from search.feedback.export import export
from search.feedback.store import FeedbackStore

VOTE = {"session": "s-1", "query": "sine is bounded", "result_id": "extra:Real.sin_le_one", "vote": 1, "rank": 2}


@pytest.fixture()
def store(tmp_path: Path) -> FeedbackStore:
    return FeedbackStore(tmp_path / "votes.sqlite")


@pytest.fixture()
def voting(engine: Engine, store: FeedbackStore) -> TestClient:
    return TestClient(make_api(engine, feedback_store=store, rate_limit=0), raise_server_exceptions=False)


def _search(client: TestClient, query: str = "sine is bounded", **params: object) -> dict:
    answer = client.get("/api/v1/search", params={"q": query, "k": 5, **params})
    assert answer.status_code == 200, answer.text
    return answer.json()


def _vote_on(found: dict, position: int, **changes: object) -> dict:
    """A vote on the result at rank `position` of a search answer, as an API client writes it."""
    result = found["results"][position - 1]
    return {"session": found["session"], "query": found["query"], "result_id": result["id"], "vote": 1,
            "rank": result["rank"], "filters": found["filters"], "variant": found["variant"], **changes}


def test_an_api_client_votes_under_the_session_its_search_answer_carries(
    voting: TestClient, store: FeedbackStore, engine: Engine
) -> None:
    found = _search(voting, source="extra", variant="bm25")
    session = found["session"]
    assert session and found["results"]
    answer = voting.post("/api/v1/feedback", json=_vote_on(found, 2))
    assert answer.status_code == 200 and answer.json()["saved"] is True, answer.text
    (stored,) = store.votes()
    assert (stored.session, stored.query, stored.result_id, stored.vote, stored.rank) == (
        session, "sine is bounded", found["results"][1]["id"], 1, 2)
    assert stored.filters == {"source": ["extra"]} and stored.variant == "bm25" and stored.address
    assert stored.index_version == engine.index.version and answer.json()["vote"]["timestamp"] == stored.timestamp
    assert "address" not in answer.json()["vote"]
    again = voting.post("/api/v1/feedback", json=_vote_on(found, 2, vote=-1, query="  sine is bounded "))
    assert again.status_code == 200
    assert [(v.vote, v.query) for v in store.votes()] == [(-1, "sine is bounded")]


def test_a_search_echoes_a_valid_session_and_replaces_any_other(voting: TestClient) -> None:
    first = _search(voting)["session"]
    assert _search(voting, session=first)["session"] == first
    post = voting.post("/api/v1/search", json={"query": "sine", "session": first})
    assert post.status_code == 200 and post.json()["session"] == first
    forged = first[:-1] + ("A" if first[-1] != "A" else "B")
    assert _search(voting, session=forged)["session"] not in (forged, first)
    assert _search(voting, session="made-up")["session"] != "made-up"
    assert voting.get("/api/v1/search", params={"q": "sine", "session": "a b"}).status_code == 422


def test_invented_sessions_cannot_vote(voting: TestClient, store: FeedbackStore) -> None:
    """Twenty made-up sessions voting mul_comm relevant to another query: all refused."""
    for n in range(20):
        body = {"session": f"attacker-{n}", "query": "fundamental theorem of calculus",
                "result_id": "mathlib:mul_comm", "vote": 1, "rank": 1}
        answer = voting.post("/api/v1/feedback", json=body)
        assert answer.status_code == 403 and "not one this server issued" in answer.json()["error"]
    assert list(store.votes()) == [] and export(store.votes(), "qrels") == []


@pytest.mark.parametrize(
    "change",
    [{"rank": 1}, {"result_id": "mathlib:mul_comm", "rank": 1}, {"query": "sine is bounded below"},
     {"filters": {"source": "mathlib"}}, {"variant": "dense"}],
    ids=["other rank", "result not served", "other query", "other filters", "other variant"],
)
def test_only_a_result_served_at_that_rank_for_that_search_can_be_voted_on(
    voting: TestClient, store: FeedbackStore, change: dict
) -> None:
    found = _search(voting)
    assert found["results"][1]["id"] != "mathlib:mul_comm" or "result_id" not in change
    answer = voting.post("/api/v1/feedback", json=_vote_on(found, 2, **change))
    assert answer.status_code == 409 and "search again" in answer.json()["error"], answer.text
    assert list(store.votes()) == []


def test_a_session_cannot_vote_on_what_was_served_to_another(voting: TestClient, store: FeedbackStore) -> None:
    found = _search(voting)
    other = _search(voting, query="something else")["session"]
    answer = voting.post("/api/v1/feedback", json=_vote_on(found, 1, session=other))
    assert answer.status_code == 409 and list(store.votes()) == []


def test_served_lists_are_forgotten_after_their_age(voting: TestClient, store: FeedbackStore) -> None:
    ballot = voting.app.state.ballot
    found = _search(voting)
    ballot.served_results.max_age = 0.05
    time.sleep(0.1)
    assert voting.post("/api/v1/feedback", json=_vote_on(found, 1)).status_code == 409


def test_an_address_has_a_bounded_number_of_votes_per_query(voting: TestClient, store: FeedbackStore) -> None:
    voting.app.state.ballot.per_address = 3
    sessions = [_search(voting) for _ in range(4)]  # four sessions, one address (the test client)
    for found in sessions[:3]:
        assert voting.post("/api/v1/feedback", json=_vote_on(found, 1)).status_code == 200
    refused = voting.post("/api/v1/feedback", json=_vote_on(sessions[3], 1))
    assert refused.status_code == 429 and "at most 3" in refused.json()["error"]
    assert voting.post("/api/v1/feedback", json=_vote_on(sessions[0], 1, vote=-1)).status_code == 200
    assert len(list(store.votes())) == 3


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
    found = _search(voting)
    store.close()
    response = voting.post("/api/v1/feedback", json=_vote_on(found, 1))
    assert response.status_code == 503 and "not stored" in response.json()["error"]


def test_without_a_store_there_is_no_feedback_endpoint_and_no_session(client: TestClient) -> None:
    assert client.post("/api/v1/feedback", json=VOTE).status_code == 404
    assert _search(client)["session"] is None
