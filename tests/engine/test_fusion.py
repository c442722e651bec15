from types import SimpleNamespace

import numpy as np
import pytest

from search.engine import fusion, variants
from search.engine.query import parse_query
from search.engine.ranking import Fusion, Ranking
from search.engine.stages import StageContext


def context(prior: np.ndarray = np.zeros(5), bm25: np.ndarray = np.zeros(5)) -> StageContext:
    signals = {
        "dense": (np.array([3, 1, 2]), np.array([0.9, 0.6, 0.5])),
        "bm25": (np.array([1, 4]), np.array([7.0, 2.0])),
    }
    index = SimpleNamespace(pagerank=prior, pagerank_max=float(prior.max()), dependents=np.zeros(5, dtype=np.int64))
    return StageContext(parse_query("x"), signals, index, bm25.__getitem__)  # type: ignore[arg-type]


def test_rrf_sums_reciprocal_ranks() -> None:
    fused = fusion.rrf(Ranking(Fusion.RRF, ("dense", "bm25"), rrf_k=10), context())
    assert fused[1] == pytest.approx(1 / 12 + 1 / 11)
    assert fused[3] == pytest.approx(1 / 11)
    assert fused[4] == pytest.approx(1 / 12)
    assert set(fused) == {1, 2, 3, 4}


def test_leanexplore_formula() -> None:
    prior = np.array([0.0, 0.1, 0.0, 0.3, 0.0])
    bm25 = np.array([0.0, 7.0, 0.0, 1.0, 2.0])
    fused = fusion.leanexplore(variants.get("leanexplore"), context(prior, bm25))
    # Record 2 is under the 0.525 similarity threshold and is no candidate.
    assert set(fused) == {1, 3}
    # Over candidates {3, 1}: dense min-max (1, 0), BM25+ (0, 1), PageRank (1, 0).
    assert fused[3] == pytest.approx(1.0 + 0.0 + 0.2)
    assert fused[1] == pytest.approx(0.0 + 1.0 + 0.0)


def test_single_signal_keeps_its_scores() -> None:
    assert fusion.single(variants.get("bm25"), context()) == {1: 7.0, 4: 2.0}


def test_rrf_weighs_a_signal_by_the_query_kind() -> None:
    ranking = Ranking(Fusion.RRF, ("dense", "bm25"), rrf_k=10, styles={"natural": {"dense": 0.5}})
    natural = context()
    lean = StageContext(parse_query("`x`"), natural.signals, natural.index, natural.bm25)
    assert fusion.rrf(ranking, natural)[3] == pytest.approx(0.5 / 11)
    assert fusion.rrf(ranking, lean)[3] == pytest.approx(1 / 11)
