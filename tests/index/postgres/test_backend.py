"""The engine over the fixture index loaded into PostgreSQL ranks as it does over the index
directory, with the same scores: whether pg_textsearch finds the lexical candidates (re-scored
with BM25+) or BM25+ stays in process. Dense similarities from pgvector equal FAISS's."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from fastapi.testclient import TestClient

from search.api.http import make_api
from search.engine import variants
from search.engine.engine import Engine
from search.index.build import BuildOptions, build_index
from search.index.postgres.load import load_postgres
from search.index.store import Index, open_index
from tests.live_server import ONE_ADDRESS, app_process
from tests.reliability.load import load

pytestmark = pytest.mark.postgres

QUERIES = ("commutative multiplication", "prime numbers", "Nat.succ_le_succ", "add_comm", "successor le",
           "card pos finset", "semigroup", "color", "mul_comm", '"comm"', "a * b = b * a")


@pytest.fixture(scope="module")
def embedded(small_index: Path) -> Engine:
    return Engine(Index.load(small_index))


@pytest.fixture(scope="module")
def engines(loaded: dict[str, str]) -> dict[str, Engine]:
    return {name: Engine(open_index(spec)) for name, spec in loaded.items()}


def ids(engine: Engine, query: str, variant: str, k: int = 5, **filters: object) -> list[str]:
    return [r.statement.id for r in engine.search(query, k=k, variant=variant, filters=filters or None)]


@pytest.mark.parametrize("load", ["textsearch", "process"])
@pytest.mark.parametrize("variant", sorted(variants.VARIANTS))
def test_every_variant_ranks_as_over_the_index_directory(engines: dict[str, Engine], embedded: Engine,
                                                         variant: str, load: str) -> None:
    for query in QUERIES:
        got = engines[load].search(query, k=5, variant=variant)
        want = embedded.search(query, k=5, variant=variant)
        assert [r.statement.id for r in got] == [r.statement.id for r in want], query
        np.testing.assert_allclose([r.score for r in got], [r.score for r in want], rtol=1e-4, atol=1e-6)
        ranks = [[{name: found["rank"] for name, found in r.signals.items()} for r in results] for results in (got, want)]
        assert ranks[0] == ranks[1], query


def test_pg_textsearch_candidates_get_the_directory_bm25plus(engines: dict[str, Engine], embedded: Engine) -> None:
    for tokens in (["mul", "comm"], ["succ", "le"], ["card", "po", "finset", "zzz"], ["zzz"]):
        for signal, reference in (("lexical", embedded.index.lexical), ("names", embedded.index.names)):
            got = getattr(engines["textsearch"].index, signal).rank(tokens, 20, None)
            want = reference.rank(tokens, 20, None)
            assert got.positions.tolist() == want.positions.tolist(), (signal, tokens)
            np.testing.assert_allclose(got.scores, want.scores, rtol=1e-5)


def test_dense_similarities_equal_faiss(engines: dict[str, Engine], embedded: Engine) -> None:
    vector = embedded.index.embedder.encode(["commutative multiplication"])[0]
    want_positions, want_scores = embedded.index.dense.rank(vector, 10, None)
    for engine in engines.values():  # exact and binary-quantised HNSW
        positions, scores = engine.index.dense.rank(vector, 10, None)
        assert positions.tolist() == want_positions.tolist()
        np.testing.assert_allclose(scores, want_scores, atol=1e-5)


def test_pg_textsearch_scores_candidates_of_other_signals(engines: dict[str, Engine]) -> None:
    """`score_of` (the LeanExplore fusion's BM25 of dense candidates) agrees with the ranked
    scores, and is 0 for records without the query's words."""
    signal = engines["textsearch"].index.lexical
    hits = signal.rank(["mul", "comm"], 20, None)
    assert len(hits.positions) > 0 and (hits.scores > 0).all()
    np.testing.assert_allclose(hits.score_of(hits.positions[::-1]), hits.scores[::-1], rtol=1e-6)
    others = np.setdiff1d(np.arange(len(engines["textsearch"].index.records)), hits.positions)
    assert not hits.score_of(others).any()


def test_filters_match_the_index_directory(engines: dict[str, Engine], embedded: Engine) -> None:
    for engine in engines.values():
        for filters in ({"kind": "theorem"}, {"kind": ["def", "class"]}, {"source": "nowhere"}):
            for query in ("comm", "helper", "semigroup"):
                assert set(ids(engine, query, "default", **filters)) == set(ids(embedded, query, "default", **filters))


def test_metadata_filters_become_sql(postgres: str, tmp_path_factory: pytest.TempPathFactory,
                                     fixtures_dir: Path) -> None:
    """A LaTeX book's chapters are metadata (`meta`), filtered by SQL on its JSON text."""
    out = tmp_path_factory.mktemp("mixed") / "index"
    sources = [f"mathlib={fixtures_dir / 'jsonl' / 'mathlib_small.jsonl'}",
               f"stackslike={fixtures_dir / 'latex' / 'stackslike'}"]
    build_index(out, BuildOptions(sources=sources, backend="torch", progress=False))
    load_postgres(out, postgres, schema="mixed")
    served, local = Engine(open_index(f"{postgres}#mixed")), Engine(Index.load(out))
    for variant in ("bm25", "dense", "default"):
        for chapter, kinds in (("Beta Things", None), ("Alpha Things", ["lemma", "remark"])):
            filters = {"chapter": chapter, "kind": kinds}
            got = served.search("things lemma", k=5, variant=variant, filters=filters)
            assert got and {r.statement.meta["chapter"] for r in got} == {chapter}
            assert {r.statement.id for r in got} == set(ids(local, "things lemma", variant, **filters))


def test_the_app_serves_a_postgres_index(loaded: dict[str, str], small_index: Path, tmp_path: Path) -> None:
    """`python app.py --index postgresql://...`: the app's loader, the page and the native API."""
    from app import make_app

    app = make_app(loaded["textsearch"], feedback_db=tmp_path / "feedback.sqlite")
    reference = TestClient(make_api(Engine(Index.load(small_index)), rate_limit=0))
    with TestClient(app) as client:
        for params in ({"q": "commutative multiplication", "k": 5}, {"q": "mul_comm", "kind": "theorem"}):
            answer = client.get("/api/v1/search", params=params)
            assert answer.status_code == 200, answer.text
            want = reference.get("/api/v1/search", params=params).json()["results"]
            got = answer.json()["results"]
            assert got[0]["id"] == want[0]["id"]
            assert answer.json()["index_version"] == reference.get("/api/v1/search", params=params).json()["index_version"]
        for pattern in ("?a * ?b = ?b * ?a", "Finset.card"):  # Loogle: the pattern index read from the schema
            answer = client.get("/json", params={"q": pattern})
            assert answer.status_code == 200 and answer.json().get("hits"), answer.text
            assert answer.json() == reference.get("/json", params={"q": pattern}).json()
        assert client.get("/").status_code == 200


@pytest.mark.parametrize("load_name", ["textsearch", "process"])
def test_the_app_over_postgres_takes_a_mixed_load_with_no_failure(loaded: dict[str, str], load_name: str,
                                                                   tmp_path: Path) -> None:
    """tests/reliability/load.py's clients (the page, the three imitated APIs, native searches and
    votes) against `python app.py --index postgresql://...`, with BM25 in SQL and in process."""
    with app_process(loaded[load_name], tmp_path / "votes.sqlite", tmp_path / "app.log",
                     ONE_ADDRESS) as app:
        report = load(app, clients=8, seconds=4, warmup=1)
    assert report.failed == 0, report.failures
    assert set(report.by_kind) >= {"native", "leansearch", "loogle", "statesearch", "page", "vote"}
    assert report.by_kind["vote"] > 0
