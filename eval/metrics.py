"""Per-query retrieval metrics with binary relevance.

A ranked result list is judged once, into a 0/1 relevance vector; every metric is then a few
numpy operations on the stacked vectors. The definitions are ranx's (tests check that the
values equal `ranx.evaluate` on random runs), written out here because importing and
JIT-compiling ranx costs several seconds per process, longer than a whole evaluation of
the metrics.
"""

from __future__ import annotations

from typing import Callable, Protocol, Sequence

import numpy as np

#: Report label -> ranx metric name.
METRICS: dict[str, str] = {
    "P@1": "precision@1",
    "Hit@1": "hit_rate@1",
    "Hit@10": "hit_rate@10",
    "Hit@20": "hit_rate@20",
    "MRR@10": "mrr@10",
    "MRR@20": "mrr@20",
    "nDCG@1": "ndcg@1",
    "nDCG@5": "ndcg@5",
    "nDCG@10": "ndcg@10",
    "R@10": "recall@10",
    "R@50": "recall@50",
    "R@100": "recall@100",
}
#: The metric every headline, paired test and documented comparison is made on.
PRIMARY = "nDCG@10"
#: How many results are judged: the deepest cut-off of any metric.
DEPTH = max(int(name.split("@")[1]) for name in METRICS.values())


class _Statement(Protocol):
    id: str
    name: str


class ResultLike(Protocol):
    """What judging needs of a search result (`search.engine.engine.Result` has it)."""

    statement: _Statement
    members: list[str]


def matched_golds(result: ResultLike, relevant: frozenset[str]) -> frozenset[str]:
    """The golds a result stands for: its statement or any member of its StatementGroup,
    compared by id and by name (member names are the part of the id after `source:`)."""
    keys = {result.statement.id, result.statement.name}
    for member in result.members:
        keys.update((member, member.split(":", 1)[-1]))
    return relevant & keys


def relevance(results: Sequence[ResultLike], relevant: frozenset[str], depth: int = DEPTH) -> np.ndarray:
    """0/1 vector of length `depth` (padded with 0): 1 where a result is a gold not yet found.

    Each gold is credited once, to its best-ranked result, as if that result were renamed to
    the gold's id in a ranx run; a result standing for several golds counts once.
    """
    vector = np.zeros(depth, dtype=np.float64)
    found: set[str] = set()
    for rank, result in enumerate(results[:depth]):
        fresh = matched_golds(result, relevant) - found
        if fresh:
            found.add(min(fresh))
            vector[rank] = 1.0
    return vector


def _precision(rel: np.ndarray, n_relevant: np.ndarray, k: int) -> np.ndarray:
    return rel.sum(axis=1) / k


def _hit_rate(rel: np.ndarray, n_relevant: np.ndarray, k: int) -> np.ndarray:
    return rel.any(axis=1).astype(np.float64)


def _mrr(rel: np.ndarray, n_relevant: np.ndarray, k: int) -> np.ndarray:
    return np.where(rel.any(axis=1), 1.0 / (rel.argmax(axis=1) + 1), 0.0)


def _ndcg(rel: np.ndarray, n_relevant: np.ndarray, k: int) -> np.ndarray:
    discounts = 1.0 / np.log2(np.arange(2, k + 2))
    ideal = np.cumsum(discounts)[np.minimum(n_relevant, k) - 1]
    return (rel * discounts).sum(axis=1) / ideal


def _recall(rel: np.ndarray, n_relevant: np.ndarray, k: int) -> np.ndarray:
    return rel.sum(axis=1) / n_relevant


_FAMILIES: dict[str, Callable[[np.ndarray, np.ndarray, int], np.ndarray]] = {
    "precision": _precision,
    "hit_rate": _hit_rate,
    "mrr": _mrr,
    "ndcg": _ndcg,
    "recall": _recall,
}


def per_query(rel: np.ndarray, n_relevant: Sequence[int]) -> dict[str, np.ndarray]:
    """Every metric of `METRICS` for each query.

    `rel` is the (queries x DEPTH) stack of `relevance` vectors; `n_relevant` the number of
    golds per query (golds absent from the index included, so they count as misses).
    """
    rel = np.asarray(rel, dtype=np.float64)
    counts = np.asarray(n_relevant, dtype=np.int64)
    if rel.ndim != 2 or rel.shape[1] < DEPTH or len(counts) != len(rel) or (counts < 1).any():
        raise ValueError(f"need a (queries x {DEPTH}) relevance matrix and >= 1 gold per query")
    scores = {}
    for label, name in METRICS.items():
        family, k = name.split("@")
        scores[label] = _FAMILIES[family](rel[:, : int(k)], counts, int(k))
    return scores
