"""A ranking variant registered at run time is one entry that every door picks up: the CLI,
the native API (and the index description it serves) and the evaluation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

import pytest
from fastapi.testclient import TestClient

from eval.__main__ import main as eval_main
from search.__main__ import main as search_main
from search.api.http import make_api
from search.engine import variants
from search.engine.engine import Engine
from search.engine.ranking import Fusion, Ranking
from search.index.store import Index

QUERY = "sine of a real number"


@pytest.fixture
def names_first() -> Iterator[Ranking]:
    ranking = Ranking(Fusion.RRF, signals=("names", "bm25"), weights={"names": 2.0}, rrf_k=5,
                      description="names index first (a test variant)")
    variants.register("names_first", ranking)
    yield ranking
    del variants.VARIANTS["names_first"]


def test_a_variant_registered_at_run_time_runs_through_cli_api_and_eval(
    names_first: Ranking, api_index: Index, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = [r.statement.id for r in Engine(api_index).search(QUERY, k=3, variant=names_first)]
    assert len(expected) == 3

    argv = ["query", "--index", str(api_index.directory), "--variant", "names_first", "-k", "3", "--json", QUERY]
    assert search_main(argv) == 0
    assert [r["id"] for r in json.loads(capsys.readouterr().out)] == expected

    client = TestClient(make_api(Engine(api_index), rate_limit=0))
    answer = client.get("/api/v1/search", params={"q": QUERY, "k": 3, "variant": "names_first"})
    assert answer.status_code == 200 and [r["id"] for r in answer.json()["results"]] == expected
    posted = client.post("/api/v1/search", json={"query": QUERY, "k": 3, "variant": "names_first"})
    assert [r["id"] for r in posted.json()["results"]] == expected
    assert client.get("/api/v1/index").json()["variants"]["names_first"] == names_first.description

    queries = tmp_path / "queries.jsonl"
    queries.write_text(json.dumps({"query": QUERY, "relevant": [expected[0]]}) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    argv = ["retrieval", "--index", str(api_index.directory), "--queries", str(queries),
            "--variants", "names_first,bm25", "--out", str(out)]
    assert eval_main(argv) == 0
    report = json.loads((out / "queries.json").read_text(encoding="utf-8"))
    assert report["rankings"]["names_first"] == names_first.to_dict()
    assert report["queries"][0]["results"]["names_first"]["rank"] == 1
    assert {p.suffix for p in out.iterdir()} == {".md", ".json", ".png"}


def test_an_unregistered_variant_is_refused_at_every_door(api_index: Index, capsys: pytest.CaptureFixture[str]) -> None:
    assert search_main(["query", "--index", str(api_index.directory), "--variant", "names_first", "ring"]) == 2
    assert "unknown ranking variant 'names_first'" in capsys.readouterr().err
    client = TestClient(make_api(Engine(api_index), rate_limit=0))
    refused = client.get("/api/v1/search", params={"q": "ring", "variant": "names_first"})
    assert 400 <= refused.status_code < 500 and "unknown ranking variant 'names_first'" in refused.json()["error"]
