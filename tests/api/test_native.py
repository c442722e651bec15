"""The native API: filters, variants, whole records, both directions of the dependency graph."""

from __future__ import annotations

import dataclasses
from urllib.parse import quote

import numpy as np
from fastapi import FastAPI
from fastapi.testclient import TestClient

from search.engine.graph import DependencyGraph
from search.engine.engine import Engine
from search.index.store import Index
from search.record import Statement


def test_get_search_returns_engine_results_with_every_field(client: TestClient, engine: Engine) -> None:
    response = client.get("/api/v1/search", params={"q": "lemma", "source": "stackslike", "k": 3, "variant": "bm25"})
    assert response.status_code == 200
    body = response.json()
    expected = engine.search("lemma", k=3, filters={"source": ["stackslike"]}, variant="bm25")
    assert [r["id"] for r in body["results"]] == [r.statement.id for r in expected]
    assert body["results"][0] == expected[0].to_dict()
    assert body["filters"] == {"source": ["stackslike"]} and body["count"] == 3
    assert body["index_version"] == engine.index.version


def test_post_search_with_metadata_filters(client: TestClient) -> None:
    body = {"query": "lemma", "k": 5, "filters": {"chapter": "Beta Things", "environment": ["lemma", "theorem"]}}
    results = client.post("/api/v1/search", json=body).json()["results"]
    assert {r["id"] for r in results} == {"stackslike:00A1", "stackslike:00A2"}
    get = client.get("/api/v1/search", params=[("q", "lemma"), ("filter", "chapter:Beta Things")]).json()
    assert {r["id"] for r in get["results"]} == {"stackslike:00A1", "stackslike:00A2"}


def test_unknown_filters_are_refused_with_suggestions(client: TestClient) -> None:
    response = client.get("/api/v1/search", params={"q": "ring", "source": "stacks"})
    assert response.status_code == 400
    assert response.json() == {"error": "no record has source = 'stacks'", "suggestions": ["stackslike"]}
    response = client.post("/api/v1/search", json={"query": "ring", "filters": {"chaptr": "Beta Things"}})
    assert response.status_code == 400 and response.json()["suggestions"][0] == "chapter"
    response = client.get("/api/v1/search", params={"q": "ring", "filter": "chapter"})
    assert response.status_code == 400 and "key:value" in response.json()["error"]


def test_statement_by_id_has_every_record_field(client: TestClient, api_index: Index) -> None:
    response = client.get(f"/api/v1/statement/{quote('extra:Real.sin', safe='')}")
    assert response.status_code == 200
    record = response.json()
    assert set(record) >= {f.name for f in dataclasses.fields(Statement)}
    assert record["id"] == "extra:Real.sin" and record["dependents_count"] == 4
    missing = client.get("/api/v1/statement/extra:Real.sinn")
    assert missing.status_code == 404
    assert missing.json()["suggestions"][0] == "extra:Real.sin"


def test_dependencies_and_dependents(client: TestClient) -> None:
    deps = client.get("/api/v1/dependencies/extra:Real.cos_le_one").json()
    assert {r["id"] for r in deps["results"]} == {"extra:Real.sin", "extra:Real.cos", "extra:Real.sin_sq_add_cos_sq"}
    users = client.get("/api/v1/dependents/extra:Real.sin", params={"limit": 2}).json()
    assert users["count"] == 4 and len(users["results"]) == 2
    assert set(users["results"][0]) == {"id", "name", "kind", "source", "statement", "doc", "url"}


def test_reverse_map_agrees_with_the_index_counts(api_index: Index, api: FastAPI) -> None:
    graph = DependencyGraph.from_index(api_index)
    np.testing.assert_array_equal(api.state.service.graph.users, graph.users)
    counts = np.diff(graph.offsets)
    np.testing.assert_array_equal(counts, api_index.dependents)
    for position, record in enumerate(api_index.records):
        for user in graph.dependents(position):
            assert record.id in api_index.records[user].deps


def test_filters_index_and_openapi_describe_the_api(client: TestClient, api: FastAPI) -> None:
    filters = client.get("/api/v1/filters").json()
    assert filters["source"]["values"] == ["extra", "mathlib", "stackslike"]
    assert "modifiers" not in filters  # list-valued metadata cannot be filtered on
    assert client.get("/api/v1/index").json()["limits"] == {"max_results": 100, "max_query_chars": 2000}
    schema = client.get("/openapi.json").json()
    for path in ("/search", "/json", "/api/search", "/api/v1/search", "/api/v1/statement/{record_id}",
                 "/api/v1/dependencies/{record_id}", "/api/v1/dependents/{record_id}"):
        operations = schema["paths"][path]
        assert all(op.get("summary") for op in operations.values()), path
    params = {p["name"]: p for p in schema["paths"]["/api/v1/search"]["get"]["parameters"]}
    assert params["k"]["schema"]["maximum"] == 100
    assert client.get("/docs").status_code == 200
