"""Retrieval evaluation: every labelled query through `Engine.search`, for each ranking variant.

The engine is called exactly as the CLI and the app call it, so the figures measure what users
get. Judging, metrics, intervals and paired tests come from `metrics` and `stats`.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Callable, Protocol, Sequence

import numpy as np

from eval.metrics import DEPTH, ResultLike, per_query, relevance
from eval.querysets import LabelledQuery
from eval.stats import Comparison, Estimate, paired_test, summarise

VARIANTS = ("dense", "bm25", "leanexplore", "rrf", "default")
BASELINE = "default"
#: The metric of the paired tests and of the headline comparison.
PRIMARY = "nDCG@10"

log = logging.getLogger(__name__)


class Searcher(Protocol):
    """The part of `search.engine.engine.Engine` that the evaluation uses."""

    def search(self, query: str, k: int = ..., *, variant: str = ...) -> Sequence[ResultLike]: ...


@dataclass
class VariantRun:
    """Per-query outcome of one variant, aligned with the query list."""

    variant: str
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
    variants: Sequence[str] = VARIANTS,
    k: int = DEPTH,
    exists: Callable[[str], bool] | None = None,
    metric: str = PRIMARY,
) -> RetrievalRun:
    """Search every query with every variant (top `k`), judge, aggregate and compare.

    `exists(name_or_id)` tells whether the index has a gold; golds it denies are listed in
    `missing` and, having no record to be found, count as misses. Each variant other than
    `default` is compared with `default` on `metric`, when `default` is among `variants`.
    """
    queries = list(queries)
    groups = [q.group for q in queries]
    runs = {}
    for variant in variants:
        rel, seconds = _search_all(engine, queries, variant, k)
        scores = per_query(rel, [len(q.relevant) for q in queries])
        first_hit = np.where(rel.any(axis=1), rel.argmax(axis=1) + 1, 0)
        runs[variant] = VariantRun(variant, scores, first_hit, seconds, summarise(scores, groups))
        log.info("%s: %d queries in %.1f s, %s %.3f", variant, len(queries), seconds.sum(),
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
    engine: Searcher, queries: list[LabelledQuery], variant: str, k: int
) -> tuple[np.ndarray, np.ndarray]:
    """Relevance matrix (queries x DEPTH) and wall-clock seconds per query."""
    rel = np.zeros((len(queries), DEPTH))
    seconds = np.zeros(len(queries))
    for i, query in enumerate(queries):
        start = time.perf_counter()
        results = engine.search(query.query, k=k, variant=variant)
        seconds[i] = time.perf_counter() - start
        rel[i] = relevance(results, query.relevant)
    return rel, seconds
