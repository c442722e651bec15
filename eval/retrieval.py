"""Retrieval evaluation: every labelled query through `Engine.search`, for each ranking variant.

The engine is called exactly as the CLI and the app call it, so the figures measure what users
get. Judging, metrics, intervals and paired tests come from `metrics` and `stats`.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Protocol, Sequence

import numpy as np

from search.engine import variants
from search.engine.ranking import Ranking

from eval.metrics import DEPTH, PRIMARY, ResultLike, per_query, relevance
from eval.querysets import LabelledQuery
from eval.stats import Comparison, Estimate, paired_test, summarise

BASELINE = variants.DEFAULT

log = logging.getLogger(__name__)


class Searcher(Protocol):
    """The part of `search.engine.engine.Engine` that the evaluation uses."""

    def search(self, query: str, k: int = ..., filters: Mapping[str, Any] | None = ...,
               variant: Ranking | str = ...) -> Sequence[ResultLike]: ...


@dataclass
class VariantRun:
    """Per-query outcome of one variant, aligned with the query list."""

    variant: str
    #: The ranking as run (`Ranking.to_dict()`); None for a name the registry does not hold.
    ranking: dict[str, Any] | None
    scores: dict[str, np.ndarray]
    first_hit: np.ndarray  # rank of the best-ranked gold, 0 when none is in the top k
    seconds: np.ndarray
    summary: dict[tuple[str, str], dict[str, Estimate]]


@dataclass
class RetrievalRun:
    """Everything a report shows: per-query values, breakdowns with intervals, paired tests."""

    queries: list[LabelledQuery]
    k: int
    variants: dict[str, VariantRun]
    comparisons: list[Comparison]
    #: Golds no record of the index has (None when not checked); they count as misses.
    missing: list[str] | None

    @property
    def unanswerable(self) -> int | None:
        """Queries none of whose golds is in the index."""
        if self.missing is None:
            return None
        absent = set(self.missing)
        return sum(1 for q in self.queries if q.relevant <= absent)


def run_retrieval(
    engine: Searcher,
    queries: Sequence[LabelledQuery],
    rankings: Sequence[str] | Mapping[str, Ranking | str] | None = None,
    k: int = DEPTH,
    exists: Callable[[str], bool] | None = None,
    metric: str = PRIMARY,
) -> RetrievalRun:
    """Search every query with every ranking (top `k`), judge, aggregate and compare.

    `rankings` names registered variants, or maps a label to a `Ranking` (a variant with
    settings changed, say); by default every registered variant. `exists(name_or_id)` tells
    whether the index has a gold; golds it denies are listed in `missing` and, having no
    record to be found, count as misses. Each ranking other than `default` is compared with
    `default` on `metric`, when `default` is among them.
    """
    if rankings is None:
        rankings = variants.names()
    if not isinstance(rankings, Mapping):
        rankings = {name: name for name in rankings}
    queries = list(queries)
    groups = [q.group for q in queries]
    runs = {}
    for label, ranking in rankings.items():
        rel, seconds = _search_all(engine, queries, ranking, k)
        scores = per_query(rel, [len(q.relevant) for q in queries])
        first_hit = np.where(rel.any(axis=1), rel.argmax(axis=1) + 1, 0)
        described = (ranking if isinstance(ranking, Ranking) else variants.VARIANTS.get(ranking))
        runs[label] = VariantRun(label, described and described.to_dict(), scores, first_hit, seconds, summarise(scores, groups))
        log.info("%s: %d queries in %.1f s, %s %.3f", label, len(queries), seconds.sum(),
                 metric, scores[metric].mean())
    comparisons = [
        paired_test(runs[BASELINE].scores[metric], run.scores[metric],
                    baseline=BASELINE, variant=name, metric=metric)
        for name, run in runs.items() if BASELINE in runs and name != BASELINE
    ]
    missing = None
    if exists is not None:
        missing = sorted({g for q in queries for g in q.relevant if not exists(g)})
    return RetrievalRun(queries, k, runs, comparisons, missing)


def _search_all(
    engine: Searcher, queries: list[LabelledQuery], variant: Ranking | str, k: int
) -> tuple[np.ndarray, np.ndarray]:
    """Relevance matrix (queries x DEPTH) and wall-clock seconds per query."""
    rel = np.zeros((len(queries), DEPTH))
    seconds = np.zeros(len(queries))
    for i, query in enumerate(queries):
        start = time.perf_counter()
        results = engine.search(query.query, k=k, filters=query.filters or None, variant=variant)
        seconds[i] = time.perf_counter() - start
        rel[i] = relevance(results, query.relevant)
    return rel, seconds
