"""Stages that re-score a fused candidate list, in the order a `Ranking` lists them.

A stage is a frozen dataclass with a `name` and `apply(scores, context)`, where `scores` maps
record positions to fused scores and `context` holds what the query found (every signal's
ranked candidates, the parsed query) and the index. Registering a class with `@stage` makes it
usable by name in `Ranking.from_dict` and in settings (`dependents.weight=0.2`); a new stage,
a reranker say, is one such class.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, ClassVar, Protocol, TypeVar

import numpy as np

if TYPE_CHECKING:
    from search.engine.query import ParsedQuery
    from search.index.store import Index

#: (positions, scores), best first, per signal name.
Signals = dict[str, tuple[np.ndarray, np.ndarray]]


@dataclass(frozen=True)
class StageContext:
    """What a stage may read besides the scores: the query, its signals, the index."""

    query: "ParsedQuery"
    signals: Signals
    index: "Index"
    #: The query's BM25+ score of the records at some positions (zero where its words do not
    #: occur), for re-scoring candidates that another signal found.
    bm25: Callable[[np.ndarray], np.ndarray]


class Stage(Protocol):
    name: ClassVar[str]

    def apply(self, scores: dict[int, float], context: StageContext) -> dict[int, float]: ...


#: Stage classes by name.
STAGES: dict[str, type] = {}
_S = TypeVar("_S", bound=type)


def stage(cls: _S) -> _S:
    """Register a stage class under its `name`."""
    STAGES[cls.name] = cls
    return cls


@stage
@dataclass(frozen=True)
class ExactName:
    """Records that the query names exactly (each of `signals`: their name, a famous title)
    go above everything the fusion ranked (`boost` is more than any fused score)."""

    name: ClassVar[str] = "exact_name"
    boost: float = 1.0
    signals: tuple[str, ...] = ("exact",)

    def __post_init__(self) -> None:
        object.__setattr__(self, "signals", tuple(self.signals))

    def apply(self, scores: dict[int, float], context: StageContext) -> dict[int, float]:
        named = dict.fromkeys(p for s in self.signals if s in context.signals for p in context.signals[s][0].tolist())
        for position in named:
            scores[position] = scores.get(position, 0.0) + self.boost
        return scores


def _add_prior(scores: dict[int, float], weight: float, prior: Callable[[np.ndarray], np.ndarray]) -> dict[int, float]:
    """Add `weight` times the prior of each scored record."""
    positions = np.fromiter(scores, dtype=np.int64, count=len(scores))
    for position, value in zip(positions.tolist(), prior(positions).tolist()):
        scores[position] += weight * value
    return scores


@stage
@dataclass(frozen=True)
class PagerankPrior:
    """PageRank over its maximum in the index, weighted: a tie-breaker at the default weight."""

    name: ClassVar[str] = "pagerank"
    weight: float = 1e-3

    def apply(self, scores: dict[int, float], context: StageContext) -> dict[int, float]:
        pagerank, top = context.index.pagerank, context.index.pagerank_max
        return _add_prior(scores, self.weight, lambda p: pagerank[p] / top if top > 0 else np.zeros(len(p)))


@stage
@dataclass(frozen=True)
class DependentsPrior:
    """log(1 + dependents) on a fixed scale, weighted: the statements others build on rise.

    It reaches its full weight at `saturation` dependents (Mathlib's most used lemma has
    about 22,600), whatever the index, so that in a small index a statement cited twice does
    not count as a pillar.
    """

    name: ClassVar[str] = "dependents"
    weight: float = 0.15
    saturation: int = 20_000

    def apply(self, scores: dict[int, float], context: StageContext) -> dict[int, float]:
        dependents = context.index.dependents

        def prior(positions: np.ndarray) -> np.ndarray:
            counts = dependents[positions].astype(np.float32)
            return np.minimum(np.log1p(counts) / np.log1p(self.saturation), 1.0)

        return _add_prior(scores, self.weight, prior)
