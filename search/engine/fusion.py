"""Fusion of per-signal candidate lists into one score per record, one function per
`Fusion` method, each reading its parameters from the `Ranking`.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from search.engine.ranking import Fusion, Ranking
from search.engine.stages import Signals, StageContext

_EMPTY = (np.zeros(0, dtype=np.int64), np.zeros(0))


def single(ranking: Ranking, context: StageContext) -> dict[int, float]:
    """One signal alone, by its own score."""
    positions, scores = context.signals.get(ranking.signals[0], _EMPTY)
    return {int(p): float(s) for p, s in zip(positions, scores)}


def rrf(ranking: Ranking, context: StageContext) -> dict[int, float]:
    """Reciprocal rank fusion: sum over signals of weight / (k + rank)."""
    fused: dict[int, float] = {}
    for name in ranking.signals:
        if name not in context.signals:
            continue
        weight = ranking.weight(name, context.query.kind)
        for rank, position in enumerate(context.signals[name][0].tolist(), 1):
            fused[position] = fused.get(position, 0.0) + weight / (ranking.rrf_k + rank)
    return fused


def _minmax(values: np.ndarray) -> np.ndarray:
    span = float(values.max() - values.min()) if len(values) else 0.0
    return (values - values.min()) / span if span > 0 else np.ones_like(values)


def leanexplore(ranking: Ranking, context: StageContext) -> dict[int, float]:
    """LeanExplore: dense candidates above the similarity threshold, then BM25+ and PageRank
    on those candidates, each min-max normalised per query, weighted and summed (the paper:
    threshold 0.525, 1.0·dense + 1.0·BM25+ + 0.2·PageRank)."""
    positions, sims = context.signals.get("dense", _EMPTY)
    keep = sims > ranking.dense_threshold
    positions, sims = positions[keep], sims[keep]
    if len(positions) == 0:
        return {}
    kind = context.query.kind
    total = (
        ranking.weight("dense", kind) * _minmax(sims.astype(np.float64))
        + ranking.weight("bm25", kind) * _minmax(context.bm25(positions).astype(np.float64))
        + ranking.weight("pagerank", kind) * _minmax(context.index.pagerank[positions].astype(np.float64))
    )
    return {int(p): float(s) for p, s in zip(positions, total)}


FUSIONS: dict[Fusion, Callable[[Ranking, StageContext], dict[int, float]]] = {
    Fusion.SINGLE: single,
    Fusion.RRF: rrf,
    Fusion.LEANEXPLORE: leanexplore,
}


def fuse(ranking: Ranking, context: StageContext) -> dict[int, float]:
    """The fused scores of `ranking`'s method, then its stages in order."""
    scores = FUSIONS[ranking.fusion](ranking, context)
    for stage in ranking.stages:
        scores = stage.apply(scores, context)
    return scores


__all__ = ["FUSIONS", "Signals", "fuse", "leanexplore", "rrf", "single"]
