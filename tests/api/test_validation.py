"""Bad input of every kind is a 4xx with a message; an unexpected failure is a JSON 500."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from search.api.http import make_api
from search.engine.engine import Engine

BAD_LEANSEARCH_BODIES = [
    {"query": [], "num_results": 6},  # no query string
    {"query": [""], "num_results": 6},  # empty
    {"query": ["   "], "num_results": 6},  # blank
    {"query": ["ok"], "num_results": 0},
    {"query": ["ok"], "num_results": -3},
    {"query": ["ok"], "num_results": 10**9},
    {"query": ["ok"], "num_results": "six"},  # a string, not a number
    {"query": ["ok"], "num_results": "0"},
    {"query": ["ok"], "num_results": "151"},  # LeanSearch's own bound is 150
    {"query": ["ok"], "num_results": "2.5"},
    {"query": ["ok"], "num_results": True},
    {"query": ["ok"], "num_results": 2.5},
    {"query": "ok", "num_results": 6},  # a string, not a list
    {"query": [1, 2], "num_results": 6},
    {"query": ["x" * 2001]},
    {"query": ["ok"] * 11},
    {"query": ["nul\x00byte"]},
    {"num_results": 6},
]


@pytest.mark.parametrize("body", BAD_LEANSEARCH_BODIES)
def test_bad_leansearch_bodies_are_4xx_with_a_message(client: TestClient, body: dict) -> None:
    response = client.post("/search", json=body)
    assert 400 <= response.status_code < 500, response.text
    assert isinstance(response.json()["error"], str) and response.json()["error"]


def test_malformed_json_is_422(client: TestClient) -> None:
    response = client.post("/search", content=b'{"query": ["unclosed"', headers={"content-type": "application/json"})
    assert response.status_code == 422 and "json" in response.json()["error"].lower()


@pytest.mark.parametrize(
    "path, params",
    [
        ("/api/v1/search", {"q": ""}),
        ("/api/v1/search", {"q": "ring", "k": 0}),
        ("/api/v1/search", {"q": "ring", "k": 101}),
        ("/api/v1/search", {"q": "ring", "k": "many"}),
        ("/api/v1/search", {"q": "ring", "variant": "best"}),
        ("/api/v1/search", {"q": "ring", "kind": "theorm"}),
        ("/api/v1/search", {"q": "ring", "filter": "nosuchkey:1"}),
        ("/api/v1/search", {"q": "a\x07b"}),
        ("/api/v1/dependents/extra:Real.sin", {"limit": 0}),
        ("/api/search", {"query": "⊢ " + "x" * 3000}),
        ("/api/search", {"query": "⊢ 1 ≤ 0", "results": -1}),
        ("/json", {"q": "\x00"}),
    ],
)
def test_bad_query_parameters_are_4xx_with_a_message(client: TestClient, path: str, params: dict) -> None:
    response = client.get(path, params=params)
    assert 400 <= response.status_code < 500, response.text
    assert response.json()["error"]


def test_post_search_rejects_wrong_types_and_unknown_fields(client: TestClient) -> None:
    for body in ({"query": "ring", "k": True}, {"query": "ring", "filters": {"kind": {"a": 1}}},
                 {"query": "ring", "limit": 3}, {"query": ["ring"]}):
        response = client.post("/api/v1/search", json=body)
        assert 400 <= response.status_code < 500, (body, response.text)
        assert response.json()["error"]


def test_unexpected_failure_is_a_logged_json_500(
    engine: Engine, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    broken = Engine(engine.index)
    client = TestClient(make_api(broken), raise_server_exceptions=False)

    def fail(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom: secret internals")

    monkeypatch.setattr(broken, "search", fail)
    response = client.post("/search", json={"query": ["anything."]})
    assert response.status_code == 500
    assert response.json() == {"error": "internal error; it has been logged"}
    assert "boom" not in response.text and "Traceback" not in response.text
    assert any("POST /search" in r.getMessage() and r.exc_info for r in caplog.records)
