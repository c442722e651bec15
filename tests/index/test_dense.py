"""Dense search: exact and HNSW agree on small data, filters hold, best view per record."""

from pathlib import Path

import numpy as np
import pytest

from search import config
from search.index.dense import DenseIndex


def _vectors(n: int, dimension: int = 16, seed: int = 0) -> np.ndarray:
    x = np.random.default_rng(seed).normal(size=(n, dimension)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


@pytest.fixture(params=["exact", "hnsw"])
def index(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> DenseIndex:
    monkeypatch.setattr(config, "DENSE_ANN_FROM", 10**9 if request.param == "exact" else 0)
    vectors = _vectors(600)
    built = DenseIndex.build(vectors, np.repeat(np.arange(300), 2))  # two views per record
    assert built.approximate == (request.param == "hnsw")
    built.save(tmp_path / "dense")
    return DenseIndex.load(tmp_path / "dense")


def _exact(query: np.ndarray, allowed: np.ndarray | None = None) -> list[int]:
    """Records by best view similarity, brute force."""
    sims = (_vectors(600) @ query).reshape(300, 2).max(axis=1)
    if allowed is not None:
        sims = np.where(allowed, sims, -np.inf)
    order = np.argsort(-sims, kind="stable")
    return [int(r) for r in order if np.isfinite(sims[r])]


def test_search_finds_the_exact_top_records(index: DenseIndex) -> None:
    query = _vectors(1, seed=7)[0]
    records, sims = index.search(query, 10)
    assert records.tolist() == _exact(query)[:10]
    assert np.all(np.diff(sims) <= 1e-6)


@pytest.mark.parametrize("share", [0.05, 0.5])
def test_filters_keep_only_allowed_records_and_fill_k(index: DenseIndex, share: float) -> None:
    allowed = np.random.default_rng(1).random(300) < share
    query = _vectors(1, seed=8)[0]
    records, _ = index.search(query, 10, allowed)
    assert allowed[records].all()
    assert len(records) == min(10, int(allowed.sum()))
    assert records.tolist() == _exact(query, allowed)[: len(records)]


def test_reconstruct_returns_the_stored_vectors(index: DenseIndex) -> None:
    assert np.allclose(index.reconstruct(np.array([0, 5])), _vectors(600)[[0, 5]], atol=1e-6)
