"""Fusion of per-signal candidate lists into one score per record.

Each variant is a function of the signals (ranked positions and scores per signal) and the
PageRank prior; all are kept, by name, as baselines for the evaluation.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

#: (positions, scores), best first, per signal name.
Signals = dict[str, tuple[np.ndarray, np.ndarray]]
Fusion = Callable[[Signals, np.ndarray], dict[int, float]]

#: LeanExplore's published formula (paper §4; DESIGN §4).
LEANEXPLORE_THRESHOLD = 0.525
LEANEXPLORE_WEIGHTS = {"dense": 1.0, "bm25": 1.0, "pagerank": 0.2}


def single(signal: str) -> Fusion:
    """One signal alone, by its own score."""

    def fuse(signals: Signals, prior: np.ndarray) -> dict[int, float]:
        positions, scores = signals.get(signal, (np.zeros(0, dtype=np.int64), np.zeros(0)))
        return {int(p): float(s) for p, s in zip(positions, scores)}

    return fuse


def rrf(k: int = 60, weights: dict[str, float] | None = None, signals_used: tuple[str, ...] = ("dense", "bm25")) -> Fusion:
    """Reciprocal rank fusion: sum over signals of weight / (k + rank)."""
    weights = weights or {}

    def fuse(signals: Signals, prior: np.ndarray) -> dict[int, float]:
        fused: dict[int, float] = {}
        for name in signals_used:
            if name not in signals:
                continue
            weight = weights.get(name, 1.0)
            for rank, position in enumerate(signals[name][0].tolist(), 1):
                fused[position] = fused.get(position, 0.0) + weight / (k + rank)
        return fused

    return fuse


def _minmax(values: np.ndarray) -> np.ndarray:
    span = float(values.max() - values.min()) if len(values) else 0.0
    return (values - values.min()) / span if span > 0 else np.ones_like(values)


def leanexplore(bm25_scores: Callable[[np.ndarray], np.ndarray]) -> Fusion:
    """LeanExplore: dense candidates above 0.525 similarity, then BM25+ and PageRank on those
    candidates, each min-max normalised per query; 1.0·dense + 1.0·BM25+ + 0.2·PageRank.

    `bm25_scores(positions)` gives the BM25+ score of the query for the given records.
    """

    def fuse(signals: Signals, prior: np.ndarray) -> dict[int, float]:
        positions, sims = signals.get("dense", (np.zeros(0, dtype=np.int64), np.zeros(0)))
        keep = sims > LEANEXPLORE_THRESHOLD
        positions, sims = positions[keep], sims[keep]
        if len(positions) == 0:
            return {}
        w = LEANEXPLORE_WEIGHTS
        total = (
            w["dense"] * _minmax(sims.astype(np.float64))
            + w["bm25"] * _minmax(bm25_scores(positions).astype(np.float64))
            + w["pagerank"] * _minmax(prior[positions].astype(np.float64))
        )
        return {int(p): float(s) for p, s in zip(positions, total)}

    return fuse
