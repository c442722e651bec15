"""What the engine asks of an index's retrieval signals, whichever backend holds them.

The embedded index (bm25s postings and FAISS in files, search/index/lexical.py and dense.py)
and the PostgreSQL index (pg_textsearch and pgvector, search/index/postgres/signals.py) both
answer these calls: ranked candidates per signal, restricted to a `Selection`. Fusion, priors,
groups and filters then run in the engine, the same for both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping, Protocol

import numpy as np


@dataclass(frozen=True)
class Selection:
    """The records a filtered search may return, in the two forms the backends read: `mask`,
    one boolean per record position (the embedded index), and the filters it was made from
    (SQL: `columns` are record fields, `meta` metadata keys, each with the texts allowed)."""

    mask: np.ndarray
    columns: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    meta: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class LexicalHits:
    """A lexical signal's best candidates (positions and scores, best first) and the same
    query's score of any records (`score_of`, 0 where none of its words occurs): the
    LeanExplore fusion re-scores the dense candidates by BM25."""

    positions: np.ndarray
    scores: np.ndarray
    score_of: Callable[[np.ndarray], np.ndarray]


class LexicalSignal(Protocol):
    def rank(self, tokens: list[str], depth: int, selection: Selection | None) -> LexicalHits:
        """The `depth` best records for these query tokens within `selection`."""
        ...


class DenseSignal(Protocol):
    def rank(self, vector: np.ndarray, depth: int, selection: Selection | None) -> tuple[np.ndarray, np.ndarray]:
        """Up to `depth` records by best view similarity to `vector`, within `selection`:
        (positions, cosine similarities), best first."""
        ...


def no_lexical_scores(positions: np.ndarray) -> np.ndarray:
    """`LexicalHits.score_of` of a search that ran no lexical signal."""
    return np.zeros(len(positions), dtype=np.float32)


def top(scores: np.ndarray, mask: np.ndarray | None, depth: int) -> tuple[np.ndarray, np.ndarray]:
    """Positions and scores of the best `depth` positive scores inside `mask`.

    Only the positive entries are ranked (a query's terms reach a few thousand records, not
    the 300k that a full partition would sort through)."""
    candidates = np.flatnonzero(scores > 0)
    if mask is not None:
        candidates = candidates[mask[candidates]]
    if len(candidates) > depth:
        candidates = candidates[np.argpartition(-scores[candidates], depth - 1)[:depth]]
    best = candidates[np.argsort(-scores[candidates], kind="stable")]
    return best.astype(np.int64), scores[best].astype(np.float32)

