"""BM25+ lexical indexes (bm25s), over pre-tokenized text.

bm25s implements BM25+ with sparse matrices; `tests/index/test_lexical.py` checks it against
`rank_bm25.BM25Plus`, the reference implementation.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Sequence

import bm25s
import numpy as np

logging.getLogger("bm25s").setLevel(logging.WARNING)

#: BM25+ parameters (Lv & Zhai 2011; k1 and b as Lucene, delta as rank_bm25's default).
PARAMS = {"k1": 1.2, "b": 0.75, "delta": 1.0}


class LexicalIndex:
    """A BM25+ index whose documents are token lists; scores come back per document."""

    def __init__(self, model: bm25s.BM25) -> None:
        self._model = model
        self._vocab = model.vocab_dict

    @classmethod
    def build(cls, documents: Sequence[list[str]], progress: bool = False) -> "LexicalIndex":
        model = bm25s.BM25(method="bm25+", **PARAMS)
        model.index([doc or [""] for doc in documents], show_progress=progress)
        return cls(model)

    def save(self, directory: Path) -> None:
        self._model.save(str(directory), show_progress=False)

    @classmethod
    def load(cls, directory: Path) -> "LexicalIndex":
        return cls(bm25s.BM25.load(str(directory), mmap=False, show_progress=False))

    def scores(self, query_tokens: list[str]) -> np.ndarray:
        """BM25+ score of every document; 0 where no query token occurs in it.

        BM25+ (Lv & Zhai) adds delta * idf(t) for each query term t *present* in a document.
        bm25s (like rank_bm25) also adds it for absent terms, which would give every document
        a positive score; that part is taken out here, per term. The empty token pads empty
        documents at build time; it is no word and bm25s keeps no statistics for it, so it is
        skipped (a query ending in "." yields one).
        """
        scores = self._model.scores
        data, documents, starts = scores["data"], scores["indices"], scores["indptr"]
        total = np.zeros(self.size, dtype=np.float32)
        for token in dict.fromkeys(t for t in query_tokens if t and t in self._vocab):
            column = self._vocab[token]
            # The term's postings: the documents holding it and their scores less `absent`.
            span = slice(starts[column], starts[column + 1])
            present = data[span] > 0
            absent = float(self._model.nonoccurrence_array[column])
            total[documents[span][present]] += data[span][present] + absent
        return total

    @property
    def size(self) -> int:
        return int(self._model.scores["num_docs"])
