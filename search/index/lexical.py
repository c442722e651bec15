"""BM25+ lexical indexes (bm25s), over pre-tokenized text.

bm25s implements BM25+ with sparse matrices; `tests/index/test_lexical.py` checks it against
`rank_bm25.BM25Plus`, the reference implementation. bm25s writes and reads the files; scoring
is done here, over postings prepared once (see `Postings`).
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import bm25s
import numpy as np

from search import config
from search.index.signals import LexicalHits, Selection, top

logging.getLogger("bm25s").setLevel(logging.WARNING)

#: BM25+ parameters (Lv & Zhai 2011; k1 and b as Lucene, delta as rank_bm25's default).
PARAMS = {"k1": 1.2, "b": 0.75, "delta": 1.0}


@dataclass(frozen=True)
class Postings:
    """Per term, the documents holding it and the term's whole BM25+ score in each.

    BM25+ (Lv & Zhai) adds delta * idf(t) for each query term t *present* in a document.
    bm25s (like rank_bm25) stores the score less that constant and adds it for every document,
    absent terms included, which would give every document a positive score. Folding the
    constant into the stored scores once, at load, leaves one gather-and-add per query term:
    the query path was GIL-bound on the per-term masking and copies this replaces (py-spy,
    16 concurrent clients). Every stored score is positive (idf = log((N + 1) / df) > 0 and
    the term-frequency part is positive), so no entry needs dropping.
    """

    scores: np.ndarray  # float32, one per (term, document) pair, grouped by term
    documents: np.ndarray  # the document of each pair
    starts: np.ndarray  # term t's pairs are [starts[t], starts[t + 1])

    @classmethod
    def of(cls, model: bm25s.BM25) -> "Postings":
        matrix = model.scores
        data, starts = matrix["data"], matrix["indptr"]
        constant = np.repeat(model.nonoccurrence_array.astype(data.dtype), np.diff(starts))
        return cls(scores=data + constant, documents=matrix["indices"], starts=starts)


class LexicalIndex:
    """A BM25+ index whose documents are token lists; scores come back per document."""

    def __init__(self, model: bm25s.BM25) -> None:
        self._vocab = model.vocab_dict
        self._postings = Postings.of(model)
        self.size = int(model.scores["num_docs"])

    @classmethod
    def build(cls, documents: Sequence[list[str]]) -> "LexicalIndex":
        """An index in memory (tests, synthetic benchmarks)."""
        return cls(_bm25(documents))

    @staticmethod
    def write(documents: Sequence[list[str]], directory: Path) -> None:
        """Index `documents` into `directory`, in bm25s's format, for `load`."""
        _bm25(documents).save(str(directory), show_progress=False)

    @classmethod
    def load(cls, directory: Path) -> "LexicalIndex":
        return cls(bm25s.BM25.load(str(directory), mmap=config.INDEX_MMAP, show_progress=False))

    def scores(self, query_tokens: list[str]) -> np.ndarray:
        """BM25+ score of every document; 0 where no query token occurs in it.

        The empty token pads empty documents at build time; it is no word and bm25s keeps no
        statistics for it, so it is skipped (a query ending in "." yields one).
        """
        postings = self._postings
        terms = [self._vocab[t] for t in dict.fromkeys(t for t in query_tokens if t and t in self._vocab)]
        if not terms:
            return np.zeros(self.size, dtype=np.float32)
        # One pass over the terms' postings in C (summed in float64), where an indexed add per
        # term gathered, added and scattered each term's documents: over the queries of
        # `python -m eval bench latency` on the full index, alternated in one process, 1.85 ->
        # 1.40 ms for the text view's index and 1.07 -> 0.95 ms for the names'.
        spans = [slice(postings.starts[t], postings.starts[t + 1]) for t in terms]
        documents = np.concatenate([postings.documents[span] for span in spans])
        scores = np.concatenate([postings.scores[span] for span in spans])
        return np.bincount(documents, weights=scores, minlength=self.size).astype(np.float32)

    def rank(self, tokens: list[str], depth: int, selection: Selection | None) -> LexicalHits:
        """The `depth` best documents within `selection`, scored once for every document."""
        scores = self.scores(tokens)
        positions, best = top(scores, None if selection is None else selection.mask, depth)
        return LexicalHits(positions, best, lambda candidates: scores[candidates])


def bm25plus(
    frequencies: Sequence[tuple[int, int]], length: int, documents: int, average_length: float
) -> float:
    """One document's BM25+ score as bm25s computes it (with `PARAMS`), from each query term's
    (frequency in the document, number of documents holding it) and the document's length in
    tokens (an empty document counts 1, the empty token bm25s pads it with): the sum over the
    terms present of idf · ((k1 + 1) · tf / (k1 · (1 - b + b · length / average) + tf) + delta),
    idf = log((N + 1) / df). For scoring a few documents' texts without the postings (the
    PostgreSQL backend re-scores the candidates pg_textsearch finds); `tests/index/test_lexical.py`
    checks it against `LexicalIndex.scores`."""
    k1, b, delta = PARAMS["k1"], PARAMS["b"], PARAMS["delta"]
    norm = k1 * (1 - b + b * max(length, 1) / average_length)
    return sum(
        math.log((documents + 1) / df) * ((k1 + 1) * tf / (norm + tf) + delta)
        for tf, df in frequencies if tf > 0 and df > 0
    )


def _bm25(documents: Sequence[list[str]]) -> bm25s.BM25:
    """bm25s's BM25+ over `documents`; an empty one becomes the empty token (bm25s needs one)."""
    model = bm25s.BM25(method="bm25+", **PARAMS)
    model.index([doc or [""] for doc in documents], show_progress=False)
    return model
